// Recognisers on hand-built chains: the three AsyncLocalStorage store shapes with the resource that
// captured them, a frame held only by a global handle (inferred owner), native holders, framework
// objects — and no label where nothing is recognised.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphBuilder } from '../helpers/graph-builder.js';
import { HeapAnalysis } from '../../src/analysis/heap-analysis.js';
import { RetainerPaths } from '../../src/analysis/retainer-paths.js';
import { labelChain } from '../../src/diagnose/chain-labels.js';

function setup(build: (b: GraphBuilder, holder: number) => number): { labels: ReturnType<typeof labelChain>; names: string[] } {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const global = b.node('object', 'global', 64);
  b.edge(root, global, 'shortcut', 'global');
  const target = build(b, global);
  const analysis = new HeapAnalysis(b.toGraph());
  const chain = new RetainerPaths(analysis).shortestPath(target);
  return { labels: labelChain(analysis, chain), names: chain.map((h) => analysis.className(h.ordinal)) };
}

test('Node 20/22: store ← <symbol kResourceStore> ← Timeout', () => {
  const { labels } = setup((b, global) => {
    const timeout = b.node('object', 'Timeout', 136);
    const store = b.node('object', 'RequestContext', 56);
    const fn = b.node('closure', 'heartbeat', 64);
    b.edge(global, timeout, 'property', 'timer');
    b.edge(timeout, store, 'property', '<symbol kResourceStore>');
    b.edge(timeout, fn, 'property', '_onTimeout');
    return store;
  });
  assert.equal(labels[0]?.kind, 'async-context');
  assert.match(labels[0]!.text, /captured by a timer .*Timeout @\d+.*runs heartbeat\(\)/);
  assert.equal(labels[1]?.kind, 'async-resource');
});

test('Node 24 --no-async-context-frame: store ← Object ← <symbol kAsyncLocalStorageContext> ← Timeout', () => {
  const { labels } = setup((b, global) => {
    const timeout = b.node('object', 'Timeout', 136);
    const context = b.node('object', 'Object', 24);
    const store = b.node('object', 'RequestContext', 56);
    b.edge(global, timeout, 'property', 'timer');
    b.edge(timeout, context, 'property', '<symbol kAsyncLocalStorageContext>');
    b.edge(context, store, 'property', '<symbol kResourceStore>');
    return store;
  });
  assert.equal(labels[0]?.kind, 'async-context');
  assert.equal(labels[1], undefined);
  assert.equal(labels[2]?.kind, 'async-resource');
});

test('AsyncContextFrame: store ← table ← frame ← <symbol kAsyncContextFrame> ← Timeout, keyed by its AsyncLocalStorage', () => {
  const { labels } = setup((b, global) => {
    const timeout = b.node('object', 'Timeout', 136);
    const frame = b.node('object', 'AsyncContextFrame', 32);
    const table = b.node('array', '', 48);
    const als = b.node('object', 'AsyncLocalStorage', 40);
    const store = b.node('object', 'RequestContext', 56);
    b.edge(global, timeout, 'property', 'timer');
    b.edge(global, als, 'property', 'als');
    b.edge(timeout, frame, 'property', '<symbol kAsyncContextFrame>');
    b.edge(frame, table, 'internal', 'table');
    b.edge(table, als, 'internal', '5');
    b.edge(table, store, 'internal', '6');
    return store;
  });
  assert.equal(labels[0]?.kind, 'async-context');
  assert.match(labels[0]!.text, /store of AsyncLocalStorage @\d+, captured by a timer/);
  assert.equal(labels[3]?.kind, 'async-resource');
});

test('a frame held only by a global handle: the owner is inferred and marked so', () => {
  const { labels } = setup((b) => {
    const handles = b.node('synthetic', '(Global handles)', 0);
    b.edge(0, handles, 'element', 1);
    const frame = b.node('object', 'AsyncContextFrame', 32);
    const table = b.node('array', '', 48);
    const store = b.node('object', 'RequestContext', 56);
    b.edge(handles, frame, 'element', 0);
    b.edge(frame, table, 'internal', 'table');
    b.edge(table, store, 'internal', '2');
    return store;
  });
  assert.equal(labels[0]?.kind, 'async-context');
  assert.equal(labels[0]?.inferred, true);
  assert.match(labels[0]!.text, /likely owner: \(Global handles\)/);
});

test('native holders, framework objects, and nothing on plain hops', () => {
  const { labels, names } = setup((b) => {
    const wrap = b.node('native', 'Node / TCPSocketWrap', 80);
    b.edge(0, wrap, 'element', 1);
    const graph = b.node('object', 'CompiledStateGraph', 200);
    const plain = b.node('object', 'Thing', 20);
    b.edge(wrap, graph, 'internal', 'owner');
    b.edge(graph, plain, 'property', 'thing');
    return plain;
  });
  assert.deepEqual(names, ['Thing', 'CompiledStateGraph', 'Node / TCPSocketWrap', '(synthetic)']);
  assert.equal(labels[0], undefined);
  assert.equal(labels[1]?.kind, 'framework');
  assert.match(labels[1]!.text, /compiled graph/);
  assert.equal(labels[2]?.kind, 'native');
  assert.match(labels[2]!.text, /TCP socket wrap/);
});

test('pending work: a deferred waiting in a queue, and a reaction of an unsettled promise', () => {
  const { labels, names } = setup((b, global) => {
    const pool = b.node('object', 'ConnectionPool', 64);
    b.edge(global, pool, 'property', 'pool');
    const waiting = b.node('object', 'Array', 32);
    b.edge(pool, waiting, 'property', 'waiting');
    const deferred = b.node('object', 'Object', 40);
    b.edge(waiting, deferred, 'element', 0);
    const resolve = b.node('closure', 'resolve', 32);
    const reject = b.node('closure', 'reject', 32);
    const operation = b.node('closure', 'operation', 32);
    b.edge(deferred, operation, 'property', 'operation');
    b.edge(deferred, resolve, 'property', 'resolve');
    b.edge(deferred, reject, 'property', 'reject');
    // A second deferred of the same shape: DevTools names a shape once two objects have it.
    const other = b.node('object', 'Object', 40);
    b.edge(waiting, other, 'element', 1);
    for (const p of ['operation', 'resolve', 'reject']) b.edge(other, b.node('closure', p, 32), 'property', p);
    const promise = b.node('object', 'Promise', 24);
    b.edge(operation, promise, 'internal', 'context');
    const reaction = b.node('object', 'system / PromiseReaction', 24);
    b.edge(promise, reaction, 'internal', 'reactions_or_result');
    const turn = b.node('object', 'Turn', 20);
    b.edge(reaction, turn, 'internal', 'fulfill_handler');
    return turn;
  });
  assert.deepEqual(names.slice(0, 6), ['Turn', 'system / PromiseReaction', 'Promise', 'Function', '{operation, resolve, reject}', 'Array']);
  assert.equal(labels[0], undefined);
  assert.equal(labels[1]?.kind, 'pending-work');
  assert.match(labels[1]!.text, /promise that has not settled/);
  assert.equal(labels[4]?.kind, 'pending-work');
  assert.match(labels[4]!.text, /resolve\/reject not called yet/);
  assert.equal(labels[5], undefined);
});
