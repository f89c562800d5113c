// Which change the fix suggests, from the chain: the AsyncLocalStorage store and the resource that
// captured it, unless a collection nearer to the object is what accumulates, or the resource is short-lived;
// for a backlog, LangGraph's durability advice only through its checkpoint chain, else the generic advice.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChainHop, HopLabel } from '../../src/analysis/chain-description.js';
import { backlogFix as backlogParts, fixText, holderFix, suggestFix as suggestParts } from '../../src/diagnose/fixes.js';

/** The whole sentence, as `fix` carries it (why: action). */
const suggestFix = (className: string, chain: readonly ChainHop[]): string => fixText(suggestParts(className, chain));
const backlogFix = (chain: readonly ChainHop[], className?: string, runsPileUp?: boolean): string => fixText(backlogParts(chain, className, runsPileUp));

let nextId = 100;
function hop(className: string, edge: [type: string, name: string] | null, retainedSize: number, label?: HopLabel, type = 'object'): ChainHop {
  return {
    node: { id: nextId++, name: className, type, className },
    edge: edge ? { type: edge[0], name: edge[1] } : null,
    selfSize: 32,
    retainedSize,
    ...(label ? { label } : {}),
  };
}
const store = (resource: string): HopLabel => ({ kind: 'async-context', text: `AsyncLocalStorage store, captured by a ${resource}` });
const resource: HopLabel = { kind: 'async-resource', text: 'created inside an AsyncLocalStorage context' };

test('a client timer that captured the store: create the client at process scope', () => {
  // LangChainTracer ← [0] Array (the run's handlers: one tracer) ← .handlers CallbackManager ← … ← RunTree (store) ← Timeout ← InternalChannel
  const chain = [
    hop('LangChainTracer', ['element', '0'], 20_000),
    hop('Array', ['property', 'handlers'], 56),
    hop('CallbackManagerForChainRun', ['property', 'callbacks'], 21_000),
    hop('RunTree', ['property', '<symbol kResourceStore>'], 43_000, store('timer')),
    hop('Timeout', ['property', 'idleTimer'], 300, resource),
    hop('InternalChannel', ['context', 'channel'], 2_000),
    hop('(root)', null, 1e7, undefined, 'synthetic'),
  ];
  assert.match(suggestFix('LangChainTracer', chain), /client once at process scope/);
});

test('a collection nearer than the store that holds many: that collection is the fix', () => {
  // Record ← [7] Array "pending" (every turn's records) ← AuditTrailHandler ← … ← RunTree (store) ← Timeout
  const chain = [
    hop('{runId, outputs}', ['element', '7'], 400),
    hop('Array', ['property', 'pending'], 390_000),
    hop('AuditTrailHandler', ['element', '1'], 391_000),
    hop('Array', ['property', 'handlers'], 391_100),
    hop('RunTree', ['property', '<symbol kResourceStore>'], 392_000, store('timer')),
    hop('Timeout', ['property', '_idlePrev'], 300, resource),
    hop('(root)', null, 1e7, undefined, 'synthetic'),
  ];
  assert.match(suggestFix('{runId, outputs}', chain), /pushed into the array "pending"/);
});

test('a store captured by a pending setImmediate is not what lasts', () => {
  const chain = [
    hop('Session', ['element', '3'], 500),
    hop('Array', ['property', 'sessions'], 600),
    hop('Registry', ['property', '<symbol kResourceStore>'], 700, store('setImmediate')),
    hop('Immediate', ['property', '_idleNext'], 100, resource),
    hop('(root)', null, 1e7, undefined, 'synthetic'),
  ];
  const fix = suggestFix('Session', chain);
  assert.doesNotMatch(fix, /AsyncLocalStorage/);
  assert.match(fix, /pushed into the array "sessions"/);
});

// Backlogs: LangGraph's durability advice only when the chain shows its checkpoint chain.
const pending: HopLabel = { kind: 'pending-work', text: 'a pending operation' };

