// The dominator tree as CSR (children of each node), and a root-first order of it. Built from the
// immediate-dominator array; used by retained sizes, class retained sizes and "what does X hold".
// Same shape as DevTools' firstDominatedNodeIndex / dominatedNodes (HeapSnapshot.buildDominatedNodes),
// but holding ordinals. Children of a node are listed in ordinal order.

import { Scratch } from './scratch.js';

export interface DominatorTree {
  readonly rootOrdinal: number;
  /** Children of n are children[firstChild[n] .. firstChild[n + 1] - 1]. Length nodeCount + 1. */
  readonly firstChild: Uint32Array;
  readonly children: Uint32Array;
}

export function buildDominatorTree(
  dominators: Uint32Array,
  rootOrdinal: number,
  scratch: Scratch = new Scratch(),
): DominatorTree {
  const nodeCount = dominators.length;
  const [firstChild, children] = scratch.u32Pair(nodeCount + 1);
  for (let n = 0; n < nodeCount; n++) if (n !== rootOrdinal) firstChild[dominators[n]!]!++;
  // Each node's entry becomes the end of its children's range, then moves down to the start as they are
  // placed from the back (so each node's children come out in ordinal order): no cursor array.
  let sum = 0;
  for (let n = 0; n < nodeCount; n++) {
    sum += firstChild[n]!;
    firstChild[n] = sum;
  }
  firstChild[nodeCount] = sum;
  for (let n = nodeCount - 1; n >= 0; n--) {
    if (n === rootOrdinal) continue;
    children[--firstChild[dominators[n]!]!] = n;
  }
  return { rootOrdinal, firstChild, children: children.subarray(0, sum) };
}

/**
 * Every node of the tree, each after its dominator (a pre-order from the root). Nodes whose dominator
 * chain does not reach the root (impossible for computeDominators output) are left out.
 */
export function dominatorPreorder(tree: DominatorTree, scratch: Scratch = new Scratch()): Uint32Array {
  const { firstChild, children, rootOrdinal } = tree;
  const nodeCount = firstChild.length - 1;
  const order = scratch.u32(nodeCount);
  let tail = 0;
  let head = 0;
  order[tail++] = rootOrdinal;
  // Breadth-first: the output array is its own queue, so no stack is needed.
  while (head < tail) {
    const n = order[head++]!;
    for (let k = firstChild[n]!, end = firstChild[n + 1]!; k < end; k++) order[tail++] = children[k]!;
  }
  return tail === nodeCount ? order : order.subarray(0, tail);
}
