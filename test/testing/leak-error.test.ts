// The error assertNoLeak throws: an AssertionError whose message and data name the class, the rates
// and the chain, and never a heap string (edge names that could be data are shown by their length).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChainHop } from '../../src/analysis/chain-description.js';
import { formatRate, LeakAssertionError, leakMessage, type LeakReport } from '../../src/testing/leak-error.js';

function oneLeak(): LeakReport {
  return { className: 'Session', perIteration: 1, bytesPerIteration: 96, count: 60, counts: [0, 30, 60], signature: 'Session ← (root)[<key, 18 chars>]', chain: [], fix: 'f', alsoHeld: [], byClass: false };
}

function hop(className: string, id: number, edge: ChainHop['edge'], label?: ChainHop['label']): ChainHop {
  return { node: { id, name: className, type: 'object', className }, edge, selfSize: 32, retainedSize: 96, ...(label ? { label } : {}) };
}

test('edge names in a message follow the one redaction rule (analysis/redact.ts)', () => {
  // A chain from the engine arrives redacted (describeChain); the message shows it as it is.
  const redacted: ChainHop = { ...hop('Session', 2, { type: 'property', name: '<key, 18 chars>', redacted: true }) };
  const lines = leakMessage({ leaks: [{ ...oneLeak(), chain: [redacted, hop('(root)', 1, null)] }], iterations: 30, warmup: 5, bytesPerIterationBudget: 0, snapshots: [] });
  assert.match(lines, /← \[<key, 18 chars>\] \(property\) in \(root\) @1/);
});

test('rates read as counts', () => {
  assert.equal(formatRate(1), '1');
  assert.equal(formatRate(0.98), '1');
  assert.equal(formatRate(0.5), '0.50');
  assert.equal(formatRate(12.5), '12.5');
});

test('the error is an AssertionError whose message names class, rates, chain and fix', () => {
  const leak: LeakReport = {
    className: 'Order',
    perIteration: 1,
    bytesPerIteration: 96,
    count: 40,
    counts: [0, 20, 40],
    signature: 'Order ← Array[] ← system / Context.pending ← (root)[]',
    chain: [
      hop('Order', 5, { type: 'element', name: '3' }),
      hop('Array', 4, { type: 'context', name: 'pending' }),
      hop('system / Context', 3, { type: 'internal', name: 'context' }, { kind: 'function', text: 'handler() at app.js:1:1' }),
      hop('(root)', 1, null),
    ],
    fix: 'Order objects are pushed into the array "pending" and never removed',
    alsoHeld: ['40 × (string)'],
    byClass: false,
  };
  const err = new LeakAssertionError({ leaks: [leak], iterations: 20, warmup: 3, bytesPerIterationBudget: 0, snapshots: [] });
  assert.ok(err instanceof assert.AssertionError);
  assert.equal(err.name, 'AssertionError');
  assert.equal(err.code, 'ERR_ASSERTION');
  assert.equal(err.operator, 'fail');
  assert.deepEqual(err.leaks, [leak]);
  const lines = err.message.split('\n');
  assert.equal(lines[0], 'assertNoLeak: each iteration leaves 1 Order behind (96 B per iteration)');
  assert.match(err.message, /1\. Order: 1 per iteration, 96 B per iteration \(alive after warm-up, \+20, \+40 iterations: 0 → 20 → 40\)/);
  const chainStart = lines.findIndex((l) => l.includes('Order @5'));
  assert.ok(chainStart > 0, err.message);
  assert.match(lines[chainStart + 1]!, /← \[3\] \(element\) in Array @4/);
  assert.match(lines[chainStart + 2]!, /← \.pending \(context\) in system \/ Context @3 .*handler\(\) at app\.js:1:1/);
  assert.match(err.message, /also held with it: 40 × \(string\)/);
  assert.match(err.message, /fix: Order objects are pushed into the array "pending"/);
});

test('with a budget the message says by how much it was crossed', () => {
  const leak = { className: 'Order', perIteration: 0.5, bytesPerIteration: 2048, count: 20, counts: [0, 10, 20], signature: 'Order', chain: [], fix: 'f', alsoHeld: [], byClass: true } satisfies LeakReport;
  const err = new LeakAssertionError({ leaks: [leak], iterations: 20, warmup: 5, bytesPerIterationBudget: 1024, snapshots: ['/tmp/x/1.heapsnapshot'] });
  assert.match(err.message, /^assertNoLeak: each iteration leaves 0\.50 Order behind \(2\.00 KiB per iteration, over the budget of 1\.00 KiB\)/);
  assert.match(err.message, /summed over several paths/);
  assert.match(err.message, /snapshots kept: \/tmp\/x\/1\.heapsnapshot/);
});
