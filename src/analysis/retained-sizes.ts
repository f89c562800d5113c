// Retained size: a node's self size plus the self sizes of everything it dominates — what the GC would
// free with it. Chrome DevTools semantics (buildDominatorTreeAndCalculateRetainedSizes): every node
// counts, unreachable ones included (they hang off the root), so the root's retained size is the total.
// Self sizes are DevTools' adjusted ones when the caller passes them (see shallow-sizes.ts).
// Float64 throughout: sums pass 2^32 on large heaps and stay exact up to 2^53.

import type { HeapGraph, SizeArray } from '../snapshot/heap-graph.js';
import { buildDominatorTree, dominatorPreorder, type DominatorTree } from './dominator-tree.js';
import { Scratch } from './scratch.js';

export function computeRetainedSizes(
  graph: HeapGraph,
  dominators: Uint32Array,
  selfSizes: SizeArray = graph.nodeSelfSize,
  tree?: DominatorTree,
  scratch: Scratch = new Scratch(),
): Float64Array {
  const ownTree = tree === undefined;
  tree ??= buildDominatorTree(dominators, graph.rootOrdinal, scratch);
  const order = dominatorPreorder(tree, scratch);
  const retained = retainedSizesInOrder(dominators, order, selfSizes, scratch);
  scratch.give(order);
  if (ownTree) scratch.give(tree.firstChild);
  return retained;
}

/**
 * The same sizes from an order that puts every node after its immediate dominator (computeDominatorsInOrder):
 * no tree, no temporary.
 */
export function retainedSizesInOrder(
  dominators: Uint32Array,
  order: Uint32Array,
  selfSizes: SizeArray,
  scratch: Scratch = new Scratch(),
): Float64Array {
  const retained = scratch.f64(selfSizes.length);
  retained.set(selfSizes);
  // Children come after their dominator, so walking the order backwards folds each finished subtree
  // up; order[0] is the root.
  for (let k = order.length - 1; k >= 1; k--) {
    const n = order[k]!;
    retained[dominators[n]!]! += retained[n]!;
  }
  return retained;
}
