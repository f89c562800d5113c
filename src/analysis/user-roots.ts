// What counts as a *user root*: a direct child of the synthetic root that belongs to the program rather
// than to V8. Semantics of Chrome DevTools' JSHeapSnapshot.isUserRoot (HeapSnapshot.ts): any node that is
// not `synthetic`, plus the synthetic `(Document DOM trees)` node of browser heaps. In a Node.js heap the
// user roots are the global objects V8 links from the root with `shortcut` edges; `(GC roots)` is not one.

import type { HeapGraph } from '../snapshot/heap-graph.js';

const DOCUMENT_DOM_TREES = '(Document DOM trees)';

export function isUserRoot(graph: HeapGraph, ordinal: number): boolean {
  if (graph.nodeType[ordinal] !== graph.nodeTypes.synthetic) return true;
  return graph.nodeNameOf(ordinal) === DOCUMENT_DOM_TREES;
}

/** True when any edge of the root (of any type) leads to a user root. */
export function hasUserRoots(graph: HeapGraph): boolean {
  const { firstEdge, edgeTarget, rootOrdinal } = graph;
  for (let e = firstEdge[rootOrdinal]!, end = firstEdge[rootOrdinal + 1]!; e < end; e++) {
    if (isUserRoot(graph, edgeTarget[e]!)) return true;
  }
  return false;
}

/** `(Document DOM trees)`: the one synthetic node DevTools treats as a user root. */
export function isDocumentDomTreesRoot(graph: HeapGraph, ordinal: number): boolean {
  return graph.nodeType[ordinal] === graph.nodeTypes.synthetic && graph.nodeNameOf(ordinal) === DOCUMENT_DOM_TREES;
}
