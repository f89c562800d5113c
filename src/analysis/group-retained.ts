// What a group of objects retains together: the union of its members' retained sets. A member dominated
// by another member of its own group adds nothing of its own (a linked list, a tree of one class, a store
// inside another store's run tree), so a group's size never exceeds the heap. Shared by survivor groups,
// signature groups and one-snapshot suspects; so is the part of it that is ArrayBuffer backing stores.

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

/** V8's name for an ArrayBuffer's backing store (a native node whose size is the buffer's bytes). */
const BACKING_STORE_NAME = 'system / JSArrayBufferData';

/**
 * Per group, the bytes of ArrayBuffer backing stores its members hold (dominate): a store counts for
 * every group with a member above it in the dominator tree, once each (the Buffer, its ArrayBuffer and
 * the record that keeps them). These bytes live outside the JS heap (`external`/`arrayBuffers`).
 */
export function externalByGroup(analysis: HeapAnalysis, groupOf: Int32Array, groups: number): Float64Array {
  const out = new Float64Array(groups);
  const { graph } = analysis;
  const name = graph.strings.indexOf(BACKING_STORE_NAME);
  if (name < 0 || groups === 0) return out;
  const { nodeName, nodeType, nodeCount, rootOrdinal } = graph;
  const native = graph.nodeTypes.native;
  const dominators = analysis.dominators;
  const selfSizes = analysis.selfSizes;
  // The walk stamps each group it has credited with this store: a store counts once per group.
  const stamp = new Int32Array(groups).fill(-1);
  for (let n = 0; n < nodeCount; n++) {
    if (nodeName[n] !== name || nodeType[n] !== native) continue;
    let up = dominators[n]!;
    for (let steps = 0; up !== rootOrdinal && steps < MAX_DOMINATOR_WALK; steps++) {
      const g = groupOf[up]!;
      if (g >= 0 && stamp[g] !== n) {
        stamp[g] = n;
        out[g]! += selfSizes[n]!;
      }
      up = dominators[up]!;
    }
  }
  return out;
}
