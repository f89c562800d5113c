// Distances: the number of hops from the root, as the DevTools "Distance" column shows them
// (HeapSnapshot.calculateDistances + JSHeapSnapshot's filter, Chrome DevTools HeapSnapshot.ts).
//
// - First a BFS from the *user roots* (see user-roots.ts), each at distance 1.
// - Then the root gets SYSTEM_DISTANCE_BASE (0 when there are no user roots, e.g. an "expose internals"
//   snapshot) and a second BFS from it reaches what only V8's own roots hold, at BASE + hops.
// - Edges followed: those with EDGE_DISTANCE (essential-edges.ts). The two edges of a WeakMap entry are
//   paired: the first one met while the value is still unreached is skipped, the second is taken, so
//   the value's distance comes from the later of key and table (crbug.com/1290800).
// Invariant: every node reached has a distance < UNREACHABLE_DISTANCE; a parent is at most one less.
// Deliberate difference: DevTools stores -5 (`noDistance`) in an Int32Array for unreachable nodes;
// we use an unsigned array and UNREACHABLE_DISTANCE (0xffffffff), so unreachable sorts last.

import type { HeapGraph } from '../snapshot/heap-graph.js';
import { EDGE_DISTANCE, EDGE_EPHEMERON } from './essential-edges.js';
import { EphemeronNameCache } from './ephemeron-edges.js';
import { Scratch } from './scratch.js';
import { isUserRoot } from './user-roots.js';

export const UNREACHABLE_DISTANCE = 0xffffffff;
/** DevTools' baseSystemDistance: added to the distance of everything only V8's own roots reach. */
export const SYSTEM_DISTANCE_BASE = 100_000_000;

export function computeDistances(graph: HeapGraph, mask: Uint8Array, scratch: Scratch = new Scratch()): Uint32Array {
  const { nodeCount, firstEdge, edgeTarget, rootOrdinal } = graph;
  const distances = scratch.u32(nodeCount).fill(UNREACHABLE_DISTANCE);
  const queue = scratch.u32(nodeCount);
  const bfs = new DistanceSearch(graph, mask, distances, queue);
  let tail = 0;
  for (let e = firstEdge[rootOrdinal]!, end = firstEdge[rootOrdinal + 1]!; e < end; e++) {
    const to = edgeTarget[e]!;
    if (distances[to] === UNREACHABLE_DISTANCE && isUserRoot(graph, to)) {
      distances[to] = 1;
      queue[tail++] = to;
    }
  }
  bfs.run(tail);
  distances[rootOrdinal] = tail > 0 ? SYSTEM_DISTANCE_BASE : 0;
  queue[0] = rootOrdinal;
  bfs.run(1);
  scratch.give(queue);
  return distances;
}

/**
 * One BFS engine for both passes; the ephemeron pairing state carries over between them, as in DevTools.
 * With `hold` (lasting-distances.ts only; the DevTools distances never pass one): a node whose tier in
 * `hold` is above `level` gets its distance but is not expanded; it is appended to `held` instead.
 */
export class DistanceSearch {
  readonly #graph: HeapGraph;
  readonly #mask: Uint8Array;
  readonly #distances: Uint32Array;
  readonly #queue: Uint32Array;
  readonly #names: EphemeronNameCache;
  readonly #pending = new Set<string>();
  readonly #hold: Uint8Array | undefined;
  readonly #held: number[];
  /** Nodes whose tier in `hold` is above this are held back. */
  level = 0;

  constructor(graph: HeapGraph, mask: Uint8Array, distances: Uint32Array, queue: Uint32Array, hold?: Uint8Array, held: number[] = []) {
    this.#graph = graph;
    this.#mask = mask;
    this.#distances = distances;
    this.#queue = queue;
    this.#names = new EphemeronNameCache(graph);
    this.#hold = hold;
    this.#held = held;
  }

  /** BFS over queue[0..tail); distances of the queued nodes are already set. */
  run(tail: number): void {
    const { firstEdge, edgeTarget } = this.#graph;
    const mask = this.#mask;
    const distances = this.#distances;
    const queue = this.#queue;
    const hold = this.#hold;
    let head = 0;
    while (head < tail) {
      const n = queue[head++]!;
      const d = distances[n]! + 1;
      for (let e = firstEdge[n]!, end = firstEdge[n + 1]!; e < end; e++) {
        const bits = mask[e]!;
        if ((bits & EDGE_DISTANCE) === 0) continue;
        const to = edgeTarget[e]!;
        if (distances[to] !== UNREACHABLE_DISTANCE) continue;
        if ((bits & EDGE_EPHEMERON) !== 0 && this.#skipFirstOfPair(e)) continue;
        distances[to] = d;
        if (hold !== undefined && hold[to]! > this.level) this.#held.push(to);
        else queue[tail++] = to;
      }
    }
  }

  #skipFirstOfPair(edge: number): boolean {
    const key = this.#names.get(this.#graph.edgeNameOrIndex[edge]!)!.pairKey;
    if (this.#pending.delete(key)) return false;
    this.#pending.add(key);
    return true;
  }
}
