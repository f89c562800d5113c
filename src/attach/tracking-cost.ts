// What allocation tracking costs a target, measured (scripts/bench-tracking.js; the figures and the run
// are in docs/allocation-sites.md): the plan of `attach --trace-allocations` says it before starting.
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

/** scripts/bench-tracking.js --window 6, Node 20.20.2, 2 shared cores (docs/allocation-sites.md). */
export const TRACKING_COST: TrackingCost = {
  throughputLoss: { min: 0.69, max: 0.94 },
  extraRssBytes: { min: -40 * 2 ** 20, max: -9 * 2 ** 20 },
  p99DelayMs: { off: 489, on: 774 },
  startPauseMs: 1193,
  measuredOn: 'story A, story C and zoo listener-per-request on Node 20.20.2',
};
