// What allocation tracking costs a target, measured (`npm run bench:attach -- --only overhead`; the
// figures and the runs are in docs/profile.md#cost and docs/allocation-sites.md): the plan of
// `attach --trace-allocations` says it before starting.
// Calibrated constants, like snapshot-cost.ts's: re-measure and update both places together.

export interface TrackingCost {
  /** Fraction of requests a second lost while tracking, lowest and highest over the story fixtures. */
  readonly throughputLoss: { readonly min: number; readonly max: number };
  /** RSS growth while tracked minus while untracked, lowest and highest (negative: it grew less, fewer requests ran). */
  readonly extraRssBytes: { readonly min: number; readonly max: number };
  /** p99 event-loop delay, worst fixture, without and with tracking. */
  readonly p99DelayMs: { readonly off: number; readonly on: number };
  /** Longest pause of the target while tracking was turned on (V8 collects and numbers the heap). */
  readonly startPauseMs: number;
  readonly measuredOn: string;
}

/**
 * `npm run bench:attach -- --only overhead`, three runs (c33653f, 2d59bb9, and 259e235 with the compaction
 * hold, on a quiet machine), Node 20.20.2, 2 shared cores (docs/profile.md#cost, docs/allocation-sites.md):
 * turns lost 87–100% (wall, pooled per configuration), p99 delay of the worst fixture (story A: 2090 ms in
 * 2d59bb9's run, 1799 ms in the quiet one), RSS growth and the longest start from the quiet run.
 */
export const TRACKING_COST: TrackingCost = {
  throughputLoss: { min: 0.87, max: 1 },
  extraRssBytes: { min: -222 * 2 ** 20, max: -8 * 2 ** 20 },
  p99DelayMs: { off: 161, on: 2090 },
  startPauseMs: 5897,
  measuredOn: 'story A, story C and zoo listener-per-request on Node 20.20.2',
};
