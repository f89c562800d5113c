// The largest single objects by retained size ("top dominators"): the n nodes with the largest retained
// size, largest first (ties: lower ordinal first). The root and every `synthetic` node ((GC roots), its
// sub-roots) are left out: they hold everything by construction and are not objects anyone can free.
// A bounded min-heap over typed arrays: O(N log n), nothing allocated per node.

import type { HeapGraph } from '../snapshot/heap-graph.js';

export function selectTopDominated(graph: HeapGraph, retainedSizes: Float64Array, n: number): Uint32Array {
  const limit = Math.max(0, Math.min(Math.floor(n), graph.nodeCount));
  const heap = new Uint32Array(limit); // heap[0] is the smallest kept
  let size = 0;
  const { nodeType, rootOrdinal, nodeCount } = graph;
  const synthetic = graph.nodeTypes.synthetic;
  // a ranks below b: smaller size, or equal size and higher ordinal.
  const below = (a: number, b: number): boolean =>
    retainedSizes[a]! < retainedSizes[b]! || (retainedSizes[a] === retainedSizes[b] && a > b);
  const siftDown = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) return;
      const r = l + 1;
      const m = r < size && below(heap[r]!, heap[l]!) ? r : l;
      if (!below(heap[m]!, heap[i]!)) return;
      const t = heap[i]!;
      heap[i] = heap[m]!;
      heap[m] = t;
      i = m;
    }
  };
  if (limit === 0) return heap;
  for (let v = 0; v < nodeCount; v++) {
    if (v === rootOrdinal || nodeType[v] === synthetic) continue;
    if (size < limit) {
      let i = size++;
      heap[i] = v;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!below(heap[i]!, heap[p]!)) break;
        const t = heap[i]!;
        heap[i] = heap[p]!;
        heap[p] = t;
        i = p;
      }
    } else if (below(heap[0]!, v)) {
      heap[0] = v;
      siftDown(0);
    }
  }
  const out = heap.slice(0, size);
  // Largest first: sort descending by the same order.
  return out.sort((a, b) => (below(a, b) ? 1 : below(b, a) ? -1 : 0));
}
