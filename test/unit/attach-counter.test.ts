// attach's work counter and pacing without a target: what a counter read means (finite numbers only,
// V8's side-effect refusal in its own words), the flags (--every needs --counter, --interval becomes the
// longest wait), the unit count for per-unit rates, and the wait between snapshots on a fake session
// (units reached, longest wait, a counter that fails, a target that goes away).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CapturedSnapshot } from '../../src/attach/capture.js';
import { counterMessage, describeRemoteValue, interpretCounter, type CounterRead } from '../../src/attach/counter.js';
import type { TargetSession } from '../../src/attach/session.js';
import { waitForNext, type WaitProgress } from '../../src/attach/wait-next.js';
import { pacingOf, pacingText, unitCountOf } from '../../src/cli/commands/attach-pacing.js';
import { UsageError } from '../../src/errors.js';

test('a counter is a finite number; anything else says what came back', () => {
  assert.deepEqual(interpretCounter({ value: { type: 'number', value: 42, description: '42' } }), { ok: true, value: 42 });
  assert.deepEqual(interpretCounter({ value: { type: 'number', value: 2.5 } }), { ok: true, value: 2.5 });
  assert.deepEqual(interpretCounter({ value: { type: 'number', unserializableValue: '-0' } }), { ok: true, value: 0 });
  const problem = (r: CounterRead): string => (r.ok ? `ok ${r.value}` : r.problem);
  assert.equal(problem(interpretCounter({ value: { type: 'number', unserializableValue: 'NaN' } })), 'returned NaN, not a finite number');
  assert.equal(problem(interpretCounter({ value: { type: 'number', unserializableValue: 'Infinity' } })), 'returned Infinity, not a finite number');
  assert.equal(problem(interpretCounter({ value: { type: 'undefined' } })), 'returned undefined, not a finite number');
  assert.equal(problem(interpretCounter({ value: { type: 'object', subtype: 'null', value: null } })), 'returned null, not a finite number');
  assert.equal(problem(interpretCounter({ value: { type: 'string', value: '12' } })), 'returned a string (2 chars), not a finite number', 'a string is described, never shown: a counter pointed at a key must not print it');
  assert.equal(problem(interpretCounter({ value: { type: 'bigint', unserializableValue: '10n' } })), 'returned a bigint, not a finite number');
  assert.equal(problem(interpretCounter({ value: { type: 'object', className: 'Map', description: 'Map(3)' } })), 'returned an object (Map), not a finite number');
  assert.equal(problem(interpretCounter({ value: { type: 'object', subtype: 'error', className: 'Error', description: 'Error: sk-live-ERR9996' } })), 'returned an object (Error), not a finite number');
  assert.equal(problem(interpretCounter({ problem: 'threw SyntaxError: "sk-live-JSON9996" is not valid JSON' }, 'JSON.parse(cfg.apiKey)')), 'threw SyntaxError: <16 chars> is not valid JSON', 'quoted heap text in an exception is replaced by its length');
  assert.equal(problem(interpretCounter({ problem: 'threw TypeError: Cannot read properties of undefined (reading \'n\')' }, 'globalThis.x.n')), 'threw TypeError: Cannot read properties of undefined (reading \'n\')');
  assert.match(problem(interpretCounter({ problem: 'threw EvalError: Possible side-effect in debug-evaluate' })), /^was refused: V8 cannot prove it free of side effects \(EvalError: Possible side-effect in debug-evaluate\)/);
});

test('what came back is shown on one short line', () => {
  const long = describeRemoteValue({ type: 'string', value: `line one\n${'x'.repeat(200)}` });
  assert.ok(!long.includes('\n') && long.length < 60, long);
  assert.equal(describeRemoteValue({ type: 'function', description: 'function f() {\n}' }), 'a function');
  assert.equal(counterMessage('globalThis.turns', 'returned undefined, not a finite number'), '--counter "globalThis.turns" returned undefined, not a finite number');
  assert.equal(counterMessage('a\nb', 'x'), '--counter "a\\nb" x', 'an expression over several lines stays one line');
});

test('pacing: the interval by default, --every needs --counter, --interval becomes the longest wait', () => {
  assert.deepEqual(pacingOf({}), { intervalMs: 60_000 });
  assert.deepEqual(pacingOf({ interval: '15s' }), { intervalMs: 15_000 });
  assert.deepEqual(pacingOf({ counter: 'globalThis.turns' }), { intervalMs: 60_000, counter: { expression: 'globalThis.turns' } });
  assert.deepEqual(pacingOf({ counter: 'globalThis.turns', every: '50' }), { intervalMs: 600_000, counter: { expression: 'globalThis.turns', every: 50 } }, 'a longest wait of 10 minutes unless --interval is given');
  assert.deepEqual(pacingOf({ counter: 't', every: '50', interval: '10m' }), { intervalMs: 600_000, counter: { expression: 't', every: 50 } });
  assert.throws(() => pacingOf({ every: '50' }), (e: unknown) => e instanceof UsageError && /--every needs --counter/.test(e.message));
  for (const every of ['0', '-3', 'ten', '', 'Infinity']) {
    assert.throws(() => pacingOf({ counter: 't', every }), (e: unknown) => e instanceof UsageError && /--every must be a positive number/.test(e.message), every);
  }
  assert.throws(() => pacingOf({ counter: '  ' }), UsageError);
  assert.match(pacingText(pacingOf({ interval: '15s' }), 3, '15s'), /^3 snapshots with 15s of running time between them$/);
  assert.match(pacingText(pacingOf({ counter: 't', every: '50' }), 3, undefined), /the next each time t has advanced by 50 \(at most 10m\)/);
  assert.match(pacingText(pacingOf({ counter: 't', every: '50', interval: '2m' }), 3, '2m'), /\(at most 2m\)/);
});

