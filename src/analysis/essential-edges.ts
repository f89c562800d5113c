// The one place that decides which edges count, and for what: a per-edge bit mask computed once and read
// by distances, dominators, retained sizes and retainer paths.
//
// Semantics are Chrome DevTools' (front_end/entrypoints/heap_snapshot_worker/HeapSnapshot.ts):
// - EDGE_RETAINS mirrors computeIsEssentialEdge, the edges the dominator tree is built over:
//   not `weak`; not a self edge; `shortcut` only from the root (the root's shortcuts mark user globals,
//   elsewhere they duplicate a real path); not the table→value edge of a WeakMap entry (the value is
//   held by key *and* table; DevTools keeps the key's edge, which gives the more useful dominator);
//   and, except from the root, not an edge from a node outside the page-owned set into it (see
//   markPageOwnedNodes: this keeps `(GC roots)` bookkeeping such as `(Global handles)` from stealing
//   the dominance of objects the program itself holds).
// - EDGE_DISTANCE mirrors what the distance BFS follows (HeapSnapshot.bfs + JSHeapSnapshot's filter):
//   not `weak`; not the `sloppy_function_map` slot of a `system / NativeContext`; not the descriptor
//   links of `(map descriptors)` arrays (index ≥ 2 with index % 3 === 1, crbug.com/413608). Shortcuts,
//   self edges and both ephemeron edges are followed here.
// - EDGE_EPHEMERON marks either edge of a WeakMap entry; the distance BFS pairs them itself.
// Invariant: a weak edge has no bit set. Cost: one pass over the edges plus one over the nodes.

import { byteBuffer } from '../snapshot/buffers.js';
import type { HeapGraph } from '../snapshot/heap-graph.js';
import { EphemeronNameCache } from './ephemeron-edges.js';
import { Scratch } from './scratch.js';
import { isDocumentDomTreesRoot } from './user-roots.js';

export const EDGE_RETAINS = 1;
export const EDGE_DISTANCE = 2;
export const EDGE_EPHEMERON = 4;

const FILTER_NONE = 0;
const FILTER_MAP_DESCRIPTORS = 1;
const FILTER_NATIVE_CONTEXT = 2;

/** `shared`: the mask on a SharedArrayBuffer, for a worker thread to read (parallel-dominators.ts). */
export function computeEssentialEdgeMask(graph: HeapGraph, scratch: Scratch = new Scratch(), shared = false): Uint8Array {
  const { nodeCount, edgeCount, firstEdge, edgeType, edgeTarget, edgeNameOrIndex, nodeId, rootOrdinal } = graph;
  const { weak, internal, shortcut, element, hidden } = graph.edgeTypes;
  const pageOwned = markPageOwnedNodes(graph, scratch);
  const ephemerons = new EphemeronNameCache(graph);
  const filterOfName = new Map<number, number>();
  const mask = new Uint8Array(byteBuffer(edgeCount, shared));
  for (let n = 0; n < nodeCount; n++) {
    const end = firstEdge[n + 1]!;
    const fromRoot = n === rootOrdinal;
    const fromOwned = pageOwned[n]!;
    const filter = distanceFilterOf(graph, n, filterOfName);
    for (let e = firstEdge[n]!; e < end; e++) {
      const t = edgeType[e]!;
      if (t === weak) continue;
      const to = edgeTarget[e]!;
      let bits = EDGE_RETAINS | EDGE_DISTANCE;
      if (t === internal) {
        const eph = ephemerons.get(edgeNameOrIndex[e]!);
        if (eph !== undefined) {
          bits |= EDGE_EPHEMERON;
          if (nodeId[n] === eph.tableId) bits &= ~EDGE_RETAINS;
        }
      }
      if (to === n) bits &= ~EDGE_RETAINS;
      if (!fromRoot && (t === shortcut || (pageOwned[to] === 1 && fromOwned === 0))) bits &= ~EDGE_RETAINS;
      if (filter !== FILTER_NONE && !followedForDistance(graph, filter, e, t === element || t === hidden)) {
        bits &= ~EDGE_DISTANCE;
      }
      mask[e] = bits;
    }
  }
  scratch.give(pageOwned);
  return mask;
}

/**
 * DevTools' markPageOwnedNodes: everything reachable over non-weak edges from the root's `shortcut`
 * targets (the user globals) and from `(Document DOM trees)` when the root links it by an `element` edge.
 * 1 = page-owned. The root itself is not marked unless something page-owned points back at it.
 */
export function markPageOwnedNodes(graph: HeapGraph, scratch: Scratch = new Scratch()): Uint8Array {
  const { nodeCount, firstEdge, edgeType, edgeTarget, rootOrdinal } = graph;
  const { weak, shortcut, element } = graph.edgeTypes;
  const owned = scratch.u8(nodeCount);
  const stack = scratch.u32(nodeCount);
  let top = 0;
  for (let e = firstEdge[rootOrdinal]!, end = firstEdge[rootOrdinal + 1]!; e < end; e++) {
    const t = edgeType[e]!;
    const to = edgeTarget[e]!;
    if (t === shortcut || (t === element && isDocumentDomTreesRoot(graph, to))) {
      if (owned[to] === 0) stack[top++] = to;
      owned[to] = 1;
    }
  }
  while (top > 0) {
    const n = stack[--top]!;
    for (let e = firstEdge[n]!, end = firstEdge[n + 1]!; e < end; e++) {
      const to = edgeTarget[e]!;
      if (owned[to] === 1 || edgeType[e] === weak) continue;
      owned[to] = 1;
      stack[top++] = to;
    }
  }
  scratch.give(stack);
  return owned;
}

function distanceFilterOf(graph: HeapGraph, n: number, cache: Map<number, number>): number {
  const type = graph.nodeType[n];
  const isArray = type === graph.nodeTypes.array;
  if (!isArray && type !== graph.nodeTypes.hidden) return FILTER_NONE;
  const name = graph.nodeName[n]!;
  const key = isArray ? name * 2 : name * 2 + 1;
  let filter = cache.get(key);
  if (filter === undefined) {
    const text = graph.strings.get(name);
    filter = isArray
      ? text === '(map descriptors)' ? FILTER_MAP_DESCRIPTORS : FILTER_NONE
      : text === 'system / NativeContext' ? FILTER_NATIVE_CONTEXT : FILTER_NONE;
    cache.set(key, filter);
  }
  return filter;
}

function followedForDistance(graph: HeapGraph, filter: number, e: number, hasIndex: boolean): boolean {
  const v = graph.edgeNameOrIndex[e]!;
  if (filter === FILTER_NATIVE_CONTEXT) return hasIndex || graph.strings.get(v) !== 'sloppy_function_map';
  // Descriptor array layout: [0] count, [1] enum cache, then (key, details, value) triples from [2];
  // maps may share descriptor arrays, so the per-map links are not real paths. Names are parsed the way
  // DevTools does (parseInt of the shown name), so a non-numeric name is always followed.
  const index = hasIndex ? v : Number.parseInt(graph.strings.get(v), 10);
  return !(index >= 2 && index % 3 === 1);
}
