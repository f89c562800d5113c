// How `leakhunt attach` paces its snapshots, from the flags, and what its per-unit rates are per:
//   --interval   running time the target gets between snapshots, from the END of one snapshot to the
//                start of the next (default 60s); with --every, the longest wait (default 10m: a counter
//                that stalls must not leave attach waiting forever)
//   --counter    a side-effect-free expression read in the target before each snapshot
//   --every n    the next snapshot once the counter advanced by n (needs --counter; polled at --sample-every)
// The unit count for per-unit rates is --unit-count when given, else how far the counter advanced from
// the first snapshot to the last.

import type { CapturedSnapshot } from '../../attach/capture.js';
import type { CounterOptions } from '../../attach/counter.js';
import { UsageError } from '../../errors.js';
import { parseCount, parseDuration } from '../parse-options.js';

export const DEFAULT_INTERVAL = '60s';
/** With --every and no --interval: how long to wait for the counter before taking the snapshot anyway. */
export const DEFAULT_LONGEST_WAIT = '10m';

export interface PacingFlags {
  interval?: string;
  counter?: string;
  every?: string;
  unitCount?: string;
}

export interface Pacing {
  /** Time mode: running time between snapshots. With `counter.every`: the longest wait, if any. */
  readonly intervalMs?: number;
  readonly counter?: CounterOptions;
}

export function pacingOf(flags: PacingFlags): Pacing {
  // Checked before the target is touched, though only used once the snapshots are in.
  if (flags.unitCount !== undefined) parseCount('--unit-count', flags.unitCount);
  if (flags.every !== undefined && flags.counter === undefined) throw new UsageError('--every needs --counter: the expression whose advance it waits for');
  if (flags.counter !== undefined && flags.counter.trim() === '') throw new UsageError('--counter needs a JavaScript expression, e.g. globalThis.turns');
  let every: number | undefined;
  if (flags.every !== undefined) {
    every = Number(flags.every);
    if (flags.every.trim() === '' || !Number.isFinite(every) || every <= 0) throw new UsageError(`--every must be a positive number of counter units, got "${flags.every}"`);
  }
  const intervalMs = flags.interval !== undefined
    ? parseDuration('--interval', flags.interval)
    : parseDuration('--interval', every === undefined ? DEFAULT_INTERVAL : DEFAULT_LONGEST_WAIT);
  if (intervalMs !== undefined && intervalMs <= 0 && every !== undefined) throw new UsageError('--interval with --every is the longest wait: it must be above 0');
  return {
    ...(intervalMs === undefined ? {} : { intervalMs }),
    ...(flags.counter === undefined ? {} : { counter: { expression: flags.counter, ...(every === undefined ? {} : { every }) } }),
  };
}

/** The plan's "work" line: how many snapshots and what comes between them (`brief`: the plan's short form). */
/** `3 snapshots`, or a plan's own words for the series (attach-settle.ts seriesPlanText). */
function snapshotsText(count: number | string): string {
  return typeof count === 'number' ? `${count} snapshots` : count;
}

export function pacingText(p: Pacing, count: number | string, intervalText: string | undefined, brief = false): string {
  const every = p.counter?.every;
  if (p.counter && every !== undefined) {
    const limit = `at most ${intervalText ?? DEFAULT_LONGEST_WAIT}`;
    if (brief) return `${snapshotsText(count)}, ${every} ${p.counter.expression} apart (${limit})`;
    return `${snapshotsText(count)}, the next each time ${p.counter.expression} has advanced by ${every} (${limit})`;
  }
  const reading = p.counter ? `; ${p.counter.expression} read before each` : '';
  if (brief) return `${snapshotsText(count)}, ${intervalText ?? DEFAULT_INTERVAL} of running time apart${reading}`;
  return `${snapshotsText(count)} with ${intervalText ?? DEFAULT_INTERVAL} of running time between them${reading}`;
}

export interface UnitCount {
  readonly count: number;
  readonly source: 'unit-count' | 'counter';
}

/** Units of work between the first and the last snapshot, and a warning when the counter gives none. */
export function unitCountOf(flags: PacingFlags, snapshots: readonly CapturedSnapshot[]): { unitCount?: UnitCount; counterUnits?: number; warning?: string } {
  const first = snapshots[0]?.counter;
  const last = snapshots[snapshots.length - 1]?.counter;
  const counterUnits = first !== undefined && last !== undefined ? last - first : undefined;
  const units = counterUnits === undefined ? {} : { counterUnits };
  if (flags.unitCount !== undefined) return { ...units, unitCount: { count: parseCount('--unit-count', flags.unitCount), source: 'unit-count' } };
  if (flags.counter === undefined) return units;
  if (counterUnits === undefined) return { ...units, warning: 'the counter was not read at the first or the last snapshot: no per-unit rates' };
  if (counterUnits <= 0) return { ...units, warning: `the counter did not advance (${first} → ${last}): no per-unit rates` };
  return { ...units, unitCount: { count: counterUnits, source: 'counter' } };
}