test('a backlog through LangGraph\'s checkpoint chain: the durability advice', () => {
  // {config, checkpoint, metadata, newVersions} ← input (context) ← then-callback ← reaction ← Promise ← PregelLoop._checkpointerChainedPromise
  const chain = [
    hop('{config, checkpoint, metadata, newVersions}', ['context', 'input'], 4_000),
    hop('system / Context', ['internal', 'context'], 4_100),
    hop('Function', ['hidden', '1'], 4_200, undefined, 'closure'),
    hop('(system)', ['internal', 'reactions_or_result'], 4_300, pending, 'hidden'),
    hop('Promise', ['property', '_checkpointerChainedPromise'], 4_400),
    hop('PregelLoop', ['element', '3'], 90_000),
    hop('(root)', null, 1e7, undefined, 'synthetic'),
  ];
  const fix = backlogFix(chain);
  assert.match(fix, /durability "sync"/);
  assert.doesNotMatch(fix, /add consumers/);
});

test('a backlog through a saver\'s own queue: the durability advice too', () => {
  const chain = [
    hop('{operation, resolve, reject}', ['element', '7'], 500, pending),
    hop('Array', ['property', 'waiting'], 9_000),
    hop('SlowConnectionPool', ['property', 'pool'], 9_100),
    hop('SlowSqliteSaver', ['property', 'checkpointer'], 9_200),
    hop('(root)', null, 1e7, undefined, 'synthetic'),
  ];
  assert.match(backlogFix(chain), /pending operations \(\{operation, resolve, reject\} in SlowConnectionPool\.waiting \(@\d+\)\).*durability "sync"/);
});

test('any other backlog: bound the queue, add consumers, apply backpressure — naming the queue', () => {
  const chain = [
    hop('Job', ['property', 'job'], 300),
    hop('{job, resolve, reject}', ['element', '12'], 400, pending),
    hop('Array', ['property', 'waiting'], 50_000),
    hop('WorkerPool', ['property', 'pool'], 51_000),
    hop('(root)', null, 1e7, undefined, 'synthetic'),
  ];
  const fix = backlogFix(chain);
  const pool = chain[3]!.node.id;
  assert.match(fix, new RegExp(`bound WorkerPool\\.waiting \\(@${pool}\\) \\(reject or shed work past a limit\\), add consumers .*, or apply backpressure`));
  assert.doesNotMatch(fix, /durability|LangGraph|saver/);
});

test('a backlog without a chain: the generic advice, naming the class', () => {
  const fix = backlogFix([], 'PendingWrite');
  assert.match(fix, /^work \(PendingWrite\) is queued faster than it completes/);
  assert.match(fix, /bound the queue .*add consumers .*apply backpressure/);
  assert.doesNotMatch(fix, /durability/);
});

test('a timer started per request whose callback holds the request: clear the timer', () => {
  // PollJob ← context of the callback ← Function ←_onTimeout Timeout ← TimersList
  const chain = [
    hop('PollJob', ['context', 'job'], 400),
    hop('system / Context', ['internal', 'context'], 500),
    hop('Function', ['property', '_onTimeout'], 600, undefined, 'closure'),
    hop('Timeout', ['property', '_idleNext'], 700),
    hop('TimersList', ['property', '_idlePrev'], 9_000),
    hop('(root)', null, 1e7, undefined, 'synthetic'),
  ];
  assert.match(suggestFix('PollJob', chain), /^a timer \(Timeout @\d+\) started per request keeps PollJob alive through its callback and is never cleared: clearInterval\/clearTimeout/);
});

test('a fix is its why and its action; the text without --verbose shows the action alone', () => {
  const parts = backlogParts([], 'PendingWrite');
  assert.match(parts.why, /^work \(PendingWrite\) is queued faster than it completes/);
  assert.match(parts.action, /^bound the queue/);
  assert.equal(fixText(parts), `${parts.why}: ${parts.action}`);
});

