// What allocation tracking costs a target, measured (scripts/bench-tracking.js; the figures and the run
// are in docs/allocation-sites.md): the plan of `attach --trace-allocations` says it before starting.
// Calibrated constants, like snapshot-cost.ts's: re-measure and update both places together.

export interface TrackingCost {
  /** Fraction of requests a second lost while tracking, lowest and highest over the story fixtures. */
  readonly throughputLoss: { readonly min: number; readonly max: number };
  /** RSS added by tracking over the measured window, lowest and highest over the story fixtures. */
  readonly rssGrowthBytes: { readonly min: number; readonly max: number };
  /** p99 event-loop delay, worst fixture, without and with tracking. */
  readonly p99DelayMs: { readonly off: number; readonly on: number };
  readonly measuredOn: string;
}

export const TRACKING_COST: TrackingCost = {
  throughputLoss: { min: 0, max: 0 },
  rssGrowthBytes: { min: 0, max: 0 },
  p99DelayMs: { off: 0, on: 0 },
  measuredOn: 'not measured yet',
};
