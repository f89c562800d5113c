// Which change the fix suggests, from the chain: the AsyncLocalStorage store and the resource that
// captured it, unless a collection nearer to the object is what accumulates, or the resource is short-lived.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChainHop, HopLabel } from '../../src/analysis/chain-description.js';
import { suggestFix } from '../../src/diagnose/fixes.js';

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
