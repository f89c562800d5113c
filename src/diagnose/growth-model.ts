// The arithmetic the growth rules share (docs/diagnosis-model.md): work per interval, steps of a
// series, the heap's own back-and-forth between snapshots and the floors a judgement must clear. Pure
// arithmetic on counts and bytes; no graph, no prose.
//
// - Work: units per interval (the request counter at each snapshot), else time, else one per interval.
// - Survivor groups are judged by kept-model.ts (a kept rate with a false-alarm level). Judgements on
//   totals without identity (live counts per path across sessions, sampled bytes per allocation site,
//   backing-store class totals) still use growsWithWork: every interval added in proportion to its work.
// - What matters: a survivor group retains minGroupBytes; a judgement on class totals must also clear
//   a share of the live heap and the noise between snapshots (what classes gain in one interval and
//   give back in another). A heap that shrinks does not lower either floor.

/** Survivors born in each interval, from a survivor curve (members present at each snapshot, first 0). */
export function bornPerInterval(curve: readonly number[]): number[] {
  return curve.slice(1).map((c, k) => c - curve[k]!);
}

/** Change of a count between consecutive snapshots. */
export function stepsOf(values: readonly number[]): number[] {
  return values.slice(1).map((v, k) => v - values[k]!);
}

/**
 * Work done in each interval: counter advance when every snapshot has a reading, else the time between
 * snapshots, else 1 each. Never 0 (a stalled counter still leaves the interval in the series).
 */
export function workPerInterval(intervals: number, unitsAt?: readonly (number | undefined)[], timesAt?: readonly number[]): number[] {
  const from = (values: readonly number[]): number[] | undefined => {
    if (values.length !== intervals + 1) return undefined;
    const steps = stepsOf(values);
    return steps.every((s) => Number.isFinite(s) && s >= 0) && steps.some((s) => s > 0) ? steps.map((s) => Math.max(s, 1e-9)) : undefined;
  };
  const units = unitsAt && unitsAt.every((u) => u !== undefined) ? from(unitsAt as number[]) : undefined;
  return units ?? (timesAt ? from(timesAt) : undefined) ?? new Array<number>(intervals).fill(1);
}

/** What workPerInterval measures the work in: counter units, milliseconds, or intervals. */
export type WorkUnit = 'unit' | 'ms' | 'interval';

/** The unit workPerInterval measured the work in. */
export function workUnitOf(unitsAt?: readonly (number | undefined)[], timesAt?: readonly number[]): WorkUnit {
  if (unitsAt && unitsAt.every((u) => u !== undefined)) return 'unit';
  return timesAt ? 'ms' : 'interval';
}

/**
 * Every interval added, in proportion to its work: added[k] ≥ max(1, share × rate × work[k]), with
 * rate = max_k added[k] / work[k], the fastest interval's, and share ModelParams.steadyShare. With one
 * interval, any addition counts (the caller asks for more).
 */
export function growsWithWork(added: readonly number[], work: readonly number[], share: number): boolean {
  const total = added.reduce((a, b) => a + b, 0);
  const totalWork = work.reduce((a, b) => a + b, 0);
  if (total <= 0 || totalWork <= 0) return false;
  // Against the fastest interval, not the mean: growth that levels off (a JIT or cache warming up: 41
  // then 6 source strings over equal work) clears a quarter of the mean (5.9) but not of its first
  // interval (10.3); a leak's per-unit rate stays within a factor of four from one interval to the next.
  const rate = Math.max(...added.map((a, k) => a / work[k]!));
  return added.every((a, k) => a >= Math.max(1, share * rate * work[k]!));
}

/** Sizes of one class at each snapshot, for the noise estimate. */
export interface SizeSeries {
  readonly sizes: readonly number[];
}

/**
 * The heap's own back-and-forth per interval: for each class, what it gained in some intervals and gave
 * back in others (Σ|steps| − |net|), summed over classes and averaged over the intervals. Zero with two
 * snapshots (no interval to give back in). A steady leak or a steady shrink adds nothing to it.
 */
export function noisePerInterval(classes: readonly SizeSeries[]): number {
  let wobble = 0;
  let intervals = 0;
  for (const c of classes) {
    const steps = stepsOf(c.sizes);
    intervals = Math.max(intervals, steps.length);
    const moved = steps.reduce((a, s) => a + Math.abs(s), 0);
    wobble += moved - Math.abs(c.sizes[c.sizes.length - 1]! - c.sizes[0]!);
  }
  return intervals > 0 ? wobble / (2 * intervals) : 0;
}

import { DEFAULT_MODEL, type ModelParams } from './model-params.js';

export interface Significance {
  /** Bytes a survivor group must retain to matter (survivors are known by identity: no noise in them). */
  readonly floorBytes: number;
  /** Bytes a judgement on totals of a moment (pending work, sampled bytes) needs: the floor and a share of the live heap. */
  readonly totalsFloorBytes: number;
  /** Bytes a change of class totals must exceed to matter: the floor, a share of the live heap, and the noise between snapshots. */
  readonly classFloorBytes: number;
  /** The largest live size of the series. */
  readonly liveBytes: number;
  /** The heap's own back-and-forth per interval (noisePerInterval). */
  readonly noiseBytes: number;
}

export function significance(liveSizes: readonly number[], classes: readonly SizeSeries[], params: ModelParams = DEFAULT_MODEL): Significance {
  const liveBytes = Math.max(0, ...liveSizes);
  const noiseBytes = noisePerInterval(classes);
  const floorBytes = params.minGroupBytes;
  const totalsFloorBytes = Math.max(floorBytes, params.liveShare * liveBytes);
  return { floorBytes, totalsFloorBytes, classFloorBytes: Math.max(totalsFloorBytes, noiseBytes), liveBytes, noiseBytes };
}

/** The count fell back below `share` (ModelParams.drainedShare) of its peak by the last snapshot. */
export function drainedAfterPeak(counts: readonly number[], share: number): boolean {
  return counts.length > 1 && counts[counts.length - 1]! < share * Math.max(...counts);
}
