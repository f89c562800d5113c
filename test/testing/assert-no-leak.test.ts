// assertNoLeak in this process (node --test): each leaking unit fails with its class, "per iteration",
// the property that holds it and the fix; the options (allow, budget, keepSnapshots, timeoutMs) do what
// they say; snapshots are private and removed. Small counts keep it quick: iterations 20, warm-up 3.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertNoLeak, LeakAssertionError, LeakCheckTimeoutError, type AssertNoLeakOptions } from '../../src/testing/index.js';
import { dropLeakedWork, handleWithHeartbeat, priceOrder, queueOrder, subscribeSession } from './units.js';

const QUICK: AssertNoLeakOptions = { iterations: 20, warmup: 3 };

async function leakOf(fn: (i: number) => unknown, options: AssertNoLeakOptions = QUICK): Promise<LeakAssertionError> {
  const err = await assertNoLeak(fn, options).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof assert.AssertionError, `expected an AssertionError, got ${String(err)}`);
  assert.ok(err instanceof LeakAssertionError);
  assert.equal(err.name, 'AssertionError');
  assert.equal(err.code, 'ERR_ASSERTION');
  return err;
}

test('an Order queued per call: the class, one per iteration, the array that holds it, the fix', async (t) => {
  t.after(dropLeakedWork);
  const err = await leakOf(queueOrder);
  const leak = err.leaks[0]!;
  assert.equal(leak.className, 'Order', err.message);
  assert.equal(leak.perIteration, 1);
  assert.ok(leak.bytesPerIteration >= 32, `bytes per iteration: ${leak.bytesPerIteration}`);
  assert.deepEqual(leak.counts, [0, 20, 40]);
  assert.equal(leak.chain[0]!.node.className, 'Order');
  assert.ok(leak.chain.some((hop) => hop.edge?.name === 'pendingOrders'), 'the module variable is on the chain');
  assert.match(leak.fix, /pushed into the array "pendingOrders"/);
  assert.match(err.message, /^assertNoLeak: each iteration leaves 1 Order behind \(\d+ B per iteration\)/);
  assert.match(err.message, /Order: 1 per iteration/);
  assert.match(err.message, /← \.pendingOrders \(context\) in system \/ Context @\d+/);
  assert.match(err.message, /fix: Order objects are pushed into the array "pendingOrders"/);
});

test('a listener per call: the listener and its Session, held by the emitter\'s _events', async (t) => {
  t.after(dropLeakedWork);
  const err = await leakOf(subscribeSession);
  const leak = err.leaks[0]!;
  // Named as attach names it (one finder): the Session the listener closes over, the listener under it.
  assert.equal(leak.className, 'Session', err.message);
  assert.equal(leak.perIteration, 1);
  assert.ok(leak.alsoHeld.includes('40 × onConfigChange()'), `also held: ${leak.alsoHeld.join(', ')}`);
  assert.match(err.message, /1 Session behind/);
  assert.match(err.message, /per iteration/);
  assert.match(err.message, /← \._events \(property\) in EventEmitter @\d+/);
  assert.match(err.message, /\["config-change"\] \(property\) in Object/);
  assert.match(err.message, /also held with it: .*40 × onConfigChange\(\)/);
  // The fix is the listener's (src/diagnose's wording), never the runner's containers nor "a function
  // closes over per-request data": the closure is itself the listener.
  assert.match(leak.fix, /listener is added per request to the EventEmitter/);
  assert.doesNotMatch(leak.fix, /closes over/);
  assert.doesNotMatch(leak.fix, /testResources|process/);
});

