// The comparison key of a signature row (src/analysis/diff/signature-keys.ts): the path from the object
// up to its first shared holder, `← …` where it was cut. A holder that only the moment of the snapshot
// adds (a transient root, V8's compiled code) must not move the cut.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { world, type GraphBuilder } from '../helpers/graph-builder.js';
import { HeapAnalysis } from '../../src/analysis/heap-analysis.js';
import { RetainerPaths } from '../../src/analysis/retainer-paths.js';
import { comparisonKey } from '../../src/analysis/diff/signature-keys.js';

/** map-cache's shape: a module scope (held by two of its functions) → Map `responseCache` → table → entry. */
function mapCache(extra?: (b: GraphBuilder, map: number, roots: { root: number; gcRoots: number }) => void): string {
  const { b, root, gcRoots, global } = world();
  const scope = b.node('object', 'system / Context', 48);
  for (const name of ['handleRequest', 'serve']) {
    const fn = b.node('closure', name, 32);
    b.edge(global, fn, 'property', name);
    b.edge(fn, scope, 'internal', 'context');
  }
  const map = b.node('object', 'Map', 32);
  b.edge(scope, map, 'context', 'responseCache');
  const table = b.node('array', '', 400);
  b.edge(map, table, 'internal', 'table');
  const entry = b.node('object', 'CacheEntry', 40);
  b.edge(table, entry, 'internal', '3');
  extra?.(b, map, { root, gcRoots });
  const analysis = new HeapAnalysis(b.toGraph());
  return comparisonKey(analysis, new RetainerPaths(analysis), entry);
}

const KEY = 'CacheEntry ← (array)[] ← Map.table ← system / Context.responseCache ← …';

test('the key stops at the first holder held by two objects, and says it was cut', () => {
  assert.equal(mapCache(), KEY);
});

test('a snapshot taken while the code runs: the Map also on (Stack roots) or (Handle scope), same key', () => {
  for (const name of ['(Stack roots)', '(Handle scope)']) {
    const key = mapCache((b, map, { gcRoots }) => {
      const moment = b.node('synthetic', name, 0);
      b.edge(gcRoots, moment, 'element', 9);
      b.edge(moment, map, 'element', 1);
    });
    assert.equal(key, KEY, name);
  }
});

test('optimised code that embeds the Map: same key', () => {
  const key = mapCache((b, map, { gcRoots }) => {
    const code = b.node('code', '', 200);
    b.edge(gcRoots, code, 'element', 10);
    b.edge(code, map, 'internal', 'constant');
  });
  assert.equal(key, KEY);
});

test('a second lasting holder of the Map cuts there', () => {
  const key = mapCache((b, map, { root }) => {
    const other = b.node('object', 'Registry', 32);
    b.edge(root, other, 'shortcut', 'registry');
    b.edge(other, map, 'property', 'cache');
  });
  assert.equal(key, 'CacheEntry ← (array)[] ← Map.table ← …');
});
