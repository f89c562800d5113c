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
// Groups held through an earlier finding's object are folded into it (as in diagnose.ts); a folded
// group whose chain names the AsyncLocalStorage store holding it lends the finding its chain.

import type { GroupAllocation } from '../analysis/diff/survivor-sites.js';
import { countsAsGrowth } from '../diagnose/group-filter.js';
import type { GrowingGroup as JudgedGroup } from '../diagnose/growing-group.js';
import { bornPerInterval as bornIn, significance } from '../diagnose/growth-model.js';
import { judgeGroup, keptInProportion, scoreGroup } from '../diagnose/judge-group.js';
import { DEFAULT_MODEL, PROPORTIONAL_RULE, type ModelParams } from '../diagnose/model-params.js';
import type { ChainHop } from '../analysis/chain-description.js';
import type { SurvivorCurve } from './survivor-curves.js';

export interface GrowingGroup {
  /** The class as chains name it (a closure reads `onConfigChange()`). */
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

/** The judge's parameters here: the proportional rule, every group judged whatever it retains (the caller has a byte budget). */
const PARAMS: ModelParams = { ...DEFAULT_MODEL, minGroupBytes: 0, proportional: PROPORTIONAL_RULE };

/** Born in interval 1 and interval 2, from a group's curve [S1, S2, S3]. */
export function bornPerInterval(counts: readonly number[]): [number, number] {
  const [d1 = 0, d2 = 0] = bornIn(counts);
  return [d1, d2];
}

export function isProportional(born: readonly [number, number], iterations: number): boolean {
  return keptInProportion(born, [iterations, iterations], PROPORTIONAL_RULE);
}

/** The curve as the one judge reads it (its chain is described only when a fold asks for it). */
function judgedGroup(c: SurvivorCurve): JudgedGroup {
  return {
    className: c.className, signature: c.signature, get chain() { return c.chain(); }, counts: c.counts,
    born: bornIn(c.counts), retainedSize: c.retainedSize, externalSize: 0, movedElsewhere: 0, paths: 1,
  };
}

/** The shared filter and judge (group-filter.ts, judge-group.ts) with the proportional rule. */
function grows(c: SurvivorCurve, iterations: number): boolean {
  const g = judgedGroup(c);
  const work = [iterations, iterations];
  const k = countsAsGrowth(g) ? scoreGroup(g, undefined, work, significance([], [], PARAMS)) : undefined;
  return k !== undefined && judgeGroup(k, g, undefined, Infinity, PARAMS, work) === 'leak';
}

interface Candidate {
  readonly group: SurvivorCurve;
  readonly byClass: boolean;
}

/** Per class with several groups: their sum, represented by the largest group's chain. */
function classTotals(groups: readonly SurvivorCurve[]): SurvivorCurve[] {
  const byClass = new Map<string, SurvivorCurve[]>();
  for (const g of groups) {
    const list = byClass.get(g.className);
    if (list) list.push(g);
    else byClass.set(g.className, [g]);
  }
  const totals: SurvivorCurve[] = [];
  for (const list of byClass.values()) {
    if (list.length < 2) continue;
    const top = list.reduce((a, b) => (b.retainedSize > a.retainedSize ? b : a));
    totals.push({
      className: top.className,
      signature: top.signature,
      count: list.reduce((sum, g) => sum + g.count, 0),
      counts: top.counts.map((_, k) => list.reduce((sum, g) => sum + (g.counts[k] ?? 0), 0)),
      retainedSize: list.reduce((sum, g) => sum + g.retainedSize, 0),
      chain: () => top.chain(),
    });
  }
  return totals;
}

function hasAsyncContext(chain: readonly ChainHop[]): boolean {
  return chain.some((hop) => hop.label?.kind === 'async-context');
}

/** The groups of a warm-up / N / N series that grew with the iterations, largest first, folded by holder. */
export function findProportionalGrowth(groups: readonly SurvivorCurve[], iterations: number): GrowingGroup[] {
  const candidates: Candidate[] = groups.filter((g) => grows(g, iterations)).map((group) => ({ group, byClass: false }));
  // A class whose survivors grow in proportion while no single path of it does.
  const covered = new Set(candidates.map((c) => c.group.className));
  for (const total of classTotals(groups)) {
    if (!covered.has(total.className) && grows(total, iterations)) candidates.push({ group: total, byClass: true });
  }
  candidates.sort((a, b) => b.group.retainedSize - a.group.retainedSize || b.group.count - a.group.count);

  // Hop names throughout (chain-description.ts): a closure is `onConfigChange()`, not `Function`.
  const found: { value: GrowingGroup; name: string; also: string[] }[] = [];
  for (const { group: g, byClass } of candidates) {
    const chain = g.chain();
    const name = chain[0]?.node.className ?? g.className;
    const holder = found.find((f) => chain.slice(1).some((hop) => hop.node.className === f.name));
    if (holder) {
      holder.also.push(`${g.count} × ${name}`);
      // The chain through an AsyncLocalStorage store names the resource that captured it: show that one.
      if (!hasAsyncContext(holder.value.chain) && hasAsyncContext(chain)) {
        holder.value = { ...holder.value, signature: g.signature, chain };
      }
      continue;
    }
    found.push({
      name,
      also: [],
      value: {
        className: name,
        signature: g.signature,
        count: g.count,
        counts: g.counts,
        perInterval: bornPerInterval(g.counts),
        retainedSize: g.retainedSize,
        chain,
        alsoHeld: [],
        byClass,
        ...(g.allocation ? { allocation: g.allocation } : {}),
      },
    });
  }
  return found.map((f) => ({ ...f.value, alsoHeld: f.also }));
}
