// Storing scanned `edges` values as edge records: the same checks and stores whether the main thread's
// streaming parser or the edges worker (edges-worker.ts) scanned them. A plain function over plain
// data, no throws: the caller turns a bad value into an error with its byte offset.

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
    nodeFields: layout.nodeFieldCount,
    nodeCount: layout.nodeCount,
    edgeCount: layout.edgeCount,
  };
}

/** Why a value was refused: set by storeEdges when it returns a batch index. */
export interface EdgeProblem {
  reason: string;
}

/**
 * Stores the whole records among `n` batched values as edges `edge`, `edge + 1`, …. Returns -1, or the
 * batch index of the first bad value (with `problem.reason` set); edges before it are stored.
 */
export function storeEdges(
  batch: Float64Array, n: number, edge: number, l: EdgeRecordLayout, arrays: EdgeArrays, problem: EdgeProblem,
): number {
  const { fields, typeAt, nameAt, targetAt, typeLimit, nodeFields } = l;
  const targetLimit = l.nodeCount * nodeFields;
  const edgeType = arrays.type;
  const edgeName = arrays.name;
  const edgeTarget = arrays.target;
  for (let j = 0; j + fields <= n; j += fields, edge++) {
    const type = batch[j + typeAt]!;
    const name = batch[j + nameAt]!;
    const to = batch[j + targetAt]!;
    if (!(type >= 0 && type < typeLimit)) {
      problem.reason = `edge type ${type} is not in meta.edge_types`;
      return j + typeAt;
    }
    if (name < 0 || name > 0xffffffff) {
      problem.reason = `edge name_or_index ${name} is out of range`;
      return j + nameAt;
    }
    const target = (to / nodeFields) >>> 0;
    if (!(to >= 0 && to < targetLimit) || target * nodeFields !== to) {
      problem.reason = `edge ${edge} points to node offset ${to}, outside the ${l.nodeCount} nodes`;
      return j + targetAt;
    }
    edgeType[edge] = type;
    edgeName[edge] = name;
    edgeTarget[edge] = target;
  }
  return -1;
}

export function tooManyEdgeValues(l: EdgeRecordLayout): string {
  return `"edges" has more values than edge_count ${l.edgeCount} × ${l.fields} fields`;
}

export function wrongEdgeValueCount(count: number, l: EdgeRecordLayout): string {
  return `"edges" has ${count} values, expected ${l.edgeCount * l.fields} (edge_count ${l.edgeCount} × ${l.fields} fields)`;
}
