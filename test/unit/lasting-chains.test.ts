// Chains and survivor groups on hand-built graphs with holders that do not last (retainer-paths.ts,
// lasting-distances.ts, path-signatures.ts, survivors.ts): a bookkeeping list on DevTools' shortest path
// (the Node 20 web-stream shape of issue 12), a per-moment root beside a longer lasting holder, objects
// no path from the root reaches, and AsyncContextFrame plumbing. In every case each survivor group must
// count objects of the class it names, and DevTools' distances stay what they were.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphBuilder, world } from '../helpers/graph-builder.js';
import { HeapAnalysis } from '../../src/analysis/heap-analysis.js';
import { RetainerPaths } from '../../src/analysis/retainer-paths.js';
import { hopName, NO_ROOT, PathSignatures } from '../../src/analysis/path-signatures.js';
import { groupSurvivors, type SurvivorData } from '../../src/analysis/diff/survivors.js';
import { SYSTEM_DISTANCE_BASE, UNREACHABLE_DISTANCE } from '../../src/analysis/distances.js';
import { findTransientRoots } from '../../src/analysis/holder-tiers.js';
import { labelChain } from '../../src/diagnose/chain-labels.js';


/** A chain of `n` plain objects under `from`; returns the last. */
function hops(b: GraphBuilder, from: number, n: number, name = 'Holder'): number {
  let at = from;
  for (let i = 0; i < n; i++) {
    const next = b.node('object', name, 32);
    b.edge(at, next, 'property', `h${i}`);
    at = next;
  }
  return at;
}

interface Survivors {
  readonly analysis: HeapAnalysis;
  readonly paths: RetainerPaths;
  readonly signatures: PathSignatures;
  readonly data: SurvivorData;
}

/** Survivors of a series whose first snapshot's largest id is `bornAfter` (the graph is the newest). */
function survivors(b: GraphBuilder, bornAfter: number): Survivors {
  const analysis = new HeapAnalysis(b.toGraph());
  const paths = new RetainerPaths(analysis);
  const signatures = new PathSignatures(analysis, paths);
  const maxId = Math.max(...Array.from(analysis.graph.nodeId));
  const data = groupSurvivors(analysis, paths, signatures, [bornAfter, bornAfter, maxId]);
  assertGroupsNameTheirMembers({ analysis, paths, signatures, data }, bornAfter);
  return { analysis, paths, signatures, data };
}

/** The invariant of issue 12 point 6: every member of a group has the class the group is named by. */
function assertGroupsNameTheirMembers({ analysis, signatures, data }: Survivors, bornAfter: number): void {
  const { nodeId, nodeCount, nodeType, nodeTypes } = analysis.graph;
  const members = new Map<number, string[]>();
  for (let n = 0; n < nodeCount; n++) {
    if (nodeId[n]! <= bornAfter || analysis.selfSizes[n] === 0 || nodeType[n] === nodeTypes.native || nodeType[n] === nodeTypes.synthetic) continue;
    const list = members.get(signatures.signatureOf(n)) ?? [];
    list.push(analysis.className(n));
    members.set(signatures.signatureOf(n), list);
  }
  for (const g of data.groups) {
    const name = analysis.className(g.representative);
    assert.deepEqual(new Set(members.get(g.signature)), new Set([name]), `group ${signatures.text(g.signature)} counts only ${name}`);
    assert.equal(members.get(g.signature)!.length, g.count);
    assert.notEqual(signatures.text(g.signature), '(unreachable)');
  }
}

function groupOf(s: Survivors, className: string) {
  const found = s.data.groups.filter((g) => s.analysis.className(g.representative) === className);
  assert.equal(found.length, 1, `one group of ${className}: ${s.data.groups.map((g) => s.signatures.text(g.signature)).join(' | ')}`);
  return found[0]!;
}

function chainNames(s: { analysis: HeapAnalysis }, chain: readonly { ordinal: number }[]): string[] {
  return chain.map((h) => hopName(s.analysis, h.ordinal));
}

