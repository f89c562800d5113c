// The one judge of a growing group (docs/diagnosis-model.md): its kept rate (kept-model.ts) against the
// diagnosis's leak level and, with ids, its class's live count. A finding, a candidate (not settled:
// the verdict `inconclusive`), or ruled out. Both diff modes and assertNoLeak call it; assertNoLeak's
// stricter proportional rule is a parameter (ModelParams.proportional), not a judge of its own.

import type { ClassDiffRow } from '../analysis/diff/diff-series.js';
import { addedObjects, type GrowingGroup } from './growing-group.js';
import type { Significance } from './growth-model.js';
import { classKeeps, inFlightLevels, inFlightOf, keptRate, keptRateOfCounts, mayBePause, normalQuantile, trendChance, withinInFlightSeen, type KeptRate } from './kept-model.js';
import type { HolderVerdict } from './holder-reads.js';
import type { ModelParams, ProportionalRule } from './model-params.js';

export type Status = 'leak' | 'candidate' | undefined;

/**
 * The part of what the group retains that matters, against its floor: with ids every member is kept
 * growth (floorBytes, no noise); without, only the added share of the newest members is, and the
 * heap's back-and-forth applies (classFloorBytes), as it does to class totals.
 */
function clearsFloor(g: GrowingGroup, sig: Significance, wrapsNative: boolean): boolean {
  // Wrappers of native memory (TLS contexts, zlib and crypto handles): the snapshot sizes the wrapper,
  // not what it holds outside the heap, so bytes cannot say whether they matter; their count does.
  if (wrapsNative) return true;
  if (g.born) return g.retainedSize >= sig.floorBytes;
  const alive = g.counts[g.counts.length - 1]!;
  return alive > 0 && (g.retainedSize * addedObjects(g)) / alive >= sig.classFloorBytes;
}

/** The group's kept rate, or undefined when it cannot be a finding whatever its counts (below the floor). */
export function scoreGroup(g: GrowingGroup, row: ClassDiffRow | undefined, work: readonly number[], sig: Significance, nativeWrappers?: ReadonlySet<string>): KeptRate | undefined {
  if (!clearsFloor(g, sig, nativeWrappers?.has(g.className) === true)) return undefined;
  if (!g.born) return keptRateOfCounts(g.counts, g.movedElsewhere, work);
  return keptRate(g.born, work, inFlightOf(row?.newPerInterval ?? null, row?.survivorCounts ?? null));
}

/** A group one hop up another's path (holder-groups.ts) with its class's row. */
export interface HolderGroup {
  readonly group: GrowingGroup;
  readonly row: ClassDiffRow;
}

/**
 * Whether the live count of a class along the group's path says its members replace as many as they
 * add (classKeeps: `replaced`), for the group itself or any group holding its members further up the
 * path. Held members go with their holders: strings held by the entries of a cache at its cap are as
 * replaced as the entries, however much the string class as a whole moves.
 */
function replacedAlongPath(k: KeptRate, g: GrowingGroup, row: ClassDiffRow, holders: readonly HolderGroup[], z: number, params: ModelParams, work: readonly number[]): 'kept' | 'replaced' | 'unsure' {
  const live = classKeeps(k.kept, row.counts, inFlightOf(row.newPerInterval, row.survivorCounts), z, params.keptShare);
  if (live === 'replaced' || !g.born) return live;
  for (const { group: h, row: hRow } of holders) {
    if (!h.born) continue;
    const inFlight = inFlightOf(hRow.newPerInterval, hRow.survivorCounts);
    if (classKeeps(keptRate(h.born, work, inFlight).kept, hRow.counts, inFlight, z, params.keptShare) === 'replaced') return 'replaced';
  }
  return live;
}

/**
 * The class's work in flight at each snapshot (kept-model.ts inFlightLevels) when it climbs along the
 * work beyond its readings' scatter, at the ruled-out level: work that piles up while each member leaves
 * within an interval (a queue served first in, first out, arriving faster than served) keeps no member,
 * so nothing reads kept, and the mean of the earlier levels hides the newest. Such a group is not ruled
 * out; more snapshots or the holder's reads settle it. Undefined otherwise, and without identities.
 */
export function pilingLevels(g: GrowingGroup, row: ClassDiffRow | undefined, work: readonly number[], params: ModelParams): number[] | undefined {
  if (!row || !g.born) return undefined;
  const levels = inFlightLevels(row.counts, row.survivorCounts);
  if (!levels || normalQuantile(1 - trendChance(levels, work)) < params.zRuledOut) return undefined;
  return levels;
}

/**
 * How a scored group stands against the leak level `z`: a finding, a candidate, or ruled out.
 * `holders`: the groups holding its members up its path (holder-groups.ts), nearest first; `heapSlowed`:
 * whether the live heap's growth slowed down too (kept-model.ts heapSlowdownZ), true when unknown.
 */
