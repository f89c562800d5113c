// Small hand-made graphs shared by parser and CLI tests: every node type, edge type, a long string,
// escapes and non-ASCII text, so one file exercises the whole format.

import { GraphBuilder } from './graph-builder.js';

export function buildSampleGraph(): GraphBuilder {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const gcRoots = b.node('synthetic', '(GC roots)', 0);
  const global = b.node('object', 'global', 64);
  const cache = b.node('object', 'Map', 48);
  const table = b.node('array', '', 1024);
  const entry = b.node('object', 'CacheEntry', 32);
  const text = b.node('string', 'secret prompt: "quoted" \\ tab\t newline\n unicode é 🎉 \u0001', 96);
  const long = b.node('string', 'x'.repeat(3000) + ' 😀', 3016);
  const fn = b.node('closure', 'handleTurn', 56);
  const ctx = b.node('hidden', 'system / Context', 40);
  const big = b.node('object', 'BigBlob', 5 * 2 ** 32);
  b.edge(root, gcRoots, 'element', 1);
  b.edge(root, global, 'shortcut', 'global');
  b.edge(gcRoots, global, 'element', 0);
  b.edge(global, cache, 'property', 'cache');
  b.edge(global, fn, 'property', 'handleTurn');
  b.edge(global, big, 'property', 'blob');
  b.edge(cache, table, 'internal', 'table');
  b.edge(table, entry, 'element', 3);
  b.edge(entry, text, 'property', 'prompt');
  b.edge(entry, long, 'property', 'body');
  b.edge(fn, ctx, 'internal', 'context');
  b.edge(ctx, cache, 'context', 'cache');
  b.edge(entry, entry, 'property', 'self');
  b.edge(global, entry, 'weak', 'weakRef');
  return b;
}

/**
 * Three snapshots of one "process": a module context holding a `sessions` array that gains two
 * Session objects (each with a token string) per interval, and a cache Map that stays the same.
 * Ids are stable across the series and new objects get higher ids, as V8 does: whatever step k
 * creates has an id in k*1000 + [13, 999].
 */
export function buildSeriesGraphs(): GraphBuilder[] {
  return [0, 1, 2].map((step) => {
    const b = new GraphBuilder();
    const root = b.node('synthetic', '', 0, { id: 1 });
    const gcRoots = b.node('synthetic', '(GC roots)', 0, { id: 3 });
    const global = b.node('object', 'global', 64, { id: 5 });
    const ctx = b.node('object', 'system / Context', 40, { id: 7 });
    const fn = b.node('closure', 'handleRequest', 56, { id: 9 });
    const sessions = b.node('object', 'Array', 32, { id: 11 });
    const store = b.node('array', '', 16 + 16 * step, { id: step * 1000 + 13 }); // reallocated as it grows
    const cache = b.node('object', 'Map', 48, { id: 15 });
    b.edge(root, gcRoots, 'element', 1);
    b.edge(root, global, 'shortcut', 'global');
    b.edge(global, fn, 'property', 'handleRequest');
    b.edge(fn, ctx, 'internal', 'context');
    b.edge(ctx, sessions, 'context', 'sessions');
    b.edge(ctx, cache, 'context', 'cache');
    b.edge(sessions, store, 'internal', 'elements');
    for (let i = 0; i < 2 * step + 1; i++) {
      const bornAt = Math.ceil(i / 2); // the step that created session i
      const id = bornAt * 1000 + 101 + i * 10;
      const s = b.node('object', 'Session', 40, { id });
      const token = b.node('string', `sk-secret-token-${i}`, 32, { id: id + 2 });
      b.edge(store, s, 'element', i);
      b.edge(s, token, 'property', 'token');
      b.edge(s, s, 'property', 'self');
    }
    return b;
  });
}