test('a bookkeeping list on DevTools\' shortest path (Node 20 web streams): the chain takes the lasting holder, and the group counts the class it names', () => {
  const { b, root, globalHandles } = world();
  // DevTools reaches the stream through Node's cleanup list and the stream's detached JSTransferable
  // (4 hops below the root) before the parser that really holds it (9 hops).
  const env = b.node('synthetic', 'Node / Environment', 0);
  b.edge(root, env, 'element', 2);
  const cleanup = b.node('native', 'Node / CleanupQueue', 480);
  b.edge(env, cleanup, 'element', 1);
  const transferable = b.node('native', 'Detached Node / JSTransferable', 32);
  b.edge(cleanup, transferable, 'element', 1);
  const stream = b.node('object', 'ReadableStream', 104);
  b.edge(transferable, stream, 'internal', 'native_to_javascript');
  b.edge(stream, transferable, 'internal', 'javascript_to_native');
  const parser = b.node('object', 'HTTPParser', 64);
  b.edge(globalHandles, parser, 'internal', '55');
  const incoming = b.node('object', 'IncomingMessage', 200);
  b.edge(parser, incoming, 'property', 'incoming');
  const controller = hops(b, incoming, 4);
  b.edge(controller, stream, 'property', 'stream');
  const reader = b.node('object', 'ReadableStreamDefaultReader', 40);
  b.edge(stream, reader, 'property', 'reader');
  const bornAfter = b.idOf(reader);
  const request = b.node('object', 'DefaultReadRequest', 24);
  b.edge(reader, request, 'element', 0);
  const promise = b.node('object', 'Promise', 32);
  b.edge(request, promise, 'property', 'promise');
  const frame = b.node('object', 'system / Context', 48);
  b.edge(promise, frame, 'internal', 'reactions_or_result');
  const received = b.node('object', 'Array', 32);
  b.edge(frame, received, 'context', 'received');
  const chunks = [0, 1, 2].map((i) => {
    const chunk = b.node('object', 'UploadChunk', 40);
    b.edge(received, chunk, 'element', i);
    return chunk;
  });

  const s = survivors(b, bornAfter);
  assert.equal(s.analysis.distances[stream], SYSTEM_DISTANCE_BASE + 4, 'DevTools\' distance (through the cleanup list) is kept');
  const group = groupOf(s, 'UploadChunk');
  assert.equal(group.count, 3);
  assert.equal(group.heldBy, 'lasting');
  assert.equal(
    s.signatures.text(group.signature),
    'UploadChunk ← Array[] ← system / Context.received ← Promise.reactions_or_result ← DefaultReadRequest.promise ← ReadableStreamDefaultReader[] ← ReadableStream.reader ← Holder.stream ← IncomingMessage.h0 ← HTTPParser.incoming ← (Global handles)[] ← (GC roots)[] ← (root)[]',
  );
  assert.equal(groupOf(s, 'DefaultReadRequest').count, 1);
  const chain = s.paths.shortestPath(chunks[2]!);
  assert.deepEqual(chainNames(s, chain).slice(-5), ['IncomingMessage', 'HTTPParser', '(Global handles)', '(GC roots)', '(root)']);
  assert.ok(!chain.some((h) => h.ordinal === cleanup || h.ordinal === transferable), 'the cleanup list is not a hop');
  assert.equal(chain[chain.length - 1]!.ordinal, root);
});

test('only the cleanup list names it: the chain goes through it, labelled as bookkeeping, and the group says so', () => {
  const { b, root } = world();
  const env = b.node('synthetic', 'Node / Environment', 0);
  b.edge(root, env, 'element', 2);
  const cleanup = b.node('native', 'Node / CleanupQueue', 480);
  b.edge(env, cleanup, 'element', 1);
  const bornAfter = b.idOf(cleanup);
  const wrap = b.node('native', 'Detached Node / FSReqCallback', 32);
  b.edge(cleanup, wrap, 'element', 1);
  const request = b.node('object', 'FSReqCallback', 56);
  b.edge(wrap, request, 'internal', 'native_to_javascript');
  const s = survivors(b, bornAfter);
  const group = groupOf(s, 'FSReqCallback');
  assert.equal(group.heldBy, 'bookkeeping');
  const chain = s.paths.shortestPath(request);
  assert.deepEqual(chainNames(s, chain), ['FSReqCallback', 'Detached Node / FSReqCallback', 'Node / CleanupQueue', 'Node / Environment', '(root)']);
  const labels = labelChain(s.analysis, chain);
  assert.equal(labels[2]?.kind, 'bookkeeping');
});

