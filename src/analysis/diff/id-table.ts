// One snapshot reduced to what a diff needs once its graph is gone: the V8 ids of its counted objects
// (those DevTools' Summary counts: adjusted self size > 0), sorted, each with a series-wide class id.
// 8 bytes an object; sorted by a two-pass radix sort (ids are 32-bit), so 10M objects cost O(n).

import type { HeapAnalysis } from '../heap-analysis.js';
import { TextIds } from '../text-ids.js';

/** Class names interned across every snapshot of a series, so class ids compare between snapshots. */
export class ClassNames extends TextIds {
  get names(): readonly string[] {
    return this.texts;
  }
}

export interface IdTable {
  /** Ascending V8 ids. */
  readonly ids: Uint32Array;
  /** Series-wide class id of each entry of `ids`. */
  readonly classOf: Uint32Array;
  /** 1 for V8 heap objects; 0 for embedder (native) and synthetic nodes, whose ids are not sequential. */
  readonly sequential: Uint8Array;
  /** The largest id of a V8 heap object (see maxHeapObjectId). */
  readonly maxId: number;
}

export function buildIdTable(analysis: HeapAnalysis, classNames: ClassNames): IdTable {
  const { graph } = analysis;
  const selfSizes = analysis.selfSizes;
  const { classOf: localClassOf, names } = analysis.classIndex;
  const seriesClass = Uint32Array.from(names, (name) => classNames.idOf(name));
  let count = 0;
  for (let n = 0; n < graph.nodeCount; n++) if (selfSizes[n] !== 0) count++;
  const ids = new Uint32Array(count);
  const classOf = new Uint32Array(count);
  const order = new Uint32Array(count);
  const { native, synthetic } = graph.nodeTypes;
  for (let n = 0, i = 0; n < graph.nodeCount; n++) {
    if (selfSizes[n] === 0) continue;
    ids[i] = graph.nodeId[n]!;
    order[i++] = n;
  }
  sortByKey(ids, order);
  const sequential = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const n = order[i]!;
    classOf[i] = seriesClass[localClassOf[n]!]!;
    const t = graph.nodeType[n];
    sequential[i] = t === native || t === synthetic ? 0 : 1;
  }
  return { ids, classOf, sequential, maxId: maxHeapObjectId(analysis) };
}

/**
 * The largest id of a V8 heap object in the graph: the "born after" line for survivors. V8 numbers
 * heap objects in the order snapshots first see them; embedder (native) nodes and synthetic roots
 * carry ids of their own (native ones derived from addresses, often far above), so they are left out.
 */
export function maxHeapObjectId(analysis: HeapAnalysis): number {
  const { nodeId, nodeType, nodeCount } = analysis.graph;
  const { native, synthetic } = analysis.graph.nodeTypes;
  let max = 0;
  for (let n = 0; n < nodeCount; n++) {
    const t = nodeType[n];
    if (t !== native && t !== synthetic && nodeId[n]! > max) max = nodeId[n]!;
  }
  return max;
}

/** Sorts `keys` ascending and moves `payload` along: LSD radix sort, two 16-bit passes. */
export function sortByKey(keys: Uint32Array, payload: Uint32Array): void {
  const n = keys.length;
  const keys2 = new Uint32Array(n);
  const payload2 = new Uint32Array(n);
  const counts = new Uint32Array(65537);
  radixPass(keys, payload, keys2, payload2, 0, counts);
  radixPass(keys2, payload2, keys, payload, 16, counts);
}

function radixPass(
  fromKeys: Uint32Array, fromPayload: Uint32Array, toKeys: Uint32Array, toPayload: Uint32Array,
  shift: number, counts: Uint32Array,
): void {
  counts.fill(0);
  const n = fromKeys.length;
  for (let i = 0; i < n; i++) counts[((fromKeys[i]! >>> shift) & 0xffff) + 1]!++;
  for (let b = 1; b < 65537; b++) counts[b]! += counts[b - 1]!;
  for (let i = 0; i < n; i++) {
    const slot = counts[(fromKeys[i]! >>> shift) & 0xffff]!++;
    toKeys[slot] = fromKeys[i]!;
    toPayload[slot] = fromPayload[i]!;
  }
}
