// Dominators on hand-checked shapes: exact immediate dominators with DevTools' essential-edge rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphBuilder } from '../helpers/graph-builder.js';
import { computeDominators, computeEssentialEdgeMask } from '../../src/analysis/index.js';

function dominatorsOf(b: GraphBuilder): number[] {
  const g = b.toGraph();
  return [...computeDominators(g, computeEssentialEdgeMask(g))];
}

test('diamond: the join is dominated by the fork, the root dominates itself', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const a = b.node('object', 'A', 1);
  const l = b.node('object', 'L', 1);
  const r = b.node('object', 'R', 1);
  const j = b.node('object', 'J', 1);
  b.edge(root, a, 'element', 1).edge(a, l, 'property', 'l').edge(a, r, 'property', 'r');
  b.edge(l, j, 'property', 'j').edge(r, j, 'property', 'j');
  assert.deepEqual(dominatorsOf(b), [root, root, a, a, a]);
});

test('cycle: entered once, dominated along the cycle; entered twice, its entries by the root', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const a = b.node('object', 'A', 1);
  const x = b.node('object', 'X', 1);
  const y = b.node('object', 'Y', 1);
  b.edge(root, a, 'element', 1).edge(a, x, 'property', 'x').edge(x, y, 'property', 'y').edge(y, a, 'property', 'a');
  assert.deepEqual(dominatorsOf(b), [root, root, a, x]);
  b.edge(root, y, 'element', 2);
  assert.deepEqual(dominatorsOf(b), [root, root, a, root]);
});

test('weak edges retain nothing: a weak-only node hangs off the root with what only it holds', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const a = b.node('object', 'A', 1);
  const w = b.node('object', 'W', 1);
  const under = b.node('object', 'Under', 1);
  const both = b.node('object', 'Both', 1);
  b.edge(root, a, 'element', 1).edge(a, w, 'weak', 'w').edge(w, under, 'property', 'u');
  b.edge(a, both, 'weak', 'b').edge(root, both, 'element', 2).edge(w, both, 'property', 'b');
  // `both`: strongly from the root and from the orphan `w` (a virtual root edge): the root dominates it.
  assert.deepEqual(dominatorsOf(b), [root, root, root, w, root]);
});

test('an orphan reaching into the reachable part takes dominance away from the inner dominator', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const a = b.node('object', 'A', 1);
  const z = b.node('object', 'Z', 1);
  const orphan = b.node('object', 'O', 1);
  b.edge(root, a, 'element', 1).edge(a, z, 'property', 'z').edge(orphan, z, 'property', 'z');
  assert.deepEqual(dominatorsOf(b), [root, root, root, root]);
});

test('an island held only by itself hangs off the root, and its edges out are ignored', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const a = b.node('object', 'A', 1);
  const z = b.node('object', 'Z', 1);
  const x = b.node('object', 'X', 1);
  const y = b.node('object', 'Y', 1);
  const under = b.node('object', 'UnderY', 1);
  b.edge(root, a, 'element', 1).edge(a, z, 'property', 'z');
  b.edge(x, y, 'property', 'y').edge(y, x, 'property', 'x').edge(y, under, 'property', 'u').edge(x, z, 'property', 'z');
  b.edge(a, x, 'weak', 'x');
  assert.deepEqual(dominatorsOf(b), [root, root, a, root, root, root]);
});

test('WeakMap: the value is dominated by its key, not by the table', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const global = b.node('object', 'global', 1);
  const key = b.node('object', 'Key', 10);
  const map = b.node('object', 'WeakMap', 10);
  const table = b.node('array', '', 10);
  const value = b.node('object', 'Value', 100);
  const pair = ` / part of key (Key @${b.idOf(key)}) -> value (Value @${b.idOf(value)}) pair in WeakMap (table @${b.idOf(table)})`;
  b.edge(root, global, 'shortcut', '1').edge(global, key, 'property', 'key').edge(global, map, 'property', 'map');
  b.edge(map, table, 'internal', 'table');
  b.edge(table, key, 'weak', 2).edge(table, value, 'weak', 3).edge(table, value, 'internal', `4${pair}`);
  b.edge(key, value, 'internal', `1${pair}`);
  assert.deepEqual(dominatorsOf(b), [root, root, global, global, map, key]);
});

test('shortcut edges count only from the root', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const global = b.node('object', 'global', 1);
  const a = b.node('object', 'A', 1);
  const c = b.node('object', 'C', 1);
  const target = b.node('object', 'T', 1);
  b.edge(root, global, 'shortcut', '1').edge(global, a, 'property', 'a').edge(global, c, 'property', 'c');
  b.edge(a, target, 'shortcut', 't').edge(c, target, 'property', 't');
  assert.deepEqual(dominatorsOf(b), [root, root, global, global, c]);
});

test('edges from outside the page-owned set into it are not essential ((Global handles) does not steal)', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const global = b.node('object', 'global', 1);
  const gcRoots = b.node('synthetic', '(GC roots)', 0);
  const handles = b.node('synthetic', '(Global handles)', 0);
  const p = b.node('object', 'P', 1);
  const q = b.node('object', 'Q', 1);
  b.edge(root, global, 'shortcut', '1').edge(root, gcRoots, 'element', 1).edge(gcRoots, handles, 'element', 1);
  b.edge(global, p, 'property', 'p').edge(p, q, 'property', 'q');
  b.edge(handles, q, 'element', 1);
  assert.deepEqual(dominatorsOf(b), [root, root, root, gcRoots, global, p]);
});

test('self edges are ignored: a node held only by itself is an orphan', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const a = b.node('object', 'A', 1);
  const s = b.node('object', 'Self', 1);
  const under = b.node('object', 'U', 1);
  b.edge(root, a, 'element', 1).edge(a, a, 'property', 'me').edge(s, s, 'property', 'me').edge(s, under, 'property', 'u');
  assert.deepEqual(dominatorsOf(b), [root, root, root, s]);
});

test('a root that is not the first node', () => {
  const b = new GraphBuilder({ rootOrdinal: 2 });
  const a = b.node('object', 'A', 1);
  const c = b.node('object', 'C', 1);
  const root = b.node('synthetic', '', 0);
  b.edge(root, a, 'element', 1).edge(a, c, 'property', 'c');
  assert.deepEqual(dominatorsOf(b), [root, a, root]);
});

test('a long chain (deep DFS, long compression paths) needs no recursion', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const n = 200_000;
  for (let i = 1; i <= n; i++) b.node('object', 'Link', 1);
  b.edge(root, 1, 'element', 1);
  for (let i = 1; i < n; i++) b.edge(i, i + 1, 'property', 'next').edge(i + 1, 1, 'property', 'head');
  const dom = dominatorsOf(b);
  assert.equal(dom[n], n - 1);
  assert.equal(dom[1], root);
});