test('a per-moment root beside a longer lasting holder: the lasting chain represents it, and its leak is one group', () => {
  const { b, gcRoots, globalHandles } = world();
  const handleScope = b.node('synthetic', '(Handle scope)', 0);
  b.edge(gcRoots, handleScope, 'element', 2);
  const stack = b.node('synthetic', '(Stack roots)', 0);
  b.edge(gcRoots, stack, 'element', 3);
  const list = hops(b, globalHandles, 4, 'Registry');
  const bornAfter = b.idOf(list);
  // Three jobs in the registry's list; the running code also holds the first through a handle, which
  // is 3 hops from the root on DevTools' distances against 6 through the registry.
  const jobs = [0, 1, 2].map((i) => {
    const job = b.node('object', 'Job', 64);
    b.edge(list, job, 'element', i);
    return job;
  });
  b.edge(handleScope, jobs[0]!, 'internal', '0');
  // A job only the stack holds: transient, said so.
  const running = b.node('object', 'Job', 64);
  b.edge(stack, running, 'internal', '0');

  // One chain asked for on DevTools' distances (analyze's suspects): the walk sees the handle scope and
  // switches to the lasting distances.
  const analysisOnce = new HeapAnalysis(b.toGraph());
  const once = new RetainerPaths(analysisOnce).shortestPath(jobs[0]!);
  assert.deepEqual(chainNames({ analysis: analysisOnce }, once), ['Job', 'Registry', 'Registry', 'Registry', 'Registry', '(Global handles)', '(GC roots)', '(root)']);
  assert.equal(analysisOnce.distances[jobs[0]!], SYSTEM_DISTANCE_BASE + 3, 'DevTools\' distance (through the handle scope) is kept');

  const s = survivors(b, bornAfter);
  const held = s.data.groups.filter((g) => s.analysis.className(g.representative) === 'Job');
  assert.equal(held.length, 2, 'the registry\'s jobs are one group, the running one another');
  const lasting = held.find((g) => g.heldBy === 'lasting')!;
  assert.equal(lasting.count, 3, 'the job a handle also held is not split off');
  const transient = held.find((g) => g.heldBy === 'transient')!;
  assert.equal(transient.count, 1);
  assert.equal(s.signatures.text(transient.signature), 'Job ← (Stack roots)[] ← (GC roots)[] ← (root)[]');
  const labels = labelChain(s.analysis, s.paths.shortestPath(running));
  assert.equal(labels[1]?.kind, 'transient-root');
  // `retainers --id`: both chains, the lasting one first although it is longer.
  const both = s.paths.kShortestPaths(jobs[0]!, 2);
  assert.deepEqual(both.map((chain) => chainNames(s, chain)[1]), ['Registry', '(Handle scope)']);
});

test('the second (Strong roots) of a Node 20 snapshot (strong roots registered by C++ code of the moment) is transient, the root list is not', () => {
  const { b, root, gcRoots } = world();
  const rootList = b.node('synthetic', '(Strong roots)', 0);
  const stack = b.node('synthetic', '(Stack roots)', 0);
  const registered = b.node('synthetic', '(Strong roots)', 0);
  for (const [i, n] of [rootList, stack, registered].entries()) b.edge(gcRoots, n, 'element', i + 2);
  const graph = b.toGraph();
  assert.equal(graph.rootOrdinal, root);
  assert.deepEqual([...findTransientRoots(graph)].sort((x, y) => x - y), [stack, registered]);
});

