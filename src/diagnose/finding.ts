// What a diagnosis says, as data: the verdict, the findings and candidates, the figures the model
// used, and what a diagnosis reads. Every finder (growth-findings, signature-growth, backlog-findings,
// suspects) and every report speak these types; the rules live in the finders, not here. What a
// finding carries of other modules (its allocation site, a holder's reads) is typed here too, so no
// module of diagnose/ imports back into this one.

import type { AllocationFrame } from '../analysis/allocation-site.js';
import type { ChainHop } from '../analysis/chain-description.js';
import type { DiffResult } from '../analysis/diff/diff-series.js';
import type { Significance, WorkUnit } from './growth-model.js';
import type { ModelParams } from './model-params.js';
import type { MemorySample, MemoryTrend, Pause } from './memory-trend.js';

export type Verdict = 'leak' | 'backlog' | 'external' | 'native' | 'inconclusive' | 'warm-up' | 'suspect' | 'none';

export interface Finding {
  readonly kind: 'leak' | 'should-be-few' | 'backlog' | 'external' | 'native' | 'warm-up' | 'suspect';
  readonly className: string;
  readonly signature: string | null;
  readonly count: number;
  /** Objects added per interval between snapshots. */
  readonly perInterval: number;
  readonly perMinute?: number;
  /** Per unit of work, when the caller says how many units ran (`--unit-count`, `--counter`). */
  readonly perUnit?: number;
  readonly retainedSize: number;
  readonly chain: readonly ChainHop[];
  /** Why the objects stay and what to change, in one sentence (`why: action`). */
  readonly fix: string;
  /** What to change, alone (the text shows this without --verbose). */
  readonly action: string;
  readonly evidence: readonly string[];
  /** Other survivor groups held through this finding's objects. */
  readonly alsoHeld?: readonly string[];
  /** Growth findings: survivors born in each interval. */
  readonly born?: readonly number[];
  /** Backlogs: the count fell back after its peak. */
  readonly drained?: boolean;
  /** Growth findings: of the retained size, ArrayBuffer backing stores (bytes outside the JS heap). */
  readonly externalSize?: number;
  /**
   * Other growth findings held by the same lasting holder (fold-findings.ts): one root cause, so one
   * finding; each member is kept whole.
   */
  readonly members?: readonly Finding[];
  /** Where its objects (or the holder that keeps them) were made: snapshots taken while allocations were tracked. */
  readonly allocation?: FindingAllocation;
}

/** The figures the rules were measured against (docs/diagnosis-model.md). */
export interface ModelFigures extends Significance {
  /** Work in each interval, in `workUnit`. */
  readonly work: readonly number[];
  readonly workUnit: WorkUnit;
  /** Growth of ArrayBuffer backing stores and of the program's JS objects, first to last snapshot. */
  readonly backingStoreGrowth: number;
  readonly jsGrowth: number;
}

export interface Diagnosis {
  readonly verdict: Verdict;
  readonly evidence: readonly string[];
  readonly findings: readonly Finding[];
  readonly memory?: MemoryTrend;
  readonly model?: ModelFigures;
  /**
   * Groups the series could neither rule in nor out (kept-model.ts): the verdict is `inconclusive` when
   * nothing else was found, and another snapshot (attach takes it by default) would settle them.
   */
  readonly candidates?: readonly Candidate[];
}

export interface DiagnoseInput {
  readonly diff: DiffResult;
  readonly samples?: readonly MemorySample[];
  /** Time between the first and the last snapshot, for per-minute rates. */
  readonly elapsedMs?: number;
  /** Units of work (turns, requests) done between the first and the last snapshot. */
  readonly unitCount?: number;
  /** The unit counter read at each snapshot (attach --counter): work per interval. */
  readonly unitsAt?: readonly (number | undefined)[];
  /** When each snapshot was taken (Unix ms): work per interval when no counter is known. */
  readonly timesAt?: readonly number[];
  /**
   * The target's pauses for the snapshots (attach): each leaves native memory behind in the target, so
   * the RSS step across a pause is taken out before native growth is judged. Without them, a timeline
   * that spans snapshots (`timelineHasSnapshots`) is not used for a native verdict.
   */
  readonly pauses?: readonly Pause[];
  readonly timelineHasSnapshots?: boolean;
  /**
   * Member counts of candidates' holders read after the last snapshot (attach, holder-reads.ts): they
   * settle groups the snapshots could not.
   */
  readonly holderReads?: readonly HolderReads[];
  /** The model's parameters (model-params.ts); DEFAULT_MODEL unless an evaluation sweeps them. */
  readonly params?: ModelParams;
}

/**
 * A group the series can neither rule in nor out: kept growth above zRuledOut but below the leak
 * level (`z`, `zNeeded`), or growth seen at two points only (no z: one interval cannot tell a leak from
 * a cache filled once or the work in flight). `moreIntervals`: intervals like the late ones that would
 * settle it if its rate holds.
 */
export interface Candidate {
  readonly className: string;
  readonly signature: string | null;
  readonly count: number;
  /** Objects added per interval (born and kept with ids; the live count's steps without). */
  readonly born: readonly number[];
  readonly retainedSize: number;
  readonly z?: number;
  readonly zNeeded?: number;
  readonly moreIntervals: number;
  readonly chain: readonly ChainHop[];
  /**
   * Pending work whose pile-up is not yet shown (backlog-findings.ts): held by work that completes, its
   * count's rise within its own back-and-forth (`z` is then the rise's); or work that never outlives an
   * interval, whose rise stands out from its readings' scatter only with `trendChance` above `chanceNeeded`.
   */
  readonly pending?: { readonly counts: readonly number[]; readonly trendChance?: number; readonly chanceNeeded?: number };
  /** Its class's work in flight at each snapshot, when that climbs (judge-group.ts pilingLevels). */
  readonly inFlight?: readonly number[];
}

export interface FindingAllocation {
  /** Innermost first: the user's frame, then the library frame it called (allocation-site.ts). */
  readonly frames: readonly AllocationFrame[];
  /** Of the finding's survivors with a known site, the fraction this site made. */
  readonly share: number;
  /** Set when the site made a holder on the chain rather than the objects: its class and hop (0 = the object). */
  readonly holder?: { readonly className: string; readonly hop: number; readonly owner?: string };
  /** Set when the site is that of the members sharing the finding's cause: the class that was made there. */
  readonly sameCause?: { readonly className: string };
}

/** One read of a holder's member count. `interval` 0 is the start (just after the last snapshot). */
export interface HolderRead {
  readonly interval: number;
  /** Unix ms. */
  readonly at: number;
  readonly count: number;
}

/** The reads of one holder, by its V8 heap object id (the same id the snapshots give it). */
export interface HolderReads {
  readonly holderId: number;
  readonly className: string;
  readonly reads: readonly HolderRead[];
}