export function judgeGroup(
  k: KeptRate, g: GrowingGroup, row: ClassDiffRow | undefined, z: number, params: ModelParams, work: readonly number[],
  holders: readonly HolderGroup[] = [], after?: HolderVerdict, heapSlowed = true,
): Status {
  // Every interval in proportion already says the growth went on to the end; the noise test is then on
  // the whole series' rate (zAll), not the late half's.
  if (params.proportional) return keptInProportion(k.kept, work, params.proportional) && (!params.proportional.beyondNoise || k.zAll >= z) ? 'leak' : undefined;
  // Nothing kept late: ruled out, unless the early intervals kept objects and the series cannot tell
  // whether that stopped (the last interval's in-flight work hides a small leak of a busy class).
  // Nor is it ruled out when its class had no objects before the last interval: its work in flight is
  // unknown, so its last interval's survivors cannot be told from it either way (z is 0 by want of
  // evidence, not by evidence of nothing). It is a candidate; the holder's reads settle it.
  // A few objects made once (a singleton made on first use) are not a growing thing at all.
  // Whether the late rate fell below the early one beyond chance is judged against how far the kept
  // counts scatter (dispersion): objects kept in bursts with silent intervals are far fewer independent arrivals
  // than objects, and a cache levelling off follows its trend (dispersion 1), so only the former changes.
  // A count that slows while the live heap's bytes keep pace (`heapSlowed` false: each kept object holds
  // more than the last) is not levelling off.
  const slowedDown = k.slowdownZ / Math.sqrt(k.dispersion) >= z && heapSlowed;
  const unknown = k.lastUnknown && k.kept[k.kept.length - 1]! >= params.minMembersPerPath;
  const piling = pilingLevels(g, row, work, params) !== undefined;
  const stopped = !unknown && !piling && k.z < params.zRuledOut && !(k.zAll >= params.zRuledOut && !slowedDown);
  // While attach can take another snapshot, a stop that only the trailing intervals show may be a pause
  // between bursts (mayBePause): not sure yet, so the capture goes on. At the end it is ruled out.
  // So is it when the holder was read after the last snapshot (`after`, holder-reads.ts): the reads settle it.
  const moreToCome = params.settling === true || after !== undefined;
  const paused = stopped && moreToCome && g.born !== null && k.zAll >= params.zRuledOut && mayBePause(k.kept, params.zRuledOut);
  if (stopped && !paused) return undefined;
  // Nothing outlived a whole interval: the group cannot be a leak (`outlived` below), only a candidate
  // or nothing. With ids, nothing when the class's last-interval survivors are no more than it had in
  // flight at an earlier snapshot and let go (a batch caught before its flush, however large); a level
  // above every earlier one may be a backlog that grows while each item leaves within an interval (first
  // in, first out), so it stays not sure. Without ids, nothing when the earlier intervals rule out the
  // late rate as a steady one. Either only turns "not sure" into "none", never hides a leak.
  const outlivedAny = k.kept.slice(0, -1).some((n) => n > 0);
  if (!outlivedAny) {
    const seen = row && g.born ? withinInFlightSeen(row.counts, row.survivorCounts) : undefined;
    if (!piling && (seen ?? -k.slowdownZ >= z)) return undefined;
  }
  // With ids the class's live count must keep them (a bounded structure lets as many go as it takes
  // in), and so must the live counts of the classes holding them up the path; without, a path's gain
  // is already less what its class's other paths lost (movedElsewhere).
  const live = row && g.born ? replacedAlongPath(k, g, row, holders, z, params, work) : 'kept';
  if (live === 'replaced') return undefined;
  // One interval cannot tell kept objects from the work in flight at the newest snapshot, and growth
  // that is slowing down may still level off. And objects that outlived a whole interval: growth seen
  // in the last interval alone may be the work in flight at that moment.
  // The earlier intervals must keep objects at a rate the last one does not outrun beyond chance (a
  // single older object beside a burst in the last interval is not a rate that went on), unless they
  // show a leak's rate by themselves: growth that speeds up (each kept object bigger, or more of them
  // each interval) is at least as clearly a leak as a steady one.
  const outlived = outlivedAny && (-k.slowdownZ < z || k.zBeforeLast >= z);
  if (k.z >= z && live === 'kept' && outlived && g.counts.length > 2 && !slowedDown) return 'leak';
  // Not settled by the snapshots: the holder's reads after them, when there are any, settle it — it went
  // on gaining members (a leak), or it stopped and a pause between bursts is unlikely (ruled out).
  if (after === 'grew') return 'leak';
  if (after === 'stopped') return undefined;
  return 'candidate';
}

/**
 * The proportional rule: every interval kept at least `minPerUnit` objects per unit of its work (and
 * `minObjects`), and none fell short of the fastest interval's rate times its work by more than
 * `tolerance` of that (or `slack` objects). With equal work: the intervals kept about as many.
 */
export function keptInProportion(kept: readonly number[], work: readonly number[], rule: ProportionalRule): boolean {
  if (kept.length === 0) return false;
  const fastest = Math.max(...kept.map((n, k) => n / work[k]!));
  return kept.every((n, k) => {
    const expected = fastest * work[k]!;
    return n > 0 && n >= Math.max(rule.minObjects ?? 0, rule.minPerUnit * work[k]!) && expected - n <= Math.max(rule.slack, rule.tolerance * expected);
  });
}

/**
 * Classes whose objects wrap native memory: the snapshot lists Node's own node for them beside the JS
 * object (`Node / X` or `Detached Node / X` for class X, from Node's memory tracker).
 */
export function nativeWrapperClasses(classes: readonly { readonly name: string }[]): Set<string> {
  const out = new Set<string>();
  for (const { name } of classes) {
    const m = /^(?:Detached )?Node \/ (.+)$/.exec(name);
    if (m) out.add(m[1]!);
  }
  return out;
}
