// One snapshot reduced to what a diff needs once its graph is gone: the V8 ids of its counted objects
// (those DevTools' Summary counts: adjusted self size > 0), sorted, each with a series-wide class id.
// ~3 bytes an object (delta-coded ids, 16-bit classes); sorted by a two-pass radix sort (ids are 32-bit), so 10M
// objects cost O(n).

import type { HeapAnalysis } from '../heap-analysis.js';
import { TextIds } from '../text-ids.js';

/** Class names interned across every snapshot of a series, so class ids compare between snapshots. */
export class ClassNames extends TextIds {
  get names(): readonly string[] {
    return this.texts;
  }
}

export interface IdTable {
  /** Entries (counted objects). */
  readonly length: number;
  /**
   * Ascending V8 ids, each as its difference from the one before (the first from 0) in LEB128: the
   * ids of one heap lie close together, so most take one byte (IdTableReader walks them).
   */
  readonly idDeltas: Uint8Array;
  /**
   * Per entry: its series-wide class id, with `sequentialBit` set for V8 heap objects (0 for embedder
   * (native) and synthetic nodes, whose ids are not sequential). 16 bits while the series has fewer
   * than 2^15 classes.
   */
  readonly classOf: Uint16Array | Uint32Array;
  readonly sequentialBit: number;
  /** The largest id of a V8 heap object (see maxHeapObjectId). */
  readonly maxId: number;
}

/**
 * What a table costs is what a diff holds per snapshot while the next is read (a series of three keeps
 * two beside the newest graph): ~3 bytes an object this way, 9 as plain id, class and flag arrays. The
 * sort's temporaries come from the analysis's pool (the dominator tree's buffer, given back by then).
 */
export function buildIdTable(analysis: HeapAnalysis, classNames: ClassNames, options: { pooled?: boolean } = {}): IdTable {
  const { graph, scratch } = analysis;
  const selfSizes = analysis.selfSizes;
  const { classOf: localClassOf, names } = analysis.classIndex;
  const seriesClass = Uint32Array.from(names, (name) => classNames.idOf(name));
  let count = 0;
  for (let n = 0; n < graph.nodeCount; n++) if (selfSizes[n] !== 0) count++;
  // The ordinals sorted by id, the ids read through them: two arrays of the count, not four.
  const [order, spare] = scratch.u32Pair(count);
  const { nodeId } = graph;
  for (let n = 0, i = 0; n < graph.nodeCount; n++) if (selfSizes[n] !== 0) order[i++] = n;
  sortById(order, spare, nodeId);
  const { native, synthetic } = graph.nodeTypes;
  let bytes = 0;
  for (let i = 0, previous = 0; i < count; i++) {
    const id = nodeId[order[i]!]!;
    bytes += varintBytes(id - previous);
    previous = id;
  }
  // `pooled`: a table that does not outlive the graph (the newest one's, compared at once) is made in
  // the pool's buffers, to be given back (giveIdTable), not in fresh memory at the diff's peak.
  const pooled = options.pooled === true;
  const idDeltas = pooled ? scratch.u8(bytes, { anySize: true }) : new Uint8Array(bytes);
  for (let i = 0, at = 0, previous = 0; i < count; i++) {
    const id = nodeId[order[i]!]!;
    let delta = id - previous;
    previous = id;
    while (delta >= 0x80) {
      idDeltas[at++] = (delta & 0x7f) | 0x80;
      delta >>>= 7;
    }
    idDeltas[at++] = delta;
  }
  const wide = classNames.names.length > 0x7fff;
  const sequentialBit = wide ? 0x80000000 : 0x8000;
  const classBytes = pooled ? scratch.u8(count * (wide ? 4 : 2), { anySize: true }) : undefined;
  const classOf = wide
    ? classBytes ? new Uint32Array(classBytes.buffer, classBytes.byteOffset, count) : new Uint32Array(count)
    : classBytes ? new Uint16Array(classBytes.buffer, classBytes.byteOffset, count) : new Uint16Array(count);
  for (let i = 0; i < count; i++) {
    const n = order[i]!;
    const t = graph.nodeType[n];
    classOf[i] = seriesClass[localClassOf[n]!]! + (t === native || t === synthetic ? 0 : sequentialBit);
  }
  scratch.give(order);
  return { length: count, idDeltas, classOf, sequentialBit, maxId: maxHeapObjectId(analysis) };
}

/** A table built with `pooled`, given back to the analysis's pool once nothing reads it. */
export function giveIdTable(analysis: HeapAnalysis, table: IdTable): void {
  analysis.scratch.give(table.idDeltas, table.classOf);
}

function varintBytes(value: number): number {
  let bytes = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 0x80);
    bytes++;
  }
  return bytes;
}

/** Walks a table's entries in id order: `next()` then `id`, `classId`, `sequential`. */
export class IdTableReader {
  readonly #table: IdTable;
  #at = 0;
  #index = -1;
  id = 0;
  classId = 0;
  sequential = false;

  constructor(table: IdTable) {
    this.#table = table;
  }

  /** Moves to the next entry; false past the last. */
  next(): boolean {
    const table = this.#table;
    if (++this.#index >= table.length) return false;
    const bytes = table.idDeltas;
    let delta = 0;
    let scale = 1;
    let b: number;
    do {
      b = bytes[this.#at++]!;
      delta += (b & 0x7f) * scale;
      scale *= 0x80;
    } while (b >= 0x80);
    this.id += delta;
    const c = table.classOf[this.#index]!;
    this.sequential = c >= table.sequentialBit;
    this.classId = this.sequential ? c - table.sequentialBit : c;
    return true;
  }
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

/**
 * Sorts node ordinals by their V8 id, ascending: LSD radix sort, two 16-bit passes, through `spare` (as
 * long as `order`). Stable, so equal ids keep ordinal order.
 */
export function sortById(order: Uint32Array, spare: Uint32Array, nodeId: Uint32Array): void {
  const counts = new Uint32Array(65537);
  radixPass(order, spare, nodeId, 0, counts);
  radixPass(spare, order, nodeId, 16, counts);
}

function radixPass(from: Uint32Array, to: Uint32Array, nodeId: Uint32Array, shift: number, counts: Uint32Array): void {
  counts.fill(0);
  const n = from.length;
  for (let i = 0; i < n; i++) counts[((nodeId[from[i]!]! >>> shift) & 0xffff) + 1]!++;
  for (let b = 1; b < 65537; b++) counts[b]! += counts[b - 1]!;
  for (let i = 0; i < n; i++) {
    const key = (nodeId[from[i]!]! >>> shift) & 0xffff;
    to[counts[key]!++] = from[i]!;
  }
}
