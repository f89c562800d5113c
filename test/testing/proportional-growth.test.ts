// The leak rule of assertNoLeak on hand-made survivor curves: proportional growth in both intervals
// is a leak; warm-up, a bounded cache, growth in one interval, slow growth and V8's own classes are
// not; groups held through a finding fold into it and a carrier's finding is named after what it
// holds, as attach names it; a class whose paths differ per entry still shows.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChainHop } from '../../src/analysis/chain-description.js';
import { bornPerInterval, findProportionalGrowth, isProportional } from '../../src/testing/proportional-growth.js';
import type { SurvivorCurve } from '../../src/testing/survivor-curves.js';

function hop(className: string, edge: string | null = null, label?: ChainHop['label']): ChainHop {
  return {
    node: { id: 1, name: className, type: 'object', className },
    edge: edge === null ? null : { type: 'property', name: edge },
    selfSize: 16,
    retainedSize: 16,
    ...(label ? { label } : {}),
  };
}

function curve(className: string, counts: number[], chain: ChainHop[] = [hop(className, 'x'), hop('(root)')], retainedSize = 1000): SurvivorCurve {
  return {
    className,
    signature: chain.map((h) => h.node.className).join(' ← '),
    count: counts[counts.length - 1]!,
    counts,
    retainedSize,
    chain: () => chain,
  };
}

const N = 20;

test('born per interval comes from the survivor curve', () => {
  assert.deepEqual(bornPerInterval([0, 20, 40]), [20, 20]);
  assert.deepEqual(bornPerInterval([0, 3, 3]), [3, 0]);
});

test('proportional: both intervals at least N/2 and within 25% (or 2 objects) of each other', () => {
  assert.equal(isProportional([20, 20], N), true);
  assert.equal(isProportional([10, 10], N), true, 'one object every two iterations');
  assert.equal(isProportional([9, 9], N), false, 'slower than one every two iterations');
  assert.equal(isProportional([40, 31], N), true);
  assert.equal(isProportional([40, 29], N), false);
  assert.equal(isProportional([11, 13], N), true, 'the slack of 2 objects');
  assert.equal(isProportional([20, 0], N), false, 'warm-up: the first interval only');
  assert.equal(isProportional([0, 8], N), false, 'a bounded cache: its latest members only');
});

test('warm-up, a bounded cache and slow growth are not leaks; steady growth is', () => {
  const found = findProportionalGrowth([
    curve('Compiled', [0, 3, 3]),
    curve('CacheEntry', [0, 2, 10]),
    curve('Slow', [0, 5, 10]),
    curve('Order', [0, 20, 40]),
  ], N);
  assert.deepEqual(found.map((f) => f.className), ['Order']);
  assert.deepEqual(found[0]!.perInterval, [20, 20]);
  assert.deepEqual(found[0]!.counts, [0, 20, 40]);
});

test("V8's own classes never make a finding on their own", () => {
  const found = findProportionalGrowth([
    curve('(compiled code)', [0, 16, 37]),
    curve('system / Context', [0, 20, 40]),
    curve('(object shape)', [0, 20, 40]),
  ], N);
  assert.deepEqual(found, []);
});

test('groups held through a finding fold into it, largest first', () => {
  const listener = [hop('onChange()', '0'), hop('Array', 'change'), hop('Object', '_events'), hop('EventEmitter', 'bus'), hop('(root)')];
  const session = [hop('Session', 'session'), hop('system / Context', 'context'), ...listener];
  const found = findProportionalGrowth([
    curve('Session', [0, 20, 40], session, 1280),
    curve('Function', [0, 20, 40], listener, 5440),
  ], N);
  // As attach names it (one finder): the listener carries the leak, the Session is what leaks; the
  // closure is listed under it as chains name it, and the chain and fix are the Session's.
  assert.equal(found.length, 1);
  assert.equal(found[0]!.className, 'Session');
  assert.equal(found[0]!.chain[0]!.node.className, 'Session');
  assert.deepEqual(found[0]!.alsoHeld, ['40 × onChange()']);
  assert.equal(found[0]!.retainedSize, 5440, 'the finding keeps what the whole leak retains');
});

test('a folded group held through an AsyncLocalStorage store lends the finding its chain', () => {
  const timer = [hop('Timeout', '_idleNext'), hop('TimersList', '0'), hop('(root)')];
  const store = [hop('RequestContext', '<symbol kResourceStore>', { kind: 'async-context', text: 'AsyncLocalStorage store' }), ...timer];
  const found = findProportionalGrowth([
    curve('Timeout', [0, 20, 40], timer, 12800),
    curve('RequestContext', [0, 20, 40], store, 2880),
  ], N);
  // As attach names it: the store the timer captured is what leaks, the Timeout stays on its chain and
  // is listed under it.
  assert.equal(found.length, 1);
  assert.equal(found[0]!.className, 'RequestContext');
  assert.equal(found[0]!.chain[0]!.node.className, 'RequestContext');
  assert.ok(found[0]!.chain.some((h) => h.node.className === 'Timeout'));
  assert.deepEqual(found[0]!.alsoHeld, ['40 × Timeout']);
});

test('a class kept under per-entry keys (one path each) is found from its total', () => {
  const groups = Array.from({ length: 40 }, (_, i) => curve('Session', i < 20 ? [0, 1, 1] : [0, 0, 1], [hop('Session', `key${i}`), hop('(root)')], 32));
  const found = findProportionalGrowth(groups, N);
  assert.equal(found.length, 1);
  assert.equal(found[0]!.className, 'Session');
  assert.equal(found[0]!.byClass, true);
  assert.equal(found[0]!.count, 40);
  assert.deepEqual(found[0]!.counts, [0, 20, 40]);
});
