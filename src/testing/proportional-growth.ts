// assertNoLeak's findings: which survivors of a warm-up / N / N series grew *in proportion to the
// iterations*. S1 is taken after warm-up, S2 after N more iterations, S3 after N more. A survivor is
// an object born after S1 and alive at S3; a group's curve [0, c1, c2] gives the members born in each
// interval: d1 = c1, d2 = c2 - c1. The filter and the judge are the diagnosis's (group-filter.ts,
// judge-group.ts) with the stricter proportional rule as its parameter (model-params.ts
// PROPORTIONAL_RULE): both intervals add about the same number, at least one every two iterations:
//
//     min(d1, d2) ≥ N / 2     and     |d1 - d2| ≤ max(2, 25% of max(d1, d2))
//
// Why this is not flaky:
// - warm-up (compiled code, inline caches, strings interned once, a cache filling to its bound) is
//   born once: it lands in one interval, not in both. Clean functions, 100 checks at N = 20
//   (allocate-and-drop, bounded cache, cleared timer in an ALS context, removed listener, async):
//   no false positive; the closest program group had min(d1, d2) = 3 against the threshold of 10.
// - V8's own classes (compiled code, hidden classes, closure contexts) are never a finding on their
//   own: code is compiled and optimised in steps as call counts grow (and concurrent compile jobs of
//   earlier work land whenever they finish), so it can grow in both intervals without a leak (seen in
//   the runs above: 130 then 129 `(compiled code)` objects, 124 then 94). When they grow with a leak,
//   they are held by the leaking objects and fold into its finding.
// - a bounded structure's survivors at S3 are its latest members, so they sit in interval 2 (d1 < d2)
//   — unless its bound exceeds 2N: such a cache looks like a leak in any window shorter than its bound.
// - objects freed later (pending timers, promises) are not survivors: GC runs before every snapshot.
// Besides path groups, survivors are summed per class, so a leak into a structure whose paths differ
// per entry (an object used as a dictionary, `sessions[id] = …`) still shows.
// The groups go through the one finder (src/diagnose/find-growth.ts) with the proportional rule as the
// judge's parameter: the same filter, class sums, fold and carrier naming as `leakhunt attach`, so a
// leak reads here as it does there (a timer holding a store is named after the store it holds).

import type { GroupAllocation } from '../analysis/diff/group-allocation.js';
import type { ChainHop } from '../analysis/chain-description.js';
import { article } from '../diagnose/chain-labels.js';
import { findGrowth, zText } from '../diagnose/find-growth.js';
import type { GrowingGroup as JudgedGroup } from '../diagnose/growing-group.js';
import { bornPerInterval as bornIn, significance } from '../diagnose/growth-model.js';
import { keptInProportion } from '../diagnose/judge-group.js';
import { DEFAULT_MODEL, PROPORTIONAL_RULE, type ModelParams } from '../diagnose/model-params.js';
import type { SurvivorCurve } from './survivor-curves.js';

export interface GrowingGroup {
  /** The class as the finding names it: the program's objects a carrier holds (`Session`, not the listener). */
  readonly className: string;
  readonly signature: string;
  /** Survivors at S3. */
  readonly count: number;
  /** Survivors present at S1, S2, S3. */
  readonly counts: readonly number[];
  /** Born in interval 1, in interval 2. */
  readonly perInterval: readonly [number, number];
  readonly retainedSize: number;
  readonly chain: readonly ChainHop[];
  /** Other growing groups held through this one, `60 × Session`. */
  readonly alsoHeld: readonly string[];
  /** True when found from the class's total rather than one retainer path. */
  readonly byClass: boolean;
  /** Where the members (or their holder) were made, when allocations were tracked. */
  readonly allocation?: GroupAllocation;
}

/**
 * The judge's parameters here: the proportional rule; every group judged whatever it retains (the
 * caller has a byte budget); classes summed over paths whatever their members per path (a dictionary's
 * entries, one per key, are this helper's usual leak).
 */
const PARAMS: ModelParams = { ...DEFAULT_MODEL, minGroupBytes: 0, minMembersPerPath: 0, proportional: PROPORTIONAL_RULE };

/** Born in interval 1 and interval 2, from a group's curve [S1, S2, S3]. */
export function bornPerInterval(counts: readonly number[]): [number, number] {
  const [d1 = 0, d2 = 0] = bornIn(counts);
  return [d1, d2];
}

export function isProportional(born: readonly [number, number], iterations: number): boolean {
  return keptInProportion(born, [iterations, iterations], PROPORTIONAL_RULE);
}

/** The curve as the one finder reads it (its chain is described only when the finder asks for it). */
function judgedGroup(c: SurvivorCurve): JudgedGroup {
  return {
    className: c.className, signature: c.signature, get chain() { return c.chain(); }, counts: c.counts,
    born: bornIn(c.counts), retainedSize: c.retainedSize, externalSize: 0, movedElsewhere: 0, paths: 1,
  };
}

const words = {
  grew: (g: JudgedGroup, count: number, k: { z: number }) => `${count} ${g.className} left behind, per interval: ${g.born!.join(', ')} (${zText(k.z)})`,
  keptThrough: (g: JudgedGroup, count: number, carrier: { className: string }) => `${count} ${g.className} left behind, each held through ${article(carrier.className)} ${carrier.className}`,
};

/** The groups of a warm-up / N / N series that grew with the iterations, largest first, folded by holder. */
export function findProportionalGrowth(curves: readonly SurvivorCurve[], iterations: number): GrowingGroup[] {
  const sorted = [...curves].sort((a, b) => b.retainedSize - a.retainedSize || b.count - a.count);
  const curveOf = new Map<JudgedGroup, SurvivorCurve>();
  const groups = sorted.map((c) => {
    const g = judgedGroup(c);
    curveOf.set(g, c);
    return g;
  });
  const found = findGrowth({
    groups,
    work: [iterations, iterations],
    significance: significance([], [], PARAMS),
    params: PARAMS,
    rates: {},
    words,
    classSums: { minMembersPerPath: PARAMS.minMembersPerPath },
  });
  return found.findings.map((f, i): GrowingGroup => {
    const lead = found.leads[i]!;
    const allocation = curveOf.get(lead)?.allocation;
    return {
      className: f.className,
      signature: f.signature ?? lead.signature,
      count: f.count,
      counts: lead.counts,
      perInterval: bornPerInterval(lead.counts),
      retainedSize: f.retainedSize,
      chain: f.chain,
      alsoHeld: f.alsoHeld ?? [],
      byClass: lead.paths > 1,
      ...(allocation ? { allocation } : {}),
    };
  });
}