// The lasting holder (the first hop there before the first snapshot) decides, whatever lies above it.
test('a metric\'s hashMap keyed by request data, reached through a module context: label cardinality, not a closure', () => {
  // {labels, value} ←<key> Object (hashMap, old) ← Counter ← context "requestsTotal" ← handleRequest() ← …
  const chain = [
    hop('{labels, value}', ['property', 'method:GET,route:/orders/7/items'], 200),
    hop('Object', ['property', 'hashMap'], 80_000),
    hop('Counter', ['context', 'requestsTotal'], 80_100),
    hop('system / Context', ['internal', 'context'], 80_200),
    hop('handleRequest()', ['context', 'handleRequest'], 80_300, undefined, 'closure'),
    hop('(root)', null, 1e7, undefined, 'synthetic'),
  ];
  assert.match(suggestFix('{labels, value}', chain), /closes over per-request data/, 'the nearest-container walk took the closure');
  const fix = holderFix('{labels, value}', chain, 1);
  assert.ok(fix);
  assert.match(fixText(fix), new RegExp(`metric series added to Counter @${chain[2]!.node.id} "hashMap".*route template`));
});

test('a checkpointer\'s storage keyed by thread id: delete finished threads, or a durable saver', () => {
  // Uint8Array ←[2] Array ←<key> Object ←<thread> Object (storage, old) ← MemorySaver ← context "saver" ← …
  const chain = [
    hop('Uint8Array', ['element', '2'], 300),
    hop('Array', ['property', '<key, 38 chars>'], 400),
    hop('Object', ['property', '<key, 61 chars>'], 900),
    hop('Object', ['property', 'storage'], 90_000),
    hop('MemorySaver', ['context', 'saver'], 91_000),
    hop('system / Context', ['internal', 'context'], 91_100),
    hop('handleTurn()', ['context', 'handleTurn'], 91_200, undefined, 'closure'),
    hop('(root)', null, 1e7, undefined, 'synthetic'),
  ];
  const fix = fixText(holderFix('Uint8Array', chain, 3)!);
  assert.match(fix, /checkpointer's storage \(MemorySaver @\d+ "storage", keyed by thread\).*deleteThread.*durable saver/);
  assert.doesNotMatch(fix, /closes over|pushed into the array/);
});

test('holders by kind: a plain dictionary, a Map, an array, an emitter\'s listeners, a timer list', () => {
  const root = hop('(root)', null, 1e7, undefined, 'synthetic');
  const dict = [hop('Session', ['property', '<key, 36 chars>'], 500), hop('Object', ['property', 'sessions'], 60_000), hop('system / Context', ['context', 'x'], 60_100), root];
  assert.match(fixText(holderFix('Session', dict, 1)!), /added to Object @\d+ "sessions", one property per key.*delete the key when done, or bound it/);
  const map = [hop('Entry', ['internal', '7'], 500), hop('(array)', ['internal', 'table'], 60_000, undefined, 'array'), hop('Map', ['property', 'cache'], 60_100), root];
  assert.match(fixText(holderFix('Entry', map, 2)!), /added to the Map @\d+ "cache" and never deleted/);
  const array = [hop('Job', ['element', '9'], 500), hop('Array', ['property', 'done'], 60_000), root];
  assert.match(fixText(holderFix('Job', array, 1)!), /pushed into the array "done"/);
  const listeners = [hop('onChange()', ['element', '3'], 500, undefined, 'closure'), hop('Array', ['property', 'change'], 60_000), hop('Object', ['property', '_events'], 60_100), hop('EventEmitter', ['context', 'bus'], 60_200), root];
  assert.match(fixText(holderFix('onChange()', listeners, 1)!), /a listener is added per request to the EventEmitter EventEmitter @\d+.*removeListener/);
  const timers = [hop('Timeout', ['property', '_idlePrev'], 500), hop('TimersList', ['element', '1000'], 60_000), root];
  assert.match(fixText(holderFix('Timeout', timers, 1)!), /timer list.*clearTimeout\/clearInterval/);
});

test('a store captured below the holder: the holder does not decide (the store does)', () => {
  const chain = [
    hop('RunTree', ['property', '<symbol kResourceStore>'], 40_000, store('timer')),
    hop('Timeout', ['property', '_idlePrev'], 300, resource),
    hop('TimersList', ['element', '1000'], 90_000),
    hop('(root)', null, 1e7, undefined, 'synthetic'),
  ];
  assert.equal(holderFix('RunTree', chain, 2), undefined);
});
