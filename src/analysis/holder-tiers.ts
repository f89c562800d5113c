// Holders that are not lasting ones, as data: V8's per-moment roots (what the code running at the moment
// of the snapshot holds) and Node's bookkeeping lists (which name objects without keeping them alive).
// Chains and path signatures take a hop through one only when nothing lasting holds the object
// (lasting-distances.ts); DevTools' distances and dominators are not affected.
//
// Per-moment roots, read off real snapshots (v8.writeHeapSnapshot and `leakhunt attach`, Node 20 and 24):
// the children of `(Stack roots)` and `(Handle scope)` change with whatever runs when the snapshot is
// taken (a request handler half-way, the inspector's own dispatch), e.g. 1 → 1 → 46 children of
// `(Stack roots)` in three snapshots of one idle-then-busy process; the other roots list the same objects
// from one snapshot to the next (builtins, caches, global and eternal handles, Node's handle wraps).

import type { HeapGraph } from '../snapshot/heap-graph.js';

/** V8's synthetic roots that hold objects only for the moment the snapshot was taken. */
export const TRANSIENT_ROOTS: readonly string[] = [
  '(Stack roots)', // frames of the JavaScript running at that moment
  '(Handle scope)', // handles of the native code running at that moment (a call into C++, the inspector's dispatch)
  '(Relocatable)', // V8 helpers allocated on the native stack
  '(Thread manager)', // stacks of other threads parked by a Locker
  '(Debugger)', // the debugger's state while it is paused
  '(Micro tasks)', // Node 24: microtasks queued at that moment, run next
  'C++ native stack roots', // Node 24: C++ (cppgc) objects the native stack points to
];

/** Nodes that list objects without holding them (Node's teardown list of native objects). */
export const BOOKKEEPING_HOLDERS: readonly string[] = ['Node / CleanupQueue'];

/** How an object is held, by the kind of holder its chain has to go through. */
export type HoldKind = 'lasting' | 'transient' | 'bookkeeping' | 'unrooted';

/** Tiers of the lasting distances: 0 and 1 are DevTools' user and system passes. */
export const TIER_TRANSIENT = 2;
export const TIER_BOOKKEEPING = 3;
export const TIER_UNROOTED = 4;

export function holdKindOfTier(tier: number): HoldKind {
  return tier < TIER_TRANSIENT ? 'lasting' : tier === TIER_TRANSIENT ? 'transient' : tier === TIER_BOOKKEEPING ? 'bookkeeping' : 'unrooted';
}

/** Ordinals of the transient roots and bookkeeping holders of `graph`, with their tier (a handful). */
export function findHolderTiers(graph: HeapGraph): Map<number, number> {
  const tiers = new Map<number, number>();
  // Transient roots are synthetic children of `(GC roots)`, itself a synthetic child of the root: two
  // levels of a few dozen nodes, no scan of the strings.
  const { firstEdge, edgeTarget, nodeType, rootOrdinal } = graph;
  const { synthetic, native, hidden, object } = graph.nodeTypes;
  for (let e = firstEdge[rootOrdinal]!, end = firstEdge[rootOrdinal + 1]!; e < end; e++) {
    const top = edgeTarget[e]!;
    if (nodeType[top] !== synthetic) continue;
    markTransient(graph, tiers, top);
    for (let f = firstEdge[top]!, fEnd = firstEdge[top + 1]!; f < fEnd; f++) markTransient(graph, tiers, edgeTarget[f]!);
  }
  const names = new Set(BOOKKEEPING_HOLDERS.map((name) => graph.strings.indexOf(name)).filter((i) => i >= 0));
  if (names.size === 0) return tiers;
  const { nodeName, nodeCount } = graph;
  for (let n = 0; n < nodeCount; n++) {
    const t = nodeType[n];
    if (names.has(nodeName[n]!) && (t === native || t === synthetic || t === hidden || t === object)) tiers.set(n, TIER_BOOKKEEPING);
  }
  return tiers;
}

function markTransient(graph: HeapGraph, tiers: Map<number, number>, n: number): void {
  if (graph.nodeType[n] === graph.nodeTypes.synthetic && TRANSIENT_ROOTS.includes(graph.nodeNameOf(n))) tiers.set(n, TIER_TRANSIENT);
}
