// Lasting distances: the distances the chains we print and the path signatures follow. DevTools'
// distances (distances.ts) are kept for every number we show; these differ only where DevTools' shortest
// path goes through a holder that does not keep the object alive for long, and they give every node a
// chain, even one nothing links to the root.
//
// Tiers, each a BFS over the same edges as distances.ts (EDGE_DISTANCE, WeakMap pairs), each at
// distances above every distance of the tiers before it (tier × SYSTEM_DISTANCE_BASE), so a walk that
// takes the retainer with the smallest distance always prefers a holder of an earlier tier:
//   0, 1  DevTools' two passes (user roots, then V8's roots), except that transient roots and bookkeeping
//         holders (holder-tiers.ts) get a distance but are not expanded;
//   2     from the transient roots ((Stack roots), (Handle scope), …): what only running code holds;
//   3     from the bookkeeping holders (Node / CleanupQueue): what only Node's teardown list names;
//   4     what no path from the root reaches (DevTools' distance "-"): from each unreached node that no
//         other unreached node holds (a detached native object, an object only weakly held), then from
//         any node still unreached (an island of objects holding one another), in ordinal order.
// Invariant: every node gets a distance; a node other than the root and the tier-4 starting points has
// a retainer (over an EDGE_DISTANCE edge) with a smaller distance.
// Cost: one BFS over the graph, as distances.ts; computed only when a chain or signature needs it.

import type { HeapGraph } from '../snapshot/heap-graph.js';
import { DistanceSearch, SYSTEM_DISTANCE_BASE, UNREACHABLE_DISTANCE } from './distances.js';
import { EDGE_DISTANCE } from './essential-edges.js';
import { TIER_TRANSIENT, TIER_UNROOTED } from './holder-tiers.js';
import { slotBits, type RetainerIndex } from './retainer-index.js';
import { Scratch } from './scratch.js';
import { isUserRoot } from './user-roots.js';

/** The tier of a lasting distance (see the header). */
export function tierOfDistance(distance: number): number {
  return Math.min(TIER_UNROOTED, Math.floor(distance / SYSTEM_DISTANCE_BASE));
}

/**
 * `holderTiers`: the transient roots and bookkeeping holders with their tier (holder-tiers.ts).
 * The result is kept by the caller: taken from the pool (a temporary's buffer given back, not fresh
 * memory beside the graph) and never given back.
 */
export function computeLastingDistances(
  graph: HeapGraph,
  mask: Uint8Array,
  retainers: RetainerIndex,
  holderTiers: ReadonlyMap<number, number>,
  scratch: Scratch = new Scratch(),
): Uint32Array {
  const { nodeCount, firstEdge, edgeTarget, rootOrdinal } = graph;
  const distances = scratch.u32(nodeCount).fill(UNREACHABLE_DISTANCE);
  const queue = scratch.u32(nodeCount);
  const hold = scratch.u8(nodeCount);
  for (const [n, tier] of holderTiers) hold[n] = tier;
  const held: number[] = [];
  const bfs = new DistanceSearch(graph, mask, distances, queue, hold, held);
  bfs.level = 1;
  // Tiers 0 and 1: DevTools' passes, holding back what holder-tiers.ts names.
  let tail = 0;
  for (let e = firstEdge[rootOrdinal]!, end = firstEdge[rootOrdinal + 1]!; e < end; e++) {
    const to = edgeTarget[e]!;
    if (distances[to] === UNREACHABLE_DISTANCE && isUserRoot(graph, to)) {
      distances[to] = 1;
      if (hold[to]! > bfs.level) held.push(to);
      else queue[tail++] = to;
    }
  }
  bfs.run(tail);
  distances[rootOrdinal] = tail > 0 ? SYSTEM_DISTANCE_BASE : 0;
  queue[0] = rootOrdinal;
  bfs.run(1);
  // Tiers 2 and 3: each held-back holder starts its tier; a holder of a later tier met on the way waits.
  for (let tier = TIER_TRANSIENT; tier < TIER_UNROOTED; tier++) {
    bfs.level = tier;
    tail = 0;
    for (let i = 0; i < held.length; i++) {
      const n = held[i]!;
      if (hold[n] !== tier) continue;
      distances[n] = tier * SYSTEM_DISTANCE_BASE;
      queue[tail++] = n;
    }
    bfs.run(tail);
  }
  scratch.give(hold);
  reachUnrooted(distances, retainers, bfs, queue, nodeCount);
  scratch.give(queue);
  return distances;
}

/** Tier 4: from the tops of what is still unreached, then from whatever is left, in ordinal order. */
function reachUnrooted(distances: Uint32Array, retainers: RetainerIndex, bfs: DistanceSearch, queue: Uint32Array, nodeCount: number): void {
  const base = TIER_UNROOTED * SYSTEM_DISTANCE_BASE;
  const { firstRetainer, retainingNode, retainingBits } = retainers;
  bfs.level = TIER_UNROOTED;
  let tail = 0;
  for (let n = 0; n < nodeCount; n++) {
    if (distances[n] !== UNREACHABLE_DISTANCE) continue;
    let heldByUnreached = false;
    for (let s = firstRetainer[n]!, end = firstRetainer[n + 1]!; s < end && !heldByUnreached; s++) {
      const u = retainingNode[s]!;
      heldByUnreached = u !== n && distances[u] === UNREACHABLE_DISTANCE && (slotBits(retainingBits, s) & EDGE_DISTANCE) !== 0;
    }
    if (!heldByUnreached) queue[tail++] = n;
  }
  for (let i = 0; i < tail; i++) distances[queue[i]!] = base;
  if (tail > 0) bfs.run(tail);
  for (let n = 0; n < nodeCount; n++) {
    if (distances[n] !== UNREACHABLE_DISTANCE) continue;
    distances[n] = base;
    queue[0] = n;
    bfs.run(1);
  }
}
