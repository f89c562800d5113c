// Per-class totals, as the DevTools Summary view shows them (HeapSnapshot.buildAggregates and
// calculateClassesRetainedSize, Chrome DevTools HeapSnapshot.ts):
// - count and self size over the class's nodes whose (adjusted, see shallow-sizes.ts) self size is not 0;
//   nodes of size 0 are left out of the row entirely, and a class with none gets no row;
// - retained size counts only the top-most counted member on each dominator-tree path, so nested
//   members (a list node dominating the next) are not counted twice; a member with no dominated nodes
//   never hides anything below it, and members of size 0 never hide anything;
// - distance is the smallest member distance; UNREACHABLE_DISTANCE when any member is unreachable
//   (DevTools stores -5 there, which wins its minimum the same way).
// Rows come back in class-id order; callers sort and slice.

import type { SizeArray } from '../snapshot/heap-graph.js';
import type { ClassIndex } from './class-keys.js';
import { UNREACHABLE_DISTANCE } from './distances.js';
import type { DominatorTree } from './dominator-tree.js';

export interface ClassSummaryRow {
  readonly classId: number;
  readonly name: string;
  /** DevTools class key: unique, includes the constructor location when there is one. */
  readonly key: string;
  readonly count: number;
  readonly selfSize: number;
  readonly retainedSize: number;
  readonly distance: number;
}

export interface ClassSummaryInput {
  readonly classIndex: ClassIndex;
  readonly selfSizes: SizeArray;
  readonly retainedSizes: Float64Array;
  readonly distances: Uint32Array;
  readonly tree: DominatorTree;
}

export function summarizeClasses(input: ClassSummaryInput): ClassSummaryRow[] {
  const { classIndex, selfSizes, distances } = input;
  const { classOf, names, keys } = classIndex;
  const classCount = names.length;
  const count = new Float64Array(classCount);
  const self = new Float64Array(classCount);
  const distance = new Float64Array(classCount).fill(Infinity);
  for (let n = 0; n < classOf.length; n++) {
    const size = selfSizes[n]!;
    if (size === 0) continue;
    const c = classOf[n]!;
    count[c]!++;
    self[c]! += size;
    const d = distances[n] === UNREACHABLE_DISTANCE ? -1 : distances[n]!;
    if (d < distance[c]!) distance[c] = d;
  }
  const retained = computeClassRetainedSizes(input);
  const rows: ClassSummaryRow[] = [];
  for (let c = 0; c < classCount; c++) {
    if (count[c] === 0) continue;
    rows.push({
      classId: c,
      name: names[c]!,
      key: keys[c]!,
      count: count[c]!,
      selfSize: self[c]!,
      retainedSize: retained[c]!,
      distance: distance[c] === -1 ? UNREACHABLE_DISTANCE : distance[c]!,
    });
  }
  return rows;
}

/** Per class: the retained sizes of its top-most members, by one walk of the dominator tree. */
export function computeClassRetainedSizes(input: ClassSummaryInput): Float64Array {
  const { classIndex, selfSizes, retainedSizes, tree } = input;
  const { classOf, names } = classIndex;
  const { firstChild, children, rootOrdinal } = tree;
  const retained = new Float64Array(names.length);
  // Classes with a counted member on the current path. A member that marks its class pushes an exit
  // marker (~ordinal, negative) below its children; popping the marker unmarks the class. Int32 keeps
  // every stack value a small integer for the JIT.
  const open = new Uint8Array(names.length);
  let stack = new Int32Array(1024);
  let top = 0;
  stack[top++] = rootOrdinal;
  while (top > 0) {
    const item = stack[--top]!;
    if (item < 0) {
      open[classOf[~item]!] = 0;
      continue;
    }
    const c = classOf[item]!;
    const from = firstChild[item]!;
    const to = firstChild[item + 1]!;
    const room = top + (to - from) + 1;
    if (room > stack.length) {
      const grown = new Int32Array(Math.max(room, stack.length * 2));
      grown.set(stack.subarray(0, top));
      stack = grown;
    }
    if (open[c] === 0 && selfSizes[item] !== 0) {
      retained[c]! += retainedSizes[item]!;
      if (to > from) {
        open[c] = 1;
        stack[top++] = ~item;
      }
    }
    for (let k = from; k < to; k++) stack[top++] = children[k]!;
  }
  return retained;
}
