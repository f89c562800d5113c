// The survivors of a warm-up / N / N snapshot series, grouped by retainer path, with their growth
// curves: the survivor half of `leakhunt diff` (analysis/diff/survivors.ts, path signatures, chains
// labelled by src/diagnose), without the per-class tables of the earlier snapshots. Only the newest
// snapshot is parsed and analysed; of the earlier ones the survivor curves need only the largest
// object id (the "born after" lines: an object of S3 with an id at or below S1's largest existed at
// S1), which max-node-id.ts reads off their chunks as they stream by, so they are never written or
// parsed. The result equals diffSnapshotFiles' survivors (test/testing/survivor-curves.test.ts) for a
// third of its CPU time (measured on a 35k-node test heap, warm: ~110 ms against ~350 ms). Chains
// are described only when asked for (a group that grew): most groups are a few warm-up objects.

import type { GroupAllocation } from '../analysis/diff/group-allocation.js';
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
  /** Where the members (or their holder) were made, when the snapshots were taken while tracking allocations. */
  readonly allocation?: GroupAllocation;
}

export interface SurvivorSeries {
  /** The largest V8 object id of each snapshot, oldest first. */
  readonly maxIds: readonly number[];
  readonly nodeCount: number;
  readonly groups: readonly SurvivorCurve[];
}

/**
 * Survivor groups of a series of snapshots of this thread, largest retained size first: `earlierMaxIds`
 * are the largest object ids of the earlier snapshots (oldest first), `lastFile` the newest snapshot.
 */
export async function survivorCurves(earlierMaxIds: readonly number[], lastFile: string): Promise<SurvivorSeries> {
  const analysis = new HeapAnalysis(await parseSnapshotFile(lastFile));
  const maxIds = [...earlierMaxIds, maxHeapObjectId(analysis)];
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
      ...(g.allocation ? { allocation: g.allocation } : {}),
    };
  });
  return { maxIds, nodeCount: analysis.graph.nodeCount, groups };
}
