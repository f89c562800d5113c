// Reverse edges (who holds whom) in CSR form, for dominators and retainer paths. Compact on purpose:
// per retaining edge, the holder's ordinal and the two mask bits that walks over retainers read
// (EDGE_RETAINS, EDGE_DISTANCE; 2 bits, packed four to a byte): 4.25 bytes, not the edge index;
// weak edges (mask 0) are left out entirely, since nothing that walks retainers follows them. The rare
// caller that needs the edge itself (a printed chain hop) finds it with retainingEdgeOf.
// Built in two passes over the edges, like DevTools' buildRetainers.

import { byteBuffer } from '../snapshot/buffers.js';
import type { HeapGraph } from '../snapshot/heap-graph.js';
import { EDGE_DISTANCE, EDGE_RETAINS } from './essential-edges.js';
import { Scratch } from './scratch.js';

export interface RetainerIndex {
  /** Retainers of node n are slots firstRetainer[n] .. firstRetainer[n + 1] - 1. */
  readonly firstRetainer: Uint32Array;
  /** The holder of each slot. */
  readonly retainingNode: Uint32Array;
  /**
   * EDGE_RETAINS and EDGE_DISTANCE (essential-edges.ts) of the edge behind each slot, 2 bits a slot,
   * slot k in bits 2(k % 4) and up of byte k / 4: read them with slotBits. (An edge with only
   * EDGE_EPHEMERON has a slot with 0 here; no walk follows it.)
   */
  readonly retainingBits: Uint8Array;
}

/** Bits of the retainer index's slot bits (as in the edge mask). */
export const SLOT_BITS = EDGE_RETAINS | EDGE_DISTANCE;

/** EDGE_RETAINS | EDGE_DISTANCE as far as set for the edge behind `slot`. */
export function slotBits(retainingBits: Uint8Array, slot: number): number {
  return (retainingBits[slot >>> 2]! >>> ((slot & 3) << 1)) & SLOT_BITS;
}

/** What building the index reads of the graph (all a worker thread is given: parallel-dominators.ts). */
export type RetainerSource = Pick<HeapGraph, 'nodeCount' | 'firstEdge' | 'edgeTarget'>;

/** `shared`: the index on SharedArrayBuffers, for a worker to hand back. */
export function buildRetainerIndex(graph: RetainerSource, mask: Uint8Array, scratch: Scratch = new Scratch(), shared = false): RetainerIndex {
  const { nodeCount, firstEdge, edgeTarget } = graph;
  const firstRetainer = new Uint32Array(byteBuffer(4 * (nodeCount + 1), shared));
  let kept = 0;
  for (let e = 0; e < mask.length; e++) {
    if (mask[e] === 0) continue;
    firstRetainer[edgeTarget[e]!]!++;
    kept++;
  }
  let sum = 0;
  for (let n = 0; n < nodeCount; n++) {
    const c = firstRetainer[n]!;
    firstRetainer[n] = sum;
    sum += c;
  }
  firstRetainer[nodeCount] = sum;
  const cursor = scratch.u32(nodeCount);
  cursor.set(firstRetainer.subarray(0, nodeCount));
  const retainingNode = new Uint32Array(byteBuffer(4 * kept, shared));
  const retainingBits = new Uint8Array(byteBuffer(Math.ceil(kept / 4), shared));
  for (let n = 0; n < nodeCount; n++) {
    const end = firstEdge[n + 1]!;
    for (let e = firstEdge[n]!; e < end; e++) {
      const bits = mask[e]!;
      if (bits === 0) continue;
      const slot = cursor[edgeTarget[e]!]!++;
      retainingNode[slot] = n;
      retainingBits[slot >>> 2] |= (bits & SLOT_BITS) << ((slot & 3) << 1);
    }
  }
  scratch.give(cursor);
  return { firstRetainer, retainingNode, retainingBits };
}

/**
 * The edge behind retainer slot `slot` of node `v`: slots of one holder are in its edge order, so the
 * slot's rank among that holder's slots picks the matching edge of the holder.
 */
export function retainingEdgeOf(graph: HeapGraph, mask: Uint8Array, index: RetainerIndex, v: number, slot: number): number {
  const { firstRetainer, retainingNode } = index;
  const u = retainingNode[slot]!;
  let rank = 0;
  for (let s = firstRetainer[v]!; s < slot; s++) if (retainingNode[s] === u) rank++;
  const { firstEdge, edgeTarget } = graph;
  for (let e = firstEdge[u]!, end = firstEdge[u + 1]!; e < end; e++) {
    if (edgeTarget[e] !== v || mask[e] === 0) continue;
    if (rank-- === 0) return e;
  }
  return -1;
}

/**
 * retainingEdgeOf for many nodes at once: per node v, out[v] = the edge behind retainer slot slotOf[v]
 * (-1 where that is negative), in one pass over the edges that numbers the slots as buildRetainerIndex did. One
 * lookup scans its holder's edges up to the one wanted, so asking it for every element of a large array
 * costs the square of its length; this pass costs the edges once.
 * `out` is its own cursor (no per-node temporary beside it: this runs at a diff's peak): v's next slot
 * while it is ≥ 0, then -2 - the edge once found, turned into the edge (or -1) at the end. Edge indexes
 * are below 2^31, as in any Int32Array `out`.
 */
export function retainingEdgesOf(graph: HeapGraph, mask: Uint8Array, index: RetainerIndex, slotOf: Int32Array, out: Int32Array): void {
  const { nodeCount, firstEdge, edgeTarget } = graph;
  out.set(index.firstRetainer.subarray(0, nodeCount));
  for (let u = 0; u < nodeCount; u++) {
    for (let e = firstEdge[u]!, end = firstEdge[u + 1]!; e < end; e++) {
      if (mask[e] === 0) continue;
      const v = edgeTarget[e]!;
      const slot = out[v]!;
      if (slot < 0) continue;
      out[v] = slot === slotOf[v] ? -2 - e : slot + 1;
    }
  }
  for (let v = 0; v < nodeCount; v++) {
    const found = out[v]!;
    out[v] = found <= -2 ? -2 - found : -1;
  }
}