test('a timer per request that captured the AsyncLocalStorage store: the store, the Timeout, the fix', async () => {
  const err = await leakOf(handleWithHeartbeat);
  const leak = err.leaks[0]!;
  // Named as attach names it: the store the timer captured; the Timeout stays on its chain and in the fix.
  assert.equal(leak.className, 'RequestContext', err.message);
  assert.equal(leak.perIteration, 1);
  assert.equal(leak.chain[0]!.node.className, 'RequestContext', 'the chain starts at the store');
  assert.equal(leak.chain[0]!.label?.kind, 'async-context');
  assert.ok(leak.chain.some((hop) => hop.label?.kind === 'async-resource' && hop.node.className === 'Timeout'));
  assert.match(err.message, /RequestContext @\d+ .*⟵ AsyncLocalStorage store.* captured by a timer .*\(Timeout @\d+\): runs heartbeat\(\)/);
  assert.match(err.message, /in Timeout @\d+/);
  assert.match(err.message, /per iteration/);
  assert.match(err.message, /fix: a Timeout created inside a request's AsyncLocalStorage context/);
});

test('allow: an allowed class passes and is reported as tolerated; keepSnapshots keeps three private files', async (t) => {
  t.after(dropLeakedWork);
  const parent = mkdtempSync(join(tmpdir(), 'leakhunt-test-parent-'));
  t.after(() => rmSync(parent, { recursive: true, force: true }));
  const result = await assertNoLeak(queueOrder, { ...QUICK, allow: [/^Ord/], keepSnapshots: true, snapshotDir: parent });
  assert.deepEqual(result.tolerated.map((l) => l.className), ['Order']);
  assert.equal(result.snapshots.length, 3);
  const dir = join(parent, readdirSync(parent)[0]!);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  for (const file of result.snapshots) {
    assert.ok(file.startsWith(dir));
    assert.equal(statSync(file).mode & 0o777, 0o600);
  }
});

test('snapshots are removed afterwards, also when the check fails', async (t) => {
  t.after(dropLeakedWork);
  const parent = mkdtempSync(join(tmpdir(), 'leakhunt-test-parent-'));
  t.after(() => rmSync(parent, { recursive: true, force: true }));
  await leakOf(queueOrder, { ...QUICK, snapshotDir: parent });
  assert.deepEqual(readdirSync(parent), []);
});

test('bytesPerIteration: growth within the budget passes, over it fails and says so', async (t) => {
  t.after(dropLeakedWork);
  const within = await assertNoLeak(queueOrder, { ...QUICK, bytesPerIteration: 64 * 1024 });
  assert.equal(within.tolerated[0]?.className, 'Order');
  const err = await leakOf(queueOrder, { ...QUICK, bytesPerIteration: 1 });
  assert.match(err.message, /over the budget of 1 B/);
  assert.equal(err.bytesPerIterationBudget, 1);
});

test('timeoutMs: a unit of work that outlasts it fails with ERR_LEAKHUNT_TIMEOUT, not an assertion', async () => {
  const slow = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 100));
  const err = await assertNoLeak(slow, { ...QUICK, timeoutMs: 250 }).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof LeakCheckTimeoutError, String(err));
  assert.equal(err.code, 'ERR_LEAKHUNT_TIMEOUT');
  assert.match(err.message, /not done within 250 ms \(warm-up\)/);
});

test('a second check while one runs is refused; bad options are refused; errors of fn pass through', async () => {
  const first = assertNoLeak(priceOrder, QUICK);
  await assert.rejects(assertNoLeak(priceOrder, QUICK), /another check is running in this thread/);
  await first;
  await assert.rejects(assertNoLeak(priceOrder, { iterations: 5 }), RangeError);
  await assert.rejects(assertNoLeak(priceOrder, { warmup: -1 }), RangeError);
  await assert.rejects(assertNoLeak(priceOrder, { timeoutMs: 0 }), RangeError);
  await assert.rejects(assertNoLeak('nope' as unknown as () => void), TypeError);
  await assert.rejects(assertNoLeak((i) => { if (i === 7) throw new Error('boom at 7'); }, QUICK), /boom at 7/);
  await assert.doesNotReject(assertNoLeak(priceOrder, QUICK), 'a failed run leaves nothing behind that blocks the next');
});
