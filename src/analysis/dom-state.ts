// Which embedder (`native`) nodes DevTools shows as "Detached <name>". Snapshots carry a per-node
// `detachedness` (0 unknown, 1 attached, 2 detached) that Blink, and Node for some of its wrappers,
// fill in; DevTools spreads it to native nodes of unknown state and renames the detached ones, which
// changes their class (semantics of HeapSnapshot.propagateDOMState, Chrome DevTools HeapSnapshot.ts):
// - every node with a known state keeps it; a non-native node never takes or passes on a state;
// - from attached natives, "attached" flows to unknown natives along non-hidden, non-weak edges;
// - then "detached" flows the same way from detached natives to the natives still unknown.
// Both are plain reachability, so the order nodes are visited in does not matter.

import type { HeapGraph } from '../snapshot/heap-graph.js';
import { Scratch } from './scratch.js';

const ATTACHED = 1;
const DETACHED = 2;

/** 1 for each native node shown as "Detached …"; undefined when the snapshot has no such node. */
export function computeDetachedNatives(graph: HeapGraph, scratch: Scratch = new Scratch()): Uint8Array | undefined {
  const state = graph.nodeDetachedness;
  // Node's snapshots carry the field but never set it: nothing to spread, and nothing to allocate.
  if (!state || !hasNativeState(state, graph)) return undefined;
  const { nodeCount, nodeType, firstEdge, edgeType, edgeTarget } = graph;
  const native = graph.nodeTypes.native;
  const { hidden, weak } = graph.edgeTypes;
  const visited = scratch.u8(nodeCount);
  const detached = scratch.u8(nodeCount);
  // Attached seeds fill `work` from the front, detached ones from the back; a node is in one at most.
  const work = scratch.u32(nodeCount);
  let attachedTop = 0;
  let detachedBottom = nodeCount;
  let any = false;
  for (let n = 0; n < nodeCount; n++) {
    const s = state[n]!;
    if (s === 0) continue;
    visited[n] = 1;
    if (nodeType[n] !== native) continue;
    if (s === ATTACHED) work[attachedTop++] = n;
    else if (s === DETACHED) {
      work[--detachedBottom] = n;
      detached[n] = 1;
      any = true;
    }
  }
  // Spread one state from the seeds at work[from..to) (used as a stack growing upwards from `to`).
  const spread = (seedsFrom: number, seedsTo: number, mark: boolean): void => {
    let top = seedsTo;
    while (top > seedsFrom) {
      const n = work[--top]!;
      for (let e = firstEdge[n]!, end = firstEdge[n + 1]!; e < end; e++) {
        const t = edgeType[e];
        if (t === hidden || t === weak) continue;
        const to = edgeTarget[e]!;
        if (visited[to] === 1) continue;
        visited[to] = 1;
        if (nodeType[to] !== native) continue;
        if (mark) {
          detached[to] = 1;
          any = true;
        }
        work[top++] = to;
      }
    }
  };
  spread(0, attachedTop, false);
  // Move the detached seeds to the front so the stack can grow over the space the attached ones used.
  const seeds = nodeCount - detachedBottom;
  work.copyWithin(0, detachedBottom, nodeCount);
  spread(0, seeds, true);
  scratch.give(visited, work);
  if (any) return detached;
  scratch.give(detached);
  return undefined;
}

function hasNativeState(state: Uint8Array, graph: HeapGraph): boolean {
  const native = graph.nodeTypes.native;
  for (let n = 0; n < state.length; n++) if (state[n] !== 0 && graph.nodeType[n] === native) return true;
  return false;
}
