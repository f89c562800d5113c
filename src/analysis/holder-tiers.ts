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
// `(Strong roots)` is two roots on Node 20 (V8 11): the root list first (accessors and the like,
// lasting), and later the strong roots registered by C++ objects of the moment (edges labelled
// `<n> / IdentityMapBase`: 301 of them in a snapshot written while a fetch was under way, none in the
// others); Node 24 calls the first `(Strong root list)`. So a `(Strong roots)` after another one, or
// beside a `(Strong root list)`, is transient.

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

const STRONG_ROOTS = '(Strong roots)';
const STRONG_ROOT_LIST = '(Strong root list)';

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
  for (const n of findTransientRoots(graph)) tiers.set(n, TIER_TRANSIENT);
  const names = new Set(BOOKKEEPING_HOLDERS.map((name) => graph.strings.indexOf(name)).filter((i) => i >= 0));
  if (names.size === 0) return tiers;
  const { nodeName, nodeType, nodeCount } = graph;
  const { synthetic, native, hidden, object } = graph.nodeTypes;
  for (let n = 0; n < nodeCount; n++) {
    const t = nodeType[n];
    if (names.has(nodeName[n]!) && (t === native || t === synthetic || t === hidden || t === object)) tiers.set(n, TIER_BOOKKEEPING);
  }
  return tiers;
}

/**
 * Ordinals of the transient roots: synthetic children of `(GC roots)`, itself a synthetic child of the
 * root; two levels of a few dozen nodes, cheap enough to ask for per chain.
 */
export function findTransientRoots(graph: HeapGraph): Set<number> {
  const found = new Set<number>();
  const { firstEdge, edgeTarget, nodeType, rootOrdinal } = graph;
  const { synthetic } = graph.nodeTypes;
  for (let e = firstEdge[rootOrdinal]!, end = firstEdge[rootOrdinal + 1]!; e < end; e++) {
    const top = edgeTarget[e]!;
    if (nodeType[top] !== synthetic) continue;
    markTransient(graph, found, top);
    const strongRoots: number[] = [];
    let rootList = false;
    for (let f = firstEdge[top]!, fEnd = firstEdge[top + 1]!; f < fEnd; f++) {
      const n = edgeTarget[f]!;
      if (nodeType[n] !== synthetic) continue;
      markTransient(graph, found, n);
      const name = graph.nodeNameOf(n);
      if (name === STRONG_ROOTS) strongRoots.push(n);
      else if (name === STRONG_ROOT_LIST) rootList = true;
    }
    for (const n of rootList ? strongRoots : strongRoots.slice(1)) found.add(n);
  }
  return found;
}

function markTransient(graph: HeapGraph, found: Set<number>, n: number): void {
  if (graph.nodeType[n] === graph.nodeTypes.synthetic && TRANSIENT_ROOTS.includes(graph.nodeNameOf(n))) found.add(n);
}
