// Every reverse edge, weak ones included, with its edge index: what the oracle replicas of other
// tools' algorithms walk. The product uses the compact src/analysis/retainer-index.ts instead.

import type { HeapGraph } from '../../src/snapshot/heap-graph.js';

export interface FullRetainers {
  readonly firstRetainer: Uint32Array;
  readonly retainingEdge: Uint32Array;
  readonly retainingNode: Uint32Array;
}

export function buildFullRetainers(graph: HeapGraph): FullRetainers {
  const { nodeCount, edgeCount, edgeTarget, firstEdge } = graph;
  const firstRetainer = new Uint32Array(nodeCount + 1);
  for (let e = 0; e < edgeCount; e++) firstRetainer[edgeTarget[e]! + 1]!++;
  for (let n = 0; n < nodeCount; n++) firstRetainer[n + 1]! += firstRetainer[n]!;
  const cursor = firstRetainer.slice(0, nodeCount);
  const retainingEdge = new Uint32Array(edgeCount);
  const retainingNode = new Uint32Array(edgeCount);
  for (let n = 0; n < nodeCount; n++) {
    for (let e = firstEdge[n]!, end = firstEdge[n + 1]!; e < end; e++) {
      const slot = cursor[edgeTarget[e]!]!++;
      retainingEdge[slot] = e;
      retainingNode[slot] = n;
    }
  }
  return { firstRetainer, retainingEdge, retainingNode };
}
