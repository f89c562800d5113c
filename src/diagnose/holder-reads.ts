// What a candidate's holder did after the last snapshot (docs/diagnosis-model.md, "Holder reads").
// When attach's snapshot budget runs out with a group neither ruled in nor out, it goes on reading the
// member count of the group's lasting holder (the Map, Set, array or dictionary the members accumulate
// in: fold-findings.ts anchorOf) for a few more intervals, with no pause and no snapshot. A leak's holder
// keeps gaining members; a cache at its cap, a pool or a queue that drains does not. Pure arithmetic.

import type { ChainHop } from '../analysis/chain-description.js';
import { anchorIndex } from './fold-findings.js';
import { mayBePause, normalQuantile } from './kept-model.js';
import type { HolderRead, HolderReads } from './finding.js';
import type { ModelParams } from './model-params.js';

/**
 * The reads a diagnosis uses: the first `mostHoldersRead` holders, over the first `holderReadIntervals`
 * intervals (ModelParams). Attach reads exactly that many; a sweep of smaller values sees what fewer
 * reads would have said.
 */
export function readsWithin(all: readonly HolderReads[], params: ModelParams): HolderReads[] {
  return all.slice(0, params.mostHoldersRead).map((h) => ({ ...h, reads: h.reads.filter((r) => r.interval <= params.holderReadIntervals) }));
}

/**
 * The holder to read for a group: the first hop from its anchor on (the first hop there before the first
 * snapshot) that is a JS object — a Map's or an array's backing store is not, and is replaced as it
 * grows. Undefined without one.
 */
export function holderToRead(chain: readonly ChainHop[], firstMaxId: number): ChainHop | undefined {
  const at = anchorIndex(chain, firstMaxId);
  if (at < 0) return undefined;
  for (let i = at; i < chain.length - 1; i++) {
    const hop = chain[i]!;
    if (hop.node.type === 'synthetic') return undefined;
    if (hop.node.type === 'object' && hop.node.id <= firstMaxId) return hop;
  }
  return undefined;
}

/** What a group's holder did after the last snapshot. */
export type HolderVerdict = 'grew' | 'stopped' | 'unsure';

export interface HolderTrend {
  /** The floor (fewest members) of each interval, the start's first. */
  readonly floors: readonly number[];
  /** The last interval's floor less the first interval's (not the start's: see holderTrend). */
  readonly gain: number;
  /** The standard error of a difference of two floors under "nothing is kept". */
  readonly se: number;
  /** The gain over `se`. */
  readonly z: number;
}

/**
 * Floors, not single reads: members in flight (a keyed Map of the requests being served) come and go
 * between reads, and the fewest an interval held is what it kept. The baseline is the first interval's
 * floor, not the start's: the start is read just after the last snapshot's pause, while the target
 * catches up (every timer due during the pause fires at once, the work it held completes), so a count of
 * work in flight reads low there and recovers after. Under "nothing is kept" the last floor differs from
 * the first's by the reads' own scatter within an interval (around its straight line, pooled over the
 * intervals after the start), twice over, plus one. Needs the start and two intervals.
 */
export function holderTrend(reads: readonly HolderRead[]): HolderTrend | undefined {
  const byInterval = new Map<number, HolderRead[]>();
  for (const r of reads) {
    const list = byInterval.get(r.interval) ?? [];
    list.push(r);
    byInterval.set(r.interval, list);
  }
  const intervals = [...byInterval.keys()].sort((a, b) => a - b);
  if (intervals.length < 3 || intervals[0] !== 0) return undefined;
  // The start is read at once; an interval's floor is taken over its second half, so that growth in its
  // first half counts.
  const windows = intervals.map((k) => {
    const list = byInterval.get(k)!;
    if (k === 0) return list;
    const mid = (Math.min(...list.map((r) => r.at)) + Math.max(...list.map((r) => r.at))) / 2;
    return list.filter((r) => r.at >= mid);
  });
  const floors = windows.map((w) => Math.min(...w.map((r) => r.count)));
  // The scatter around each window's own straight line: a holder that grows steadily is not noisy.
  let squares = 0, dof = 0;
  for (const w of windows.slice(1)) {
    if (w.length < 3) continue;
    squares += residualSquares(w);
    dof += w.length - 2;
  }
  const variance = dof > 0 ? squares / dof : 0;
  const gain = floors[floors.length - 1]! - floors[1]!;
  const se = Math.sqrt(2 * variance + 1);
  return { floors, gain, se, z: gain / se };
}

/** Sum of squared residuals of the counts around their least-squares line in time. */
function residualSquares(reads: readonly HolderRead[]): number {
  const n = reads.length;
  const t0 = reads[0]!.at;
  const mt = reads.reduce((a, r) => a + (r.at - t0), 0) / n;
  const mc = reads.reduce((a, r) => a + r.count, 0) / n;
  let stt = 0, stc = 0;
  for (const r of reads) {
    stt += (r.at - t0 - mt) ** 2;
    stc += (r.at - t0 - mt) * (r.count - mc);
  }
  const slope = stt > 0 ? stc / stt : 0;
  return reads.reduce((a, r) => a + (r.count - mc - slope * (r.at - t0 - mt)) ** 2, 0);
}

/**
 * What the holder's reads say of a group the snapshots could not settle, at the leak level `z`:
 * `grew` (it went on gaining members: a leak), `stopped` (it did not, and a pause between bursts is
 * unlikely given the kept counts so far and the silent intervals read), `unsure` otherwise.
 */
export function holderVerdict(reads: readonly HolderRead[], kept: readonly number[], z: number, zRuledOut: number): HolderVerdict {
  const trend = holderTrend(reads);
  if (!trend) return 'unsure';
  if (trend.z >= z) return 'grew';
  if (trend.z >= zRuledOut) return 'unsure';
  // A floor's step within the reads' own noise is no arrival; the step out of the start is catching up.
  const noise = zRuledOut * trend.se;
  const steps = trend.floors.slice(2).map((f, k) => (f - trend.floors[k + 1]! > noise ? f - trend.floors[k + 1]! : 0));
  return mayBePause([...kept, ...steps], zRuledOut) ? 'unsure' : 'stopped';
}

/** The evidence line of a group the reads settled. */
export function holderReadText(h: HolderReads, verdict: HolderVerdict): string {
  const trend = holderTrend(h.reads);
  const floors = trend ? trend.floors.join(' → ') : '?';
  const intervals = trend ? trend.floors.length - 1 : 0;
  const said = verdict === 'grew' ? 'it went on growing' : verdict === 'stopped' ? 'it stopped growing' : 'not settled';
  return `after the last snapshot, ${h.className} @${h.holderId} held ${floors} members at the fewest over ${intervals} more interval(s), read without a snapshot (gain ${trend?.gain ?? 0} from the first interval's, z = ${(trend?.z ?? 0).toFixed(1)}): ${said}`;
}

/** The z the reads must reach for `grew`, from the diagnosis's false-alarm level (one test per holder read). */
export function holderZ(falseAlarm: number, holders: number): number {
  return normalQuantile(1 - falseAlarm / Math.max(1, holders));
}
