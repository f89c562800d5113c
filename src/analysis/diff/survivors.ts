// Survivors: objects of the newest snapshot born after the first one (V8 id above the first snapshot's
// largest) and still alive. Grouped by retainer-path signature (path-signatures.ts: the class of the
// object, then the shortest chain to the root, lasting holders first, indices folded), so one
// per-request leak is one group, and every member of a group has the class the signature starts with.
// Objects no path from the root reaches (held by a detached native object, DevTools' distance "-") are
// in the snapshot, so they are survivors too, grouped by the chain up to what holds them; `heldBy` says
// which kind of holder a group's chain has to go through.
//
// A group's retained size is the size of the union of what its members retain: a member dominated by
// another member of the same group (a linked list, a tree of one class) adds nothing of its own.
// perSnapshot[k] counts the members that already existed at snapshot k (id at or below its largest
// id; alive at both ends means alive in between), which is the group's growth curve.

import type { HeapAnalysis } from '../heap-analysis.js';
import { externalByGroup, unionRetainedByGroup } from '../group-retained.js';
import { plumbingOf, type Plumbing } from '../context-plumbing.js';
import type { HoldKind } from '../holder-tiers.js';
import type { RetainerPaths } from '../retainer-paths.js';
import type { PathSignatures } from '../path-signatures.js';
import type { GroupAllocation } from './group-allocation.js';
import { allocationOfGroups } from './survivor-sites.js';

export interface SurvivorGroupData {
  readonly signature: number;
  readonly count: number;
  readonly selfSize: number;
  readonly retainedSize: number;
  /** Of the retained size, ArrayBuffer backing stores (bytes outside the JS heap). */
  readonly externalSize: number;
  /** Members present at each snapshot of the series (the first is always 0). */
  readonly perSnapshot: readonly number[];
  /** The member with the largest retained size: its chain represents the group. */
  readonly representative: number;
  /** The kind of holder the group's chain goes through (the same for every member: one signature). */
  readonly heldBy: HoldKind;
  /** Set when the members are Node's async-context plumbing (context-plumbing.ts), not the leak itself. */
  readonly plumbing?: Plumbing;
  /** Where the members (or the holder that keeps them) were made: snapshots taken while allocations were tracked. */
  readonly allocation?: GroupAllocation;
}

export interface SurvivorData {
  readonly count: number;
  readonly selfSize: number;
  readonly groups: readonly SurvivorGroupData[];
}


export function groupSurvivors(
  analysis: HeapAnalysis,
  paths: RetainerPaths,
  signatures: PathSignatures,
  maxIds: readonly number[],
): SurvivorData {
  const { graph } = analysis;
  const { nodeId, nodeCount } = graph;
  const selfSizes = analysis.selfSizes;
  const retained = analysis.retainedSizes;
  const bornAfter = maxIds[0]!;
  // From the pool (scratch.ts) and given back: a per-node array beside the newest graph at the diff's peak.
  const pooled = analysis.scratch.u32(nodeCount, { anySize: true });
  const groupOf = new Int32Array(pooled.buffer, pooled.byteOffset, nodeCount).fill(-1);
  const bySignature = new Map<number, number>();
  const sig: number[] = [], count: number[] = [], self: number[] = [], rep: number[] = [];
  const perSnapshot: number[][] = [];
  let total = 0, totalSelf = 0;
  const { native, synthetic } = graph.nodeTypes;
  const { nodeType } = graph;
  for (let n = 0; n < nodeCount; n++) {
    if (nodeId[n]! <= bornAfter || selfSizes[n] === 0) continue;
    // Embedder and synthetic ids are not handed out in order: "born after" means nothing for them.
    if (nodeType[n] === native || nodeType[n] === synthetic) continue;
    const s = signatures.signatureOf(n);
    let g = bySignature.get(s);
    if (g === undefined) {
      g = sig.push(s) - 1;
      bySignature.set(s, g);
      count.push(0); self.push(0); rep.push(n);
      perSnapshot.push(new Array<number>(maxIds.length).fill(0));
    }
    groupOf[n] = g;
    count[g]!++;
    self[g]! += selfSizes[n]!;
    total++;
    totalSelf += selfSizes[n]!;
    if (retained[n]! > retained[rep[g]!]!) rep[g] = n;
    const curve = perSnapshot[g]!;
    for (let k = 1; k < maxIds.length; k++) if (nodeId[n]! <= maxIds[k]!) curve[k]!++;
  }
  const kept = unionRetainedByGroup(analysis, groupOf, sig.length);
  const external = externalByGroup(analysis, groupOf, sig.length);
  const sites = allocationOfGroups(analysis, paths, groupOf, sig.length, bornAfter);
  analysis.scratch.give(pooled);
  const groups = sig.map((s, g): SurvivorGroupData => {
    const plumbing = plumbingOf(analysis, paths, rep[g]!);
    return {
      signature: s,
      count: count[g]!,
      selfSize: self[g]!,
      retainedSize: kept[g]!,
      externalSize: external[g]!,
      perSnapshot: perSnapshot[g]!,
      representative: rep[g]!,
      heldBy: paths.holdOf(rep[g]!),
      ...(plumbing ? { plumbing } : {}),
      ...(sites?.[g] ? { allocation: sites[g]! } : {}),
    };
  });
  groups.sort((a, b) => b.retainedSize - a.retainedSize || b.count - a.count);
  return { count: total, selfSize: totalSelf, groups };
}

