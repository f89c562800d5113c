// Retained sizes and DevTools self sizes on hand-checked shapes, including sums past 2^32.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphBuilder } from '../helpers/graph-builder.js';
import {
  analyzeHeap, computeDominators, computeEssentialEdgeMask, computeRetainedSizes, computeShallowSizes,
} from '../../src/analysis/index.js';

function retainedOf(b: GraphBuilder): number[] {
  const g = b.toGraph();
  return [...computeRetainedSizes(g, computeDominators(g, computeEssentialEdgeMask(g)))];
}

test('diamond: the fork retains the join, the branches only themselves', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const a = b.node('object', 'A', 1);
  const l = b.node('object', 'L', 10);
  const r = b.node('object', 'R', 100);
  const j = b.node('object', 'J', 1000);
  b.edge(root, a, 'element', 1).edge(a, l, 'property', 'l').edge(a, r, 'property', 'r');
  b.edge(l, j, 'property', 'j').edge(r, j, 'property', 'j');
  assert.deepEqual(retainedOf(b), [1111, 1111, 10, 100, 1000]);
});

test('unreachable nodes count towards the root only; a weak-only node retains what only it holds', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const a = b.node('object', 'A', 1);
  const w = b.node('object', 'W', 20);
  const u = b.node('object', 'U', 300);
  const x = b.node('object', 'X', 4000);
  const y = b.node('object', 'Y', 50000);
  b.edge(root, a, 'element', 1).edge(a, w, 'weak', 'w').edge(w, u, 'property', 'u');
  b.edge(x, y, 'property', 'y').edge(y, x, 'property', 'x');
  assert.deepEqual(retainedOf(b), [54321, 1, 320, 300, 4000, 50000]);
});

test('WeakMap: the key retains the value, the table does not', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const global = b.node('object', 'global', 1);
  const key = b.node('object', 'Key', 10);
  const table = b.node('array', '', 100);
  const value = b.node('object', 'Value', 1000);
  const pair = ` / part of key (Key @${b.idOf(key)}) -> value (Value @${b.idOf(value)}) pair in WeakMap (table @${b.idOf(table)})`;
  b.edge(root, global, 'shortcut', '1').edge(global, key, 'property', 'k').edge(global, table, 'internal', 't');
  b.edge(key, value, 'internal', `1${pair}`).edge(table, value, 'internal', `2${pair}`);
  assert.deepEqual(retainedOf(b), [1111, 1111, 1010, 100, 1000]);
});

test('sizes above 2^32 sum exactly', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const a = b.node('object', 'A', 2 ** 32 + 5);
  const c = b.node('object', 'C', 2 ** 32 - 3);
  const d = b.node('object', 'D', 2 ** 33 + 1);
  b.edge(root, a, 'element', 1).edge(a, c, 'property', 'c').edge(root, d, 'element', 2);
  assert.deepEqual(retainedOf(b), [2 ** 34 + 3, 2 ** 33 + 2, 2 ** 32 - 3, 2 ** 33 + 1]);
});

test('DevTools self sizes: a hidden/array node with one owner is folded into it', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const global = b.node('object', 'global', 10);
  const arr = b.node('object', 'Array', 16);
  const elements = b.node('array', '(object elements)', 400);
  const inner = b.node('hidden', 'system / Inner', 8);
  const shared = b.node('array', '(shared)', 50);
  const other = b.node('object', 'Other', 20);
  const gcRoots = b.node('synthetic', '(GC roots)', 0);
  const sysArray = b.node('array', '(sys)', 70);
  b.edge(root, global, 'shortcut', '1').edge(root, gcRoots, 'element', 2).edge(gcRoots, sysArray, 'element', 1);
  b.edge(global, arr, 'property', 'a').edge(global, other, 'property', 'o');
  b.edge(arr, elements, 'internal', 'elements').edge(elements, inner, 'internal', 'x');
  b.edge(arr, shared, 'internal', 's').edge(other, shared, 'internal', 's').edge(other, elements, 'weak', 'w');
  const g = b.toGraph();
  assert.deepEqual([...computeShallowSizes(g)], [0, 10, 424, 0, 0, 50, 20, 0, 70]);
  assert.equal(g.nodeSelfSize[elements], 400, 'the graph itself is not changed');
  const analysis = analyzeHeap(g);
  assert.equal(analysis.retainedSizes[arr], 424 + 0, 'Array retains its elements (now 0) and inner (now 0)');
  assert.equal(analysis.retainedSizes[root], 10 + 16 + 400 + 8 + 50 + 20 + 70, 'total unchanged');
});

test('DevTools self sizes stay as written when the root has no user roots', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const gcRoots = b.node('synthetic', '(GC roots)', 0);
  const o = b.node('object', 'O', 10);
  const arr = b.node('array', '', 30);
  b.edge(root, gcRoots, 'element', 1).edge(gcRoots, o, 'element', 1).edge(o, arr, 'internal', 'a');
  assert.deepEqual([...computeShallowSizes(b.toGraph())], [0, 0, 10, 30]);
});

test('DevTools self sizes: external string data is folded into its string, unless shown as detached', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const global = b.node('object', 'global', 10);
  const str = b.node('string', 'external', 32);
  const data = b.node('native', 'system / ExternalStringData', 1000);
  const str2 = b.node('string', 'external 2', 32);
  const data2 = b.node('native', 'system / ExternalStringData', 500, { detachedness: 2 });
  b.edge(root, global, 'shortcut', '1').edge(global, str, 'property', 's').edge(str, data, 'internal', 'data');
  b.edge(global, str2, 'property', 't').edge(str2, data2, 'internal', 'data');
  assert.deepEqual([...computeShallowSizes(b.toGraph())], [0, 10, 1032, 0, 32, 500]);
});
