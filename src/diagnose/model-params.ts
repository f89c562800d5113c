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
  /** Share of a growing group's retained bytes that backing stores must make for it to be `external`. */
  readonly externalShare: number;
  /**
   * Totals (backing stores, pending queues, profile sites) grow with the work when every interval added
   * at least this share of the fastest interval's rate times its work (growth-model.ts growsWithWork).
   */
  readonly steadyShare: number;
  /** A count drained when it fell below this share of its peak by the last snapshot. */
  readonly drainedShare: number;
  /** Warm-up: the last interval added at most this share of what the first interval kept. */
  readonly warmUpTail: number;
  /**
   * Survivors a class summed over several retainer paths needs per path on average, and members a class
   * new in the last interval needs to stay a candidate: objects made once each are not a growing thing.
   */
  readonly minMembersPerPath: number;
  /** Backlogs (backlog-findings.ts): pending objects at the peak of a pile-up. */
  readonly backlogMinCount: number;
  /** Backlogs: what a pile-up must hold more at its peak than at the first snapshot, whatever the heap. */
  readonly backlogMinBytes: number;
  /** Backlogs: share of a class's members replaced between snapshots for it to be work in progress. */
  readonly backlogMinTurnover: number;
  /** Backlogs: a queue still rising must rise by at least this many objects in every interval. */
  readonly backlogMinStep: number;
  /**
   * LangGraph: checkpoint puts waiting at once that make a backlog. The class is known to be pending (no
   * noise to rise above), and a time-paced snapshot catches a queue that fills and drains within a turn
   * below its peak most of the time, so the per-run share decides, not a pile-up size.
   */
  readonly checkpointMinPuts: number;
  /**
   * LangGraph: checkpoint puts waiting per run in flight that say runs do not wait for their writes:
   * durability "sync" keeps one pending (a step waits for its put), "async" with a saver that keeps up one
   * or two.
   */
  readonly checkpointPutsPerRun: number;
  /** LangGraph: runs in flight that make a pile-up (a handful is a graph's own concurrency). */
  readonly checkpointMinRuns: number;
  /** Native memory: the stitched windows between pauses must span at least this long (ms). */
  readonly nativeMinSpanMs: number;
  /** A timeline part grows only when its fitted rise reaches this many bytes. */
  readonly trendMinRiseBytes: number;
  /** A timeline part grows only when its fitted rise is this many times its residual noise. */
  readonly trendNoiseFactor: number;
  /** Holder reads: the most candidates' holders read after the last snapshot. */
  readonly mostHoldersRead: number;
  /** Holder reads: intervals read after the last snapshot. */
  readonly holderReadIntervals: number;
  /**
   * One snapshot (analyze): AsyncLocalStorage stores captured by resources of one kind, held beyond the
   * turns in flight, that make a suspect.
   */
  readonly minSuspects: number;
  /** One snapshot: copies of a framework object a process needs a handful of (compiled graphs, clients) that make a suspect. */
  readonly minCopies: number;
  /**
   * One snapshot: a one-shot timer due within this many ms is a turn in flight; what only such timers
   * hold is not a suspect (in-flight.ts).
   */
  readonly inFlightMaxMs: number;
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
  /** Fewest kept objects in every interval, whatever its work. */
  readonly minObjects?: number;
  /**
   * Allowed shortfall of an interval's kept objects against the fastest interval's rate times its work,
   * as a share of that.
   */
  readonly tolerance: number;
  /** Allowed shortfall in objects whatever the share (an object in flight at a snapshot). */
  readonly slack: number;
  /**
   * The kept rate over the whole series must also be above the counts' own noise at the leak level (a
   * sampled count: `profile`), not only in proportion.
   */
  readonly beyondNoise?: boolean;
}

export const DEFAULT_MODEL: ModelParams = {
  falseAlarm: 0.01,
  zRuledOut: 1.5,
  keptShare: 0.5,
  minGroupBytes: 16 * 1024,
  liveShare: 0.002,
  externalShare: 0.5,
  steadyShare: 0.25,
  drainedShare: 0.7,
  warmUpTail: 0.25,
  minMembersPerPath: 4,
  backlogMinCount: 20,
  backlogMinBytes: 256 * 1024,
  backlogMinTurnover: 0.5,
  backlogMinStep: 5,
  checkpointMinPuts: 5,
  checkpointPutsPerRun: 3,
  checkpointMinRuns: 5,
  nativeMinSpanMs: 60_000,
  trendMinRiseBytes: 1024 * 1024,
  trendNoiseFactor: 2,
  mostHoldersRead: 3,
  holderReadIntervals: 4,
  minSuspects: 5,
  minCopies: 25,
  inFlightMaxMs: 10 * 60_000,
};

/**
 * assertNoLeak's proportional rule (src/testing/proportional-growth.ts): at least one object every two
 * iterations in both intervals, within 25% (or 2 objects) of each other. Checked on clean functions:
 * 100 checks at N = 20, no false positive; the closest group had 3 per interval against 10.
 */
export const PROPORTIONAL_RULE: ProportionalRule = { minPerUnit: 0.5, tolerance: 0.25, slack: 2 };

/**
 * `leakhunt profile`'s rule (src/diagnose/profile-growth.ts): a site's sampled objects are counts with
 * Poisson noise and no identity, so every interval must add at least steadyShare (a quarter) of the
 * fastest interval's rate times its work, and the rate over the series must stand above the sampling noise at the
 * leak level.
 */
export const PROFILE_RULE: ProportionalRule = { minPerUnit: 0, minObjects: 1, tolerance: 1 - DEFAULT_MODEL.steadyShare, slack: 0, beyondNoise: true };
