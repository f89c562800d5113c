// Self ("shallow") sizes as DevTools shows them: the size of V8-internal `hidden` and `array` nodes
// (backing stores, property arrays, descriptor arrays...) is moved onto the one object that owns them.
// Semantics of JSHeapSnapshot.calculateShallowSizes (Chrome DevTools HeapSnapshot.ts):
// - Only when the snapshot has user roots (see user-roots.ts); otherwise sizes stay as written.
// - *Parts* are `hidden` and `array` nodes and the native `system / ExternalStringData` (a string's
//   out-of-heap characters); every other node owns itself. Ownership flows along non-weak edges into
//   parts; a part reached from two owners has none.
// - A part with exactly one owner gives its size to it, unless the owner is synthetic
//   (the root, `(GC roots)` and its sub-roots).
// The graph stays untouched: the result is a new array. Invariant: the total is unchanged.

import type { HeapGraph, SizeArray } from '../snapshot/heap-graph.js';
import { computeDetachedNatives } from './dom-state.js';
import { Scratch } from './scratch.js';
import { hasUserRoots } from './user-roots.js';

const UNVISITED = 0xffffffff;
const SHARED = 0xfffffffe;

export function computeShallowSizes(
  graph: HeapGraph,
  detached: Uint8Array | undefined = computeDetachedNatives(graph),
  scratch: Scratch = new Scratch(),
): SizeArray {
  // Moving sizes onto owners never makes one larger than the total, so 32 bits do while the total fits.
  const raw = graph.nodeSelfSize;
  let total = 0;
  for (let n = 0; n < raw.length; n++) total += raw[n]!;
  const sizes: SizeArray = total <= 0xffffffff ? scratch.u32(graph.nodeCount) : scratch.f64(graph.nodeCount);
  if (!hasUserRoots(graph)) {
    sizes.set(raw);
    return sizes;
  }
  const { nodeCount, nodeType, firstEdge, edgeType, edgeTarget, rootOrdinal } = graph;
  const { hidden, array, native, synthetic } = graph.nodeTypes;
  const weak = graph.edgeTypes.weak;
  const externalData = new Map<number, boolean>();
  // A detached native is shown renamed ("Detached …"), and DevTools matches the name after renaming.
  const isPart = (n: number): boolean => {
    const t = nodeType[n];
    return t === hidden || t === array || (t === native && detached?.[n] !== 1 && isExternalStringData(graph, n, externalData));
  };
  // The result array holds each node's owner first (UNVISITED, SHARED or an ordinal; no temporary
  // array), then its size.
  const owner = sizes;
  for (let n = 0; n < nodeCount; n++) owner[n] = isPart(n) ? UNVISITED : n;
  // Self-owners are visited in order; the stack only ever holds parts, each at most twice
  // (once when it gets an owner, once when it becomes shared).
  let stack = new Uint32Array(1024);
  let top = 0;
  const push = (n: number): void => {
    if (top === stack.length) {
      const grown = new Uint32Array(stack.length * 2);
      grown.set(stack);
      stack = grown;
    }
    stack[top++] = n;
  };
  const spread = (n: number): void => {
    const from = owner[n]!;
    for (let e = firstEdge[n]!, end = firstEdge[n + 1]!; e < end; e++) {
      if (edgeType[e] === weak) continue;
      const to = edgeTarget[e]!;
      const current = owner[to]!;
      if (current === UNVISITED) {
        owner[to] = from;
        push(to);
      } else if (current !== to && current !== from && current !== SHARED) {
        owner[to] = SHARED;
        push(to);
      }
    }
  };
  for (let n = 0; n < nodeCount; n++) {
    if (owner[n] !== n) continue;
    spread(n);
    while (top > 0) spread(stack[--top]!);
  }
  // Owners become sizes: every self-owner's slot first (a part's owner is always a self-owner), then
  // each part's slot, its size moved onto its owner when it has one that is not synthetic.
  for (let n = 0; n < nodeCount; n++) if (owner[n] === n) sizes[n] = raw[n]!;
  for (let n = 0; n < nodeCount; n++) {
    if (!isPart(n)) continue;
    const o = owner[n]!;
    if (o === UNVISITED || o === SHARED || o === rootOrdinal || nodeType[o] === synthetic) {
      sizes[n] = raw[n]!;
    } else {
      sizes[o]! += raw[n]!;
      sizes[n] = 0;
    }
  }
  return sizes;
}

function isExternalStringData(graph: HeapGraph, n: number, cache: Map<number, boolean>): boolean {
  const name = graph.nodeName[n]!;
  let is = cache.get(name);
  if (is === undefined) cache.set(name, (is = graph.strings.get(name) === 'system / ExternalStringData'));
  return is;
}
