// Storing scanned `edges` values as edge records: the same checks, stores and messages whether the main
// thread's streaming parser or the edges worker (edge-range.ts) scanned them. No throws: the caller
// turns a problem into an error with its byte offset.

import type { SnapshotLayout } from './snapshot-meta.js';

export interface EdgeArrays {
  readonly type: Uint8Array;
  readonly name: Uint32Array;
  readonly target: Uint32Array;
}

/** What storing needs of the layout, resolved once (also sent to the worker as plain data). */
export interface EdgeRecordLayout {
  readonly fields: number;
  readonly typeAt: number;
  readonly nameAt: number;
  readonly targetAt: number;
  readonly typeLimit: number;
  /** Type codes of the edges whose name_or_index is an index, not a string (-1 when absent). */
  readonly elementType: number;
  readonly hiddenType: number;
  readonly nodeFields: number;
  readonly nodeCount: number;
  readonly edgeCount: number;
}

export function edgeRecordLayout(layout: SnapshotLayout): EdgeRecordLayout {
  const ef = layout.edgeFields;
  return {
    fields: layout.edgeFieldCount,
    typeAt: ef.indexOf('type'),
    nameAt: ef.indexOf('name_or_index'),
    targetAt: ef.indexOf('to_node'),
    typeLimit: layout.edgeTypeNames.length,
    elementType: layout.edgeTypeNames.indexOf('element'),
    hiddenType: layout.edgeTypeNames.indexOf('hidden'),
    nodeFields: layout.nodeFieldCount,
    nodeCount: layout.nodeCount,
    edgeCount: layout.edgeCount,
  };
}

/** Whether an edge of this type names a string (element and hidden edges carry indexes instead). */
export function namesString(l: EdgeRecordLayout, type: number): boolean {
  return type !== l.elementType && type !== l.hiddenType;
}

/** A value refused, or a wrong count, with the byte offset to report it at. */
export interface EdgeProblem {
  readonly reason: string;
  readonly offset: number;
}

/**
 * Fills the edge arrays from batches of scanned values, in order, checking each record and the count,
 * and keeps the largest string index an edge names (element and hidden edges carry indexes, not names)
 * so the check against the string table needs no second pass over the edges.
 */
export class EdgeFiller {
  readonly #layout: EdgeRecordLayout;
  readonly #arrays: EdgeArrays;
  /** Values taken so far. */
  count = 0;
  /** The largest string index named by an edge, -1 while none is. */
  maxName = -1;

  constructor(layout: EdgeRecordLayout, arrays: EdgeArrays) {
    this.#layout = layout;
    this.#arrays = arrays;
  }

  /**
   * Stores the whole records among `n` batched values (`offsets`: their file offsets). A batch holds
   * whole records only (BATCH_VALUES is a multiple of any usual field count); a short last record is
   * left for `close` to report as a wrong count.
   */
  take(batch: Float64Array, offsets: Float64Array, n: number): EdgeProblem | undefined {
    const l = this.#layout;
    const room = l.edgeCount * l.fields - this.count;
    if (n > room) return { reason: `"edges" has more values than edge_count ${l.edgeCount} × ${l.fields} fields`, offset: offsets[room]! };
    const { fields, typeAt, nameAt, targetAt, typeLimit, nodeFields } = l;
    const targetLimit = l.nodeCount * nodeFields;
    const { type: edgeType, name: edgeName, target: edgeTarget } = this.#arrays;
    let maxName = this.maxName;
    let edge = this.count / fields;
    for (let j = 0; j + fields <= n; j += fields, edge++) {
      const type = batch[j + typeAt]!;
      const name = batch[j + nameAt]!;
      const to = batch[j + targetAt]!;
      if (!(type >= 0 && type < typeLimit)) return { reason: `edge type ${type} is not in meta.edge_types`, offset: offsets[j + typeAt]! };
      if (name < 0 || name > 0xffffffff) return { reason: `edge name_or_index ${name} is out of range`, offset: offsets[j + nameAt]! };
      const target = (to / nodeFields) >>> 0;
      if (!(to >= 0 && to < targetLimit) || target * nodeFields !== to) {
        return { reason: `edge ${edge} points to node offset ${to}, outside the ${l.nodeCount} nodes`, offset: offsets[j + targetAt]! };
      }
      if (name > maxName && namesString(l, type)) maxName = name;
      edgeType[edge] = type;
      edgeName[edge] = name;
      edgeTarget[edge] = target;
    }
    this.maxName = maxName;
    this.count += n;
    return undefined;
  }

  /** At the array's closing ']' (file offset `at`): a problem when the values are not edge_count records. */
  close(at: number): EdgeProblem | undefined {
    const l = this.#layout;
    const expected = l.edgeCount * l.fields;
    if (this.count === expected) return undefined;
    return { reason: `"edges" has ${this.count} values, expected ${expected} (edge_count ${l.edgeCount} × ${l.fields} fields)`, offset: at };
  }
}
