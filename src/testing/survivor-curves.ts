// The survivors of a warm-up / N / N snapshot series, grouped by retainer path, with their growth
// curves: the survivor half of `leakhunt diff` (analysis/diff/survivors.ts, path signatures, chains
// labelled by src/diagnose), without the per-class tables of the earlier snapshots. Only the newest
// snapshot is analysed; the earlier two are parsed for their largest object id alone (the "born
// after" lines), which is what the survivor curves need: an object of S3 with an id at or below S1's
// largest existed at S1, and so on. That halves the time of a check (measured: 3 × 98k nodes, 5.1 s
// for diffSnapshotFiles against 2.6 s here, on a loaded 2-core machine), and the result is the same
// (test/testing/survivor-curves.test.ts compares the two on real snapshots).
// Chains are described only when asked for (a group that grew), since most groups are a handful of
// warm-up objects.

import { describeChain, type ChainHop } from '../analysis/chain-description.js';
import { maxHeapObjectId } from '../analysis/diff/id-table.js';
import { groupSurvivors } from '../analysis/diff/survivors.js';
import { HeapAnalysis } from '../analysis/heap-analysis.js';
import { PathSignatures } from '../analysis/path-signatures.js';
import { RetainerPaths } from '../analysis/retainer-paths.js';
import { labelChain } from '../diagnose/chain-labels.js';
import { parseSnapshotFile } from '../snapshot/parse.js';

export interface SurvivorCurve {
  readonly className: string;
  readonly signature: string;
  /** Survivors at the newest snapshot. */
  readonly count: number;
  /** Members present at each snapshot (the first is always 0). */
  readonly counts: readonly number[];
  /** Size of the union of what the members retain. */
  readonly retainedSize: number;
  /** The chain of the member that retains most, object first, labelled; computed on first call. */
  chain(): readonly ChainHop[];
}

export interface SurvivorSeries {
  /** The largest V8 object id of each snapshot, oldest first. */
  readonly maxIds: readonly number[];
  readonly nodeCount: number;
  readonly groups: readonly SurvivorCurve[];
}

/** Parsed in a function of its own, so the graph is garbage before the next file is read. */
async function largestId(file: string): Promise<number> {
  return maxHeapObjectId(new HeapAnalysis(await parseSnapshotFile(file)));
}

/** Survivor groups of `files` (snapshots of this thread, oldest first), largest retained size first. */
export async function survivorCurves(files: readonly string[]): Promise<SurvivorSeries> {
  const maxIds: number[] = [];
  for (const file of files.slice(0, -1)) maxIds.push(await largestId(file));
  const analysis = new HeapAnalysis(await parseSnapshotFile(files[files.length - 1]!));
  maxIds.push(maxHeapObjectId(analysis));
  for (let k = 1; k < maxIds.length; k++) {
    if (!(maxIds[k]! > maxIds[k - 1]!)) {
      // V8 numbers objects in the order snapshots first see them: a later snapshot of one thread
      // always has a larger id. Anything else means these are not snapshots of one heap.
      throw new Error(`the snapshots' object ids do not grow (${maxIds.join(', ')}): they are not a series of one heap`);
    }
  }
  const paths = new RetainerPaths(analysis);
  const signatures = new PathSignatures(analysis, paths);
  const data = groupSurvivors(analysis, paths, signatures, maxIds);
  const last = maxIds.length - 1;
  const groups = data.groups.map((g): SurvivorCurve => {
    let chain: readonly ChainHop[] | undefined;
    return {
      className: analysis.className(g.representative),
      signature: signatures.text(g.signature),
      count: g.count,
      counts: g.perSnapshot.map((c, k) => (k === last ? g.count : c)),
      retainedSize: g.retainedSize,
      chain: () => (chain ??= describeChain(analysis, paths.shortestPath(g.representative), false, labelChain)),
    };
  });
  return { maxIds, nodeCount: analysis.graph.nodeCount, groups };
}
