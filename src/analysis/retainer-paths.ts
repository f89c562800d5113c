// Retainer chains: from an object back to the root, over the same edges the distances follow
// (essential-edges.ts, EDGE_DISTANCE: never weak), one hop per retainer, nearest-to-root first as in
// DevTools' Retainers view, which sorts retainers by distance.
//
// - shortestPath(v): at each hop take the retainer with the smallest distance (ties: first in retainer
//   order), so the chain is one of the shortest, and the same one DevTools lists first — as long as that
//   chain is a lasting one. A chain through a per-moment root ((Handle scope), (Stack roots): what code
//   running at snapshot time held) or a bookkeeping holder (Node / CleanupQueue, which names objects
//   without holding them), or none at all (DevTools' distance "-"), is never the representative while a
//   lasting one exists: then every walk follows the lasting distances (lasting-distances.ts), which
//   prefer lasting holders, then transient ones, then bookkeeping, and give the rest a chain up to the
//   top of what holds it (a detached native object), which does not end at the root.
// - preferLasting(): follow the lasting distances for every walk from the start (path signatures do, so
//   one leak is one signature whichever transient root held some of it at the moment).
// - kShortestPaths(v, k): best-first search over partial chains keyed by length + the distance still
//   to go (exact, since distances are BFS distances), so chains come out shortest first; simple paths
//   only, bounded by a node budget so a hub with a million retainers cannot stall it. DevTools' distances,
//   bookkeeping holders skipped.
// The lasting distances cost one BFS; a single chain (analyze's suspects) pays it only when DevTools'
// shortest chain is not a lasting one.
// A chain is an array of hops from the object (first) to the root (last; or the top holder, see above);
// each hop names the edge by which the *next* hop holds it (the last hop has edge -1).

import type { HeapGraph } from '../snapshot/heap-graph.js';
import { EDGE_DISTANCE } from './essential-edges.js';
import { UNREACHABLE_DISTANCE, SYSTEM_DISTANCE_BASE } from './distances.js';
import type { HeapAnalysis } from './heap-analysis.js';
import { findHolderTiers, holdKindOfTier, TIER_BOOKKEEPING, type HoldKind } from './holder-tiers.js';
import { computeLastingDistances, tierOfDistance } from './lasting-distances.js';
import { retainingEdgeOf, slotBits } from './retainer-index.js';

export { BOOKKEEPING_HOLDERS } from './holder-tiers.js';

export interface Hop {
  readonly ordinal: number;
  /** The edge from the next hop to this one; -1 on the last hop (the root). */
  readonly edge: number;
}

export type Chain = readonly Hop[];

const NONE = -1;

export class RetainerPaths {
  readonly #analysis: HeapAnalysis;
  readonly #graph: HeapGraph;
  /** Transient roots and bookkeeping holders, with their tier (holder-tiers.ts; a handful). */
  readonly #holderTiers: ReadonlyMap<number, number>;
  /** Bookkeeping holders: never a hop on DevTools' distances. */
  readonly #excluded: ReadonlySet<number>;
  /** Set once walks follow the lasting distances (lasting-distances.ts). */
  #lasting: Uint32Array | undefined;
  /**
   * Memo: the retaining slot (index into the retainer CSR) on the shortest path, or NONE. A Map, not a
   * per-node array: callers ask about the nodes on a few chains, or the survivors of a diff, never all.
   * Cleared when walks switch to the lasting distances.
   */
  readonly #parentSlot = new Map<number, number>();

  constructor(analysis: HeapAnalysis) {
    this.#analysis = analysis;
    this.#graph = analysis.graph;
    this.#holderTiers = findHolderTiers(this.#graph);
    this.#excluded = new Set([...this.#holderTiers].filter(([, tier]) => tier === TIER_BOOKKEEPING).map(([n]) => n));
  }

  /** Distance of a node from the root as DevTools shows it (user-root BFS first). */
  distance(ordinal: number): number {
    return this.#analysis.distances[ordinal]!;
  }

  /** True when DevTools gives the node a distance (a path from the root over non-weak edges). */
  isReachable(ordinal: number): boolean {
    return this.#analysis.distances[ordinal] !== UNREACHABLE_DISTANCE;
  }