function snap(counter?: number): CapturedSnapshot {
  return { index: 1, file: 'f', metaFile: 'm', takenAt: '', durationMs: 1, bytes: 1, method: 'streamed', ...(counter === undefined ? {} : { counter }) };
}

test('units for per-unit rates: --unit-count, else the counter\'s advance first → last', () => {
  assert.deepEqual(unitCountOf({ counter: 't' }, [snap(10), snap(60), snap(110)]), { counterUnits: 100, unitCount: { count: 100, source: 'counter' } });
  assert.deepEqual(unitCountOf({ counter: 't', unitCount: '7' }, [snap(10), snap(110)]), { counterUnits: 100, unitCount: { count: 7, source: 'unit-count' } });
  assert.deepEqual(unitCountOf({}, [snap(), snap()]), {});
  assert.match(unitCountOf({ counter: 't' }, [snap(5), snap(5)]).warning ?? '', /did not advance \(5 → 5\): no per-unit rates/);
  assert.match(unitCountOf({ counter: 't' }, [snap(), snap(5)]).warning ?? '', /not read at the first or the last snapshot/);
  assert.equal(unitCountOf({ counter: 't' }, [snap(), snap(5)]).unitCount, undefined);
});

/** Enough of a TargetSession for the wait: `gone` and `onGone`. */
function fakeSession(): { session: TargetSession; goAway: () => void } {
  const listeners: (() => void)[] = [];
  let gone = false;
  const fake = { get gone() { return gone; }, onGone: (l: () => void) => listeners.push(l) };
  return { session: fake as unknown as TargetSession, goAway: () => { gone = true; for (const l of listeners) l(); } };
}

/** A counter that advances by `step` on every read. */
function counting(start: number, step: number): { read: () => Promise<CounterRead>; reads: () => number } {
  let value = start, reads = 0;
  return { read: async () => { reads++; const v = value; value += step; return { ok: true, value: v }; }, reads: () => reads };
}

test('wait by units: until the counter advanced `every` from the previous snapshot, ticking the units so far', async () => {
  const { session } = fakeSession();
  const c = counting(100, 10);
  const ticks: WaitProgress[] = [];
  const end = await waitForNext({ session, units: { read: c.read, from: 100, every: 30, pollMs: 5 }, tick: (p) => ticks.push(p) });
  assert.deepEqual(end, { by: 'units', units: 30 });
  assert.equal(c.reads(), 4, 'reads 100, 110, 120, 130');
  assert.deepEqual(ticks.map((t) => t.units), [0, 10, 20]);
  assert.ok(ticks.every((t) => t.every === 30 && t.remainingMs === undefined), 'no longest wait: no time left shown');
  // The previous snapshot's counter unknown: the first poll is the base.
  const d = counting(7, 5);
  assert.deepEqual(await waitForNext({ session, units: { read: d.read, from: undefined, every: 10, pollMs: 1 }, tick: () => {} }), { by: 'units', units: 10 });
});

test('wait by units: the longest wait ends it; a failing counter ends it; so does the target going away', async () => {
  const { session } = fakeSession();
  const stuck = async (): Promise<CounterRead> => ({ ok: true, value: 3 });
  const started = Date.now();
  const end = await waitForNext({ session, ms: 120, units: { read: stuck, from: 0, every: 50, pollMs: 20 }, tick: () => {} });
  assert.deepEqual(end, { by: 'longest-wait', units: 3 });
  assert.ok(Date.now() - started >= 110 && Date.now() - started < 2000, `waited the longest wait: ${Date.now() - started} ms`);

  const failing = async (): Promise<CounterRead> => ({ ok: false, problem: 'returned undefined, not a finite number' });
  assert.deepEqual(await waitForNext({ session, units: { read: failing, from: 0, every: 5, pollMs: 5 }, tick: () => {} }), { by: 'counter-failed', problem: 'returned undefined, not a finite number' });

  const target = fakeSession();
  setTimeout(target.goAway, 30);
  const t0 = Date.now();
  assert.deepEqual(await waitForNext({ session: target.session, units: { read: stuck, from: 0, every: 50, pollMs: 10_000 }, tick: () => {} }), { by: 'stopped' });
  assert.ok(Date.now() - t0 < 5000, 'a long poll sleep is cut short when the target goes');
});

test('wait by time: the whole interval, once a second; a signal cuts it short', async () => {
  const { session } = fakeSession();
  const ticks: WaitProgress[] = [];
  const t0 = Date.now();
  assert.deepEqual(await waitForNext({ session, ms: 150, tick: (p) => ticks.push(p) }), { by: 'time' });
  assert.ok(Date.now() - t0 >= 145, 'the full interval');
  assert.ok(ticks.length >= 1 && ticks[0]!.remainingMs! > 100 && ticks[0]!.units === undefined);
  const controller = new AbortController();
  setTimeout(() => controller.abort('SIGINT'), 20);
  const t1 = Date.now();
  assert.deepEqual(await waitForNext({ session, ms: 60_000, signal: controller.signal, tick: () => {} }), { by: 'stopped' });
  assert.ok(Date.now() - t1 < 5000);
});
