// The diagnosis model's parameters in one place (docs/diagnosis-model.md says how each was chosen).

/**
 * The model's parameters, one object so that the evaluation's sweep (scripts/sweep.js,
 * docs/diagnosis-model.md) can vary them and the product uses one set: DEFAULT_MODEL.
 */
export interface ModelParams {
  /** Chance, per diagnosis, of calling a leak where nothing is kept. */
  readonly falseAlarm: number;
  /** Below this z a group is ruled out; between it and the leak level it is a candidate (inconclusive). */
  readonly zRuledOut: number;
  /** Share of the kept growth the class's live count must show, within the leak level's z. */
  readonly keptShare: number;
  /** Bytes a survivor group must retain to matter, whatever the heap. */
  readonly minGroupBytes: number;
  /** Share of the live heap a judgement on class totals must clear (with the noise between snapshots). */
  readonly liveShare: number;
  /**
   * Set while attach's default capture can still take another snapshot (attach-settle.ts): growth that
   * stopped in the trailing intervals only, and may be a pause between bursts, is a candidate, not ruled
   * out. Unset for every final diagnosis.
   */
  readonly settling?: boolean;
  /**
   * assertNoLeak's stricter rule, where the work is known exactly (N iterations per interval): a group
   * is a leak only when every interval kept objects in proportion to its work; no candidates.
   */
  readonly proportional?: ProportionalRule;
}

export interface ProportionalRule {
  /** Fewest kept objects per unit of work in every interval. */
  readonly minPerUnit: number;
  /** Allowed difference between the intervals' kept objects, as a share of the largest. */
  readonly tolerance: number;
  /** Allowed difference in objects whatever the share (an object in flight at a snapshot). */
  readonly slack: number;
}

export const DEFAULT_MODEL: ModelParams = {
  falseAlarm: 0.01,
  zRuledOut: 1.5,
  keptShare: 0.5,
  minGroupBytes: 16 * 1024,
  liveShare: 0.002,
};

/**
 * assertNoLeak's proportional rule (src/testing/proportional-growth.ts): at least one object every two
 * iterations in both intervals, within 25% (or 2 objects) of each other. Checked on clean functions:
 * 100 checks at N = 20, no false positive; the closest group had 3 per interval against 10.
 */
export const PROPORTIONAL_RULE: ProportionalRule = { minPerUnit: 0.5, tolerance: 0.25, slack: 2 };