  /** From now on every walk follows the lasting distances (one BFS, once). */
  preferLasting(): void {
    if (this.#lasting !== undefined) return;
    const analysis = this.#analysis;
    this.#lasting = computeLastingDistances(this.#graph, analysis.edgeMask, analysis.retainers, this.#holderTiers, analysis.scratch);
    this.#parentSlot.clear();
  }

  /**
   * What `ordinal`'s chain has to go through: nothing but lasting holders, a transient root, a
   * bookkeeping holder, or no path from the root at all.
   */
  holdOf(ordinal: number): HoldKind {
    this.preferLasting();
    return holdKindOfTier(tierOfDistance(this.#lasting![ordinal]!));
  }

  /** A transient root or a bookkeeping holder (holder-tiers.ts): it holds what it holds only for now, or only to list it. */
  isMomentHolder(ordinal: number): boolean {
    return this.#holderTiers.has(ordinal);
  }

  /** The retainer slot of the shortest-path parent of `ordinal`, or -1 at the root / the top of a chain. */
  parentSlot(ordinal: number): number {
    const memo = this.#parentSlot.get(ordinal);
    if (memo !== undefined) return memo;
    const slot = this.findParentSlot(ordinal);
    this.#parentSlot.set(ordinal, slot);
    return slot;
  }

  /**
   * parentSlot without the memo, for a caller that asks once per node and keeps what it derives
   * (path-signatures.ts keeps a signature per node): a memo entry per node of the heap would cost more
   * than the search.
   */
  findParentSlot(v: number): number {
    const graph = this.#graph;
    if (v === graph.rootOrdinal) return NONE;
    const lasting = this.#lasting;
    const distances = lasting ?? this.#analysis.distances;
    const dv = distances[v]!;
    if (dv === UNREACHABLE_DISTANCE) return NONE;
    // On DevTools' distances bookkeeping holders are skipped (a dead end sends the walk to the lasting
    // distances); on the lasting ones they sit in a tier of their own, after every other holder.
    const excluded = lasting === undefined ? this.#excluded : undefined;
    const { firstRetainer, retainingBits, retainingNode } = this.#analysis.retainers;
    let best = NONE;
    let bestDistance = UNREACHABLE_DISTANCE;
    for (let s = firstRetainer[v]!, end = firstRetainer[v + 1]!; s < end; s++) {
      const u = retainingNode[s]!;
      if (u === v || (slotBits(retainingBits, s) & EDGE_DISTANCE) === 0 || excluded?.has(u) === true) continue;
      // User roots sit at distance 1 under a root whose own distance is SYSTEM_DISTANCE_BASE.
      const du = u === graph.rootOrdinal ? (dv === 1 || dv === SYSTEM_DISTANCE_BASE + 1 ? 0 : distances[u]!) : distances[u]!;
      if (du < dv && du < bestDistance) {
        best = s;
        bestDistance = du;
      }
    }
    return best;
  }

  /** The edge behind a retainer slot of `v`. */
  edgeOfSlot(v: number, slot: number): number {
    return retainingEdgeOf(this.#graph, this.#analysis.edgeMask, this.#analysis.retainers, v, slot);
  }

  /** The holder behind a retainer slot. */
  holderOfSlot(slot: number): number {
    return this.#analysis.retainers.retainingNode[slot]!;
  }

  /**
   * One shortest chain from `ordinal` to the root, lasting holders first (see the header), at most
   * `maxDepth` hops. It ends at the root, or, for an object no path from the root reaches, at the top
   * of what holds it (a chain of one hop when nothing does).
   */
  shortestPath(ordinal: number, maxDepth = Infinity): Chain {
    if (this.#lasting === undefined) {
      const chain = this.#walk(ordinal);
      if (this.#isLasting(chain)) return chain.length > maxDepth ? chain.slice(0, maxDepth) : chain;
      this.preferLasting();
    }
    const chain = this.#walk(ordinal);
    return chain.length > maxDepth ? chain.slice(0, maxDepth) : chain;
  }

  #walk(ordinal: number): Hop[] {
    const { retainingNode } = this.#analysis.retainers;
    const hops: Hop[] = [];
    let v = ordinal;
    for (;;) {
      const slot = this.parentSlot(v);
      if (slot === NONE) {
        // The root, or the top of a chain that does not reach it (on DevTools' distances: a dead end).
        if (v === this.#graph.rootOrdinal || this.#lasting !== undefined || hops.length > 0) hops.push({ ordinal: v, edge: -1 });
        return hops;
      }
      hops.push({ ordinal: v, edge: this.edgeOfSlot(v, slot) });
      v = retainingNode[slot]!;
    }
  }

  /** Ends at the root without passing a transient root. */
  #isLasting(chain: Chain): boolean {
    if (chain.length === 0 || chain[chain.length - 1]!.ordinal !== this.#graph.rootOrdinal) return false;
    return chain.every((hop) => !this.#holderTiers.has(hop.ordinal));
  }

  /**
   * Up to `k` chains to the root, lasting ones first, then shortest first, each at most `maxDepth` hops.
   * Chains that do not reach the root within the depth or the node budget are not returned; when none
   * does (no path from the root, or only through a bookkeeping holder), the one chain shortestPath
   * gives stands for them, so every object shows what holds it.
   */
  kShortestPaths(ordinal: number, k: number, maxDepth = 64, budget = 200_000): Chain[] {
    if (k <= 0) return [];
    const found = this.isReachable(ordinal) ? this.#searchPaths(ordinal, k, maxDepth, budget) : [];
    if (found.length === 0) return [this.shortestPath(ordinal, maxDepth)];
    // Stable: among lasting chains and among the others, shortest first still.
    return [...found.filter((c) => this.#isLasting(c)), ...found.filter((c) => !this.#isLasting(c))];
  }

  #searchPaths(ordinal: number, k: number, maxDepth: number, budget: number): Chain[] {
    const graph = this.#graph;
    const { firstRetainer, retainingBits, retainingNode } = this.#analysis.retainers;
    // Partial chains as a persistent linked list in typed-ish arrays: node, edge, parent entry, length.
    const nodes: number[] = [ordinal];
    const edges: number[] = [-1];
    const parents: number[] = [-1];
    const lengths: number[] = [0];
    const queue = new MinQueue();
    queue.push(0, this.#remaining(ordinal));
    const found: Chain[] = [];
    let expanded = 0;
    while (queue.size > 0 && found.length < k && expanded < budget) {
      const entry = queue.pop();
      const v = nodes[entry]!;
      if (v === graph.rootOrdinal) {
        found.push(this.#unwind(entry, nodes, edges, parents));
        continue;
      }
      if (lengths[entry]! >= maxDepth) continue;
      expanded++;
      for (let s = firstRetainer[v]!, end = firstRetainer[v + 1]!; s < end; s++) {
        const u = retainingNode[s]!;
        if (u === v || (slotBits(retainingBits, s) & EDGE_DISTANCE) === 0 || this.#excluded.has(u)) continue;
        if (!this.isReachable(u) || onChain(entry, u, nodes, parents)) continue;
        const child = nodes.length;
        nodes.push(u);
        edges.push(s); // the retainer slot; turned into an edge only for chains that are returned
        parents.push(entry);
        lengths.push(lengths[entry]! + 1);
        queue.push(child, lengths[entry]! + 1 + this.#remaining(u));
      }
    }
    return found;
  }

  /** Hops still needed from `v` to the root (exact for BFS distances; user roots are one hop away). */
  #remaining(v: number): number {
    const d = this.#analysis.distances[v]!;
    return d >= SYSTEM_DISTANCE_BASE ? d - SYSTEM_DISTANCE_BASE : d;
  }

  #unwind(entry: number, nodes: number[], edges: number[], parents: number[]): Chain {
    // The list runs root-ward from the object: entry is the root, its ancestors lead back to the object.
    const reversed: number[] = [];
    for (let e = entry; e !== -1; e = parents[e]!) reversed.push(e);
    reversed.reverse();
    // reversed[0] is the object; the edge stored on entry i+1 is the edge holding hop i.
    return reversed.map((e, i) => ({
      ordinal: nodes[e]!,
      edge: i + 1 < reversed.length ? this.edgeOfSlot(nodes[e]!, edges[reversed[i + 1]!]!) : -1,
    }));
  }
}

function onChain(entry: number, u: number, nodes: number[], parents: number[]): boolean {
  for (let e = entry; e !== -1; e = parents[e]!) if (nodes[e] === u) return true;
  return false;
}

/** A binary min-heap of (entry, priority) pairs; ties pop in insertion order. */
class MinQueue {
  #entries: number[] = [];
  #priorities: number[] = [];
  #order: number[] = [];
  #counter = 0;

  get size(): number {
    return this.#entries.length;
  }

  push(entry: number, priority: number): void {
    const e = this.#entries, p = this.#priorities, o = this.#order;
    let i = e.length;
    e.push(entry);
    p.push(priority);
    o.push(this.#counter++);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(i, parent)) break;
      this.#swap(i, parent);
      i = parent;
    }
  }

  pop(): number {
    const e = this.#entries;
    const top = e[0]!;
    const last = e.length - 1;
    this.#swap(0, last);
    e.pop();
    this.#priorities.pop();
    this.#order.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= e.length) break;
      const r = l + 1;
      const m = r < e.length && this.#less(r, l) ? r : l;
      if (!this.#less(m, i)) break;
      this.#swap(m, i);
      i = m;
    }
    return top;
  }

  #less(a: number, b: number): boolean {
    const p = this.#priorities;
    return p[a]! < p[b]! || (p[a] === p[b] && this.#order[a]! < this.#order[b]!);
  }

  #swap(a: number, b: number): void {
    for (const arr of [this.#entries, this.#priorities, this.#order]) {
      const t = arr[a]!;
      arr[a] = arr[b]!;
      arr[b] = t;
    }
  }
}
