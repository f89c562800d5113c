// The signature rows of a diff without ids: per retainer-path signature (by text), the live objects and
// their self size in every snapshot, for the signatures whose count rose from the first snapshot to the
// last; each with what its objects retain together in the newest snapshot and the chain of its largest
// member on the path most of them take there (describeChain, as the survivor groups of an id diff).
//
// Each row also says how many objects of its class the class's other paths lost over the series
// (lostElsewhere): across processes, or sessions of one, the shortest path to an object with several
// holders may take another one, and objects then move between paths of one class without being new.
//
// Rows are ranked by growth: those that rose in every interval first, then by self-size growth. Only the
// counts are compared: a row whose members are all replaced between snapshots keeps its count, and
// objects born and dead within an interval are not seen (docs/diff-modes.md).

import { externalByGroup, unionRetainedByGroup } from '../group-retained.js';
import { describeChain, type ChainHop, type ChainLabeler } from '../chain-description.js';
import { hopName } from '../path-signatures.js';
import { grewEveryInterval } from './growth-curve.js';
import { seriesSignatureOf, type SignatureCounts, type SignatureIndex, type SignatureTexts } from './signature-counts.js';

export interface SignatureGroup {
  readonly signature: string;
  /** The class of the objects at the end of the path. */
  readonly className: string;
  /** Live objects along this path in each snapshot of the series. */
  readonly counts: readonly number[];
  /** Their self sizes, per snapshot. */
  readonly sizes: readonly number[];
  readonly countDelta: number;
  readonly sizeDelta: number;
  /** Count change per interval, on average. */
  readonly growthPerInterval: number;
  /** With three or more snapshots: the count rose in every interval; otherwise null. */
  readonly grewEveryInterval: boolean | null;
  /** In the newest snapshot: the size of what the group's objects retain together (members under another member count once). */
  readonly retainedSize: number;
  /** Of that, ArrayBuffer backing stores (memory outside the JS heap). */
  readonly externalSize: number;
  /** In the newest snapshot, the chain of the largest member on the whole path most members take, object first. */
  readonly chain: readonly ChainHop[];
  /**
   * Objects of its class that its class's other paths lost from the first snapshot to the last: at most
   * this many of the group's gain may be objects that only moved to this path (another holder taken).
   * Plain objects' `{a, b}` names are compared with their properties sorted (signature-counts sameClass).
   */
  readonly lostElsewhere: number;
}

export interface SignatureSeries {
  /** Distinct signatures seen over the series. */
  readonly signatureCount: number;
  /** Signatures whose count rose from the first snapshot to the last (the groups are the top of them). */
  readonly grownCount: number;
  readonly groups: readonly SignatureGroup[];
}


interface Row {
  readonly id: number;
  readonly counts: number[];
  readonly sizes: number[];
  readonly every: boolean | null;
}

export function describeSignatureSeries(
  series: readonly SignatureCounts[],
  texts: SignatureTexts,
  newest: SignatureIndex,
  limit: number,
  labeler?: ChainLabeler,
): SignatureSeries {
  const intervals = series.length - 1;
  const grown: Row[] = [];
  const lost = new Map<string, number>();
  for (let id = 0; id < texts.texts.length; id++) {
    const counts = series.map((c) => c.count[id] ?? 0);
    const loss = counts[0]! - counts[intervals]!;
    if (loss > 0) lost.set(texts.classes[id]!, (lost.get(texts.classes[id]!) ?? 0) + loss);
    if (!(counts[intervals]! > counts[0]!)) continue;
    grown.push({ id, counts, sizes: series.map((c) => c.size[id] ?? 0), every: grewEveryInterval(counts) });
  }
  const sizeDelta = (r: Row): number => r.sizes[intervals]! - r.sizes[0]!;
  grown.sort((a, b) =>
    Number(b.every === true) - Number(a.every === true) || sizeDelta(b) - sizeDelta(a)
    || (b.counts[intervals]! - b.counts[0]!) - (a.counts[intervals]! - a.counts[0]!)
    || (texts.texts[a.id]! < texts.texts[b.id]! ? -1 : 1));
  const shown = grown.slice(0, limit);
  const members = membersInNewest(newest, shown.map((r) => r.id));
  const { analysis, paths } = newest;
  const groups = shown.map((r, g): SignatureGroup => {
    const countDelta = r.counts[intervals]! - r.counts[0]!;
    const representative = members.representative[g]!;
    return {
      signature: texts.texts[r.id]!,
      className: hopName(analysis, representative),
      counts: r.counts,
      sizes: r.sizes,
      countDelta,
      sizeDelta: sizeDelta(r),
      growthPerInterval: intervals > 0 ? countDelta / intervals : 0,
      grewEveryInterval: r.every,
      retainedSize: members.retainedSize[g]!,
      externalSize: members.externalSize[g]!,
      chain: describeChain(analysis, paths.shortestPath(representative), false, labeler),
      lostElsewhere: lost.get(texts.classes[r.id]!) ?? 0,
    };
  });
  return { signatureCount: texts.texts.length, grownCount: grown.length, groups };
}

/**
 * For each wanted signature (series ids, in group order): its representative in the newest graph, what
 * its members retain together, and how much of that is ArrayBuffer backing stores. A row that grew has
 * members in the newest snapshot. The representative is the largest member on the whole path (graph
 * signature) most of the row's members take: a row's key stops at the first shared holder, so one row
 * can hold objects of several containers (closures in the listener arrays of two emitters), and the
 * chain shown must be where most of them are.
 */
function membersInNewest(index: SignatureIndex, wanted: readonly number[]): { representative: Int32Array; retainedSize: Float64Array; externalSize: Float64Array } {
  const { analysis, signatures } = index;
  const { nodeCount } = analysis.graph;
  const retained = analysis.retainedSizes;
  const groupOfSeries = new Int32Array(wanted.reduce((max, id) => Math.max(max, id + 1), 0)).fill(-1);
  wanted.forEach((id, g) => (groupOfSeries[id] = g));
  // Per row: per whole path, its members and its largest one (one entry per path, none per object).
  const paths = wanted.map(() => new Map<number, { members: number; largest: number }>());
  // From the pool (scratch.ts) and given back: a per-node array beside the newest graph at the diff's peak.
  const pooled = analysis.scratch.u32(nodeCount, { anySize: true });
  const groupOf = new Int32Array(pooled.buffer, pooled.byteOffset, nodeCount).fill(-1);
  for (let n = 0; n < nodeCount; n++) {
    const id = seriesSignatureOf(index, n);
    const g = id < 0 || id >= groupOfSeries.length ? -1 : groupOfSeries[id]!;
    if (g < 0) continue;
    groupOf[n] = g;
    const path = signatures.signatureOf(n);
    const seen = paths[g]!.get(path);
    if (!seen) paths[g]!.set(path, { members: 1, largest: n });
    else {
      seen.members++;
      if (retained[n]! > retained[seen.largest]!) seen.largest = n;
    }
  }
  const representative = Int32Array.from(paths, (byPath) => {
    let best: { members: number; largest: number } | undefined;
    for (const p of byPath.values()) {
      if (!best || p.members > best.members || (p.members === best.members && retained[p.largest]! > retained[best.largest]!)) best = p;
    }
    return best?.largest ?? -1;
  });
  const retainedSize = unionRetainedByGroup(analysis, groupOf, wanted.length);
  const externalSize = externalByGroup(analysis, groupOf, wanted.length);
  analysis.scratch.give(pooled);
  return { representative, retainedSize, externalSize };
}
