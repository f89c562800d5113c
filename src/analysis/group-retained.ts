// What a group of objects retains together: the union of its members' retained sets. A member dominated
// by another member of its own group adds nothing of its own (a linked list, a tree of one class, a store
// inside another store's run tree), so a group's size never exceeds the heap. Shared by survivor groups,
// signature groups and one-snapshot suspects.

import type { HeapAnalysis } from './heap-analysis.js';

/** How far up the dominator tree to look for a same-group ancestor before calling a member top-most. */
export const MAX_DOMINATOR_WALK = 10_000;

/** `groupOf[n]`: the group of node n, or -1. Returns each group's retained size. */
export function unionRetainedByGroup(analysis: HeapAnalysis, groupOf: Int32Array, groups: number): Float64Array {
  const out = new Float64Array(groups);
  const { dominators, retainedSizes } = analysis;
  const root = analysis.graph.rootOrdinal;
  for (let n = 0; n < groupOf.length; n++) {
    const g = groupOf[n]!;
    if (g < 0) continue;
    let up = dominators[n]!;
    let covered = false;
    for (let steps = 0; up !== root && steps < MAX_DOMINATOR_WALK; steps++) {
      if (groupOf[up] === g) {
        covered = true;
        break;
      }
      up = dominators[up]!;
    }
    if (!covered) out[g]! += retainedSizes[n]!;
  }
  return out;
}
