// Distances on hand-checked shapes: user roots first, then the system part at 100000000 + hops.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphBuilder } from '../helpers/graph-builder.js';
import {
  computeDistances, computeEssentialEdgeMask, SYSTEM_DISTANCE_BASE as S, UNREACHABLE_DISTANCE as U,
} from '../../src/analysis/index.js';

function distancesOf(b: GraphBuilder): number[] {
  const g = b.toGraph();
  return [...computeDistances(g, computeEssentialEdgeMask(g))];
}

test('user roots first, then what only the GC roots reach; weak edges are not followed', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const global = b.node('object', 'global', 1);
  const gcRoots = b.node('synthetic', '(GC roots)', 0);
  const a = b.node('object', 'A', 1);
  const deep = b.node('object', 'Deep', 1);
  const sys = b.node('object', 'Sys', 1);
  const weakOnly = b.node('object', 'W', 1);
  b.edge(root, gcRoots, 'element', 1).edge(root, global, 'shortcut', '2');
  b.edge(gcRoots, sys, 'element', 1).edge(gcRoots, deep, 'element', 2);
  b.edge(global, a, 'property', 'a').edge(a, deep, 'property', 'd').edge(a, weakOnly, 'weak', 'w');
  assert.deepEqual(distancesOf(b), [S, 1, S + 1, 2, 3, S + 2, U]);
});

test('without user roots the root is at 0', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const gcRoots = b.node('synthetic', '(GC roots)', 0);
  const a = b.node('object', 'A', 1);
  b.edge(root, gcRoots, 'element', 1).edge(gcRoots, a, 'element', 1);
  assert.deepEqual(distancesOf(b), [0, 1, 2]);
});

test('shortcut and self edges are followed (only dominators skip them)', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const a = b.node('object', 'A', 1);
  const t = b.node('object', 'T', 1);
  b.edge(root, a, 'shortcut', '1').edge(a, a, 'property', 'me').edge(a, t, 'shortcut', 't');
  assert.deepEqual(distancesOf(b), [S, 1, 2]);
});

test('a WeakMap value is as far as the farther of key and table, plus one', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const global = b.node('object', 'global', 1);
  const key = b.node('object', 'Key', 1);
  const map = b.node('object', 'WeakMap', 1);
  const table = b.node('array', '', 1);
  const value = b.node('object', 'Value', 1);
  const far = b.node('object', 'Far', 1);
  const pair = ` / part of key (Key @${b.idOf(key)}) -> value (Value @${b.idOf(value)}) pair in WeakMap (table @${b.idOf(table)})`;
  b.edge(root, global, 'shortcut', '1').edge(global, key, 'property', 'key').edge(global, map, 'property', 'map');
  b.edge(map, table, 'internal', 'table').edge(key, value, 'internal', `1${pair}`).edge(table, value, 'internal', `7${pair}`);
  b.edge(value, far, 'property', 'f');
  // key 2, map 2, table 3: the key's edge is met first and skipped; the table's gives 4.
  assert.deepEqual(distancesOf(b), [S, 1, 2, 2, 3, 4, 5]);
});

test('descriptor links of (map descriptors) and sloppy_function_map are not followed', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const global = b.node('object', 'global', 1);
  const descriptors = b.node('array', '(map descriptors)', 1);
  const kept = [0, 1, 2, 3, 5, 6].map((i) => b.node('object', `k${i}`, 1));
  const skipped = [4, 7].map((i) => b.node('object', `s${i}`, 1));
  const context = b.node('hidden', 'system / NativeContext', 1);
  const sloppy = b.node('object', 'sloppy', 1);
  const other = b.node('object', 'other', 1);
  b.edge(root, global, 'shortcut', '1').edge(global, descriptors, 'internal', 'd').edge(global, context, 'internal', 'c');
  [0, 1, 2, 3, 5, 6].forEach((i, k) => b.edge(descriptors, kept[k]!, 'element', i));
  [4, 7].forEach((i, k) => b.edge(descriptors, skipped[k]!, 'element', i));
  b.edge(context, sloppy, 'internal', 'sloppy_function_map').edge(context, other, 'internal', 'other_map');
  const d = distancesOf(b);
  for (const k of kept) assert.equal(d[k], 3);
  for (const s of skipped) assert.equal(d[s], U);
  assert.equal(d[sloppy], U);
  assert.equal(d[other], 3);
});