test('no path from the root (held by a detached native object): the chain ends at that holder, labelled, and the group is named by its members', () => {
  const { b } = world();
  const bornAfter = b.idOf(b.nodeCount - 1);
  const detached = b.node('native', 'Detached Node / Widget', 48);
  const widget = b.node('object', 'Widget', 72);
  b.edge(detached, widget, 'internal', 'native_to_javascript');
  const items = b.node('object', 'Array', 32);
  b.edge(widget, items, 'property', 'items');
  const item = [0, 1].map((i) => {
    const it = b.node('object', 'Item', 40);
    b.edge(items, it, 'element', i);
    return it;
  });
  const s = survivors(b, bornAfter);
  assert.equal(s.analysis.distances[item[0]!], UNREACHABLE_DISTANCE, 'DevTools shows no distance');
  const group = groupOf(s, 'Item');
  assert.equal(group.count, 2);
  assert.equal(group.heldBy, 'unrooted');
  assert.equal(s.signatures.text(group.signature), `Item ← Array[] ← Widget.items ← Detached Node / Widget.native_to_javascript ← ${NO_ROOT}`);
  const chain = s.paths.shortestPath(item[1]!);
  assert.deepEqual(chainNames(s, chain), ['Item', 'Array', 'Widget', 'Detached Node / Widget']);
  const labels = labelChain(s.analysis, chain);
  assert.equal(labels[3]?.kind, 'no-root');
  assert.match(labels[3]!.text, /detached native object/);
  // `retainers --id`: no chain reaches the root, so the one up to the holder stands for them.
  assert.deepEqual(s.paths.kShortestPaths(item[1]!, 3).map((c) => chainNames(s, c)), [['Item', 'Array', 'Widget', 'Detached Node / Widget']]);
});

test('AsyncContextFrame groups are marked as plumbing; the stores they carry are not', () => {
  const { b, global } = world();
  const timers = b.node('object', 'TimersList', 40);
  b.edge(global, timers, 'property', 'timers');
  const bornAfter = b.idOf(timers);
  let previous = timers;
  for (let i = 0; i < 3; i++) {
    const timeout = b.node('object', 'Timeout', 136);
    b.edge(previous, timeout, 'property', '_idleNext');
    const frame = b.node('object', 'AsyncContextFrame', 32);
    b.edge(timeout, frame, 'property', '<symbol kAsyncContextFrame>');
    const table = b.node('array', '', 48);
    b.edge(frame, table, 'internal', 'table');
    const store = b.node('object', 'RequestContext', 56);
    b.edge(table, store, 'internal', '1');
    previous = timeout;
  }
  const s = survivors(b, bornAfter);
  assert.equal(groupOf(s, 'AsyncContextFrame').plumbing, 'async-context-frame');
  assert.equal(groupOf(s, 'RequestContext').plumbing, undefined);
  assert.equal(groupOf(s, 'Timeout').plumbing, undefined);
  for (const g of s.data.groups) {
    const parent = s.paths.parentSlot(g.representative);
    const viaTable = parent >= 0 && hopName(s.analysis, s.paths.holderOfSlot(parent)) === 'AsyncContextFrame';
    if (viaTable) assert.equal(g.plumbing, 'async-context-frame', 'a frame\'s table is plumbing too');
  }
});

test('callbacks on one pending promise: objects kept by its reactions are one group whatever the reaction\'s place in the list', () => {
  const { b, global } = world();
  const promise = b.node('object', 'Promise', 32);
  b.edge(global, promise, 'property', 'pending');
  const bornAfter = b.idOf(promise);
  // V8 links a pending promise's reactions through hidden slot 0, newest first.
  let holder = promise;
  for (let i = 0; i < 4; i++) {
    const reaction = b.node('hidden', 'system / PromiseReaction', 40);
    b.edge(holder, reaction, holder === promise ? 'internal' : 'hidden', holder === promise ? 'reactions_or_result' : 0);
    const callback = b.node('closure', '', 32);
    b.edge(reaction, callback, 'hidden', 2);
    const context = b.node('object', 'system / Context', 40);
    b.edge(callback, context, 'internal', 'context');
    const session = b.node('object', 'Session', 48);
    b.edge(context, session, 'context', 'session');
    holder = reaction;
  }
  const s = survivors(b, bornAfter);
  const group = groupOf(s, 'Session');
  assert.equal(group.count, 4);
  assert.equal(s.signatures.text(group.signature), 'Session ← system / Context.session ← Function.context ← (system)[] ← Promise.reactions_or_result ← global.pending ← (root).global');
});
