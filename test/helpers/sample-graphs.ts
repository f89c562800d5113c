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
