// The snapshot's `trace_tree` (allocation tracking's call tree) as flat typed arrays: per trace node its
// V8 id, its function (an index into `trace_function_infos`) and its parent. Read by a byte scanner, never
// JSON.parse: parsed as JSON a tree costs ~30× its bytes in JS objects (trace-tree.ts), this costs 12
// bytes per node, and every node takes at least 11 bytes of the file (`1,0,0,0,[],`), so the arrays are
// sized from the byte length once and never grow. Layout as `snapshot.meta.trace_node_fields` says for
// every V8 we read: `[id, function_info_index, count, size, [children…], id, …]`.

import { SnapshotFormatError } from '../errors.js';

export interface TraceNodes {
  readonly count: number;
  /** V8's trace node id (what a heap node's `trace_node_id` names), per trace node. */
  readonly id: Uint32Array;
  /** Index into `trace_function_infos` (one record per function), per trace node. */
  readonly functionInfo: Uint32Array;
  /** The caller's trace node index, or -1 for the tree's root. */
  readonly parent: Int32Array;
  /** The index of the trace node with V8 id `id`, or -1. */
  indexOfId(id: number): number;
}

/** Fields per trace node record; the fifth is the children array. */
const FIELDS = 5;
const MIN_NODE_BYTES = 11;
const ZERO = 0x30, NINE = 0x39, OPEN = 0x5b, CLOSE = 0x5d, COMMA = 0x2c;

/** Scans the tree's bytes, given in pieces by `read` (undefined at the end); `label` and `offset` for errors. */
export function scanTraceNodes(read: () => Uint8Array | undefined, byteLength: number, label: string, offset: number): TraceNodes {
  const capacity = Math.ceil(byteLength / MIN_NODE_BYTES) + 1;
  const id = new Uint32Array(capacity);
  const functionInfo = new Uint32Array(capacity);
  const parent = new Int32Array(capacity);
  const fail = (why: string, at: number): never => {
    throw new SnapshotFormatError(label, `"trace_tree" ${why}`, offset + at);
  };
  // One entry per open array: the node whose children it holds (-1 for the top list) and which field of
  // the current record comes next in it.
  const owners: number[] = [];
  const fieldAt: number[] = [];
  let count = 0, value = 0, digits = 0, pos = 0, ended = false;
  const endNumber = (at: number): void => {
    if (digits === 0) return;
    const depth = owners.length - 1;
    if (depth < 0) fail('has a number outside its arrays', at);
    const field = fieldAt[depth]!;
    if (field === 0) {
      if (count >= capacity) fail('has more nodes than its bytes can hold', at);
      id[count] = value;
      parent[count] = owners[depth]!;
      count++;
    } else if (field === 1) functionInfo[count - 1] = value;
    else if (field === 4) fail('has a number where a children array belongs', at);
    fieldAt[depth] = (field + 1) % FIELDS;
    value = 0;
    digits = 0;
  };
  for (let chunk = read(); chunk !== undefined; chunk = read()) {
    for (let i = 0; i < chunk.length; i++, pos++) {
      const b = chunk[i]!;
      if (b >= ZERO && b <= NINE) {
        value = value * 10 + (b - ZERO);
        if (++digits > 10) fail('has a number too long for a 32-bit id', pos);
      } else if (b === OPEN) {
        if (ended) fail('has bytes after its end', pos);
        const depth = owners.length - 1;
        if (depth >= 0 && fieldAt[depth] !== 4) fail('has an array where a number belongs', pos);
        if (depth >= 0) fieldAt[depth] = 0;
        owners.push(depth < 0 ? -1 : count - 1);
        fieldAt.push(0);
      } else if (b === CLOSE) {
        endNumber(pos);
        if (owners.length === 0) fail('closes an array it never opened', pos);
        if (fieldAt[fieldAt.length - 1] !== 0) fail('ends a node record early', pos);
        owners.pop();
        fieldAt.pop();
        if (owners.length === 0) ended = true;
      } else if (b === COMMA) {
        endNumber(pos);
      } else if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) {
        fail(`has an unexpected byte 0x${b.toString(16)}`, pos);
      }
    }
  }
  if (!ended) fail('ends inside an array', pos);
  // V8 hands out trace node ids from 1 upwards: a table by id is as small as the tree.
  let maxId = 0;
  for (let k = 0; k < count; k++) if (id[k]! > maxId) maxId = id[k]!;
  const byId = maxId <= 4 * count + 16 ? new Int32Array(maxId + 1).fill(-1) : undefined;
  const map = byId === undefined ? new Map<number, number>() : undefined;
  for (let k = 0; k < count; k++) {
    if (byId) byId[id[k]!] = k;
    else map!.set(id[k]!, k);
  }
  return {
    count,
    id: id.subarray(0, count),
    functionInfo: functionInfo.subarray(0, count),
    parent: parent.subarray(0, count),
    indexOfId: (traceId: number): number => (byId ? (byId[traceId] ?? -1) : (map!.get(traceId) ?? -1)),
  };
}
