// The `edges` array parsed on its own, from the byte after its '[' to its ']', with blocking reads:
// what the edges worker runs while the main thread parses everything else (and what the main thread
// runs itself should the worker die). Same scanner, same checks and messages as the streaming parser.

import { readSync } from 'node:fs';
import { storeEdges, tooManyEdgeValues, wrongEdgeValueCount, type EdgeArrays, type EdgeRecordLayout } from './edge-records.js';
import { BATCH_VALUES, createIntegerScanState, describeScanError, scanIntegers, ScanStatus } from './integer-scanner.js';

const CLOSE_BRACKET = 0x5d;
const READ_BYTES = 4 * 1024 * 1024;

export type EdgeRangeResult =
  | { readonly ok: true; /** File offset of the closing ']'. */ readonly end: number }
  | { readonly ok: false; readonly reason: string; readonly offset: number };

/** Thrown out of parseEdgeRange when `stopped()` turns true (the main thread no longer wants the edges). */
export class EdgeRangeStopped extends Error {}

/** `start`: the file offset just past the array's '['. */
export function parseEdgeRange(
  fd: number, start: number, layout: EdgeRecordLayout, arrays: EdgeArrays, stopped: () => boolean = () => false,
): EdgeRangeResult {
  const st = createIntegerScanState(BATCH_VALUES);
  const expected = layout.edgeCount * layout.fields;
  const problem = { reason: '' };
  const buffer = Buffer.allocUnsafe(READ_BYTES);
  let count = 0;
  let position = start;
  for (;;) {
    if (stopped()) throw new EdgeRangeStopped();
    const read = readSync(fd, buffer, 0, buffer.length, position);
    if (read === 0) {
      return {
        ok: false,
        reason: `file ends early (inside "edges" after ${count + st.length} of ${expected} values)`,
        offset: position,
      };
    }
    let i = 0;
    while (i < read) {
      i = scanIntegers(buffer, i, read, position, st);
      if (st.status === ScanStatus.NeedMore) break;
      if (st.status === ScanStatus.Error) {
        return { ok: false, reason: `${describeScanError(st.errorKind)} in "edges"`, offset: st.errorOffset };
      }
      const n = st.length;
      if (n > expected - count) return { ok: false, reason: tooManyEdgeValues(layout), offset: st.offsets[expected - count]! };
      const bad = storeEdges(st.batch, n, count / layout.fields, layout, arrays, problem);
      if (bad >= 0) return { ok: false, reason: problem.reason, offset: st.offsets[bad]! };
      count += n;
      st.length = 0;
      if (st.status === ScanStatus.Closed) {
        const end = position + i - 1;
        if (buffer[i - 1] !== CLOSE_BRACKET) throw new Error('edge range: scanner closed away from a bracket');
        if (count !== expected) return { ok: false, reason: wrongEdgeValueCount(count, layout), offset: end };
        return { ok: true, end };
      }
    }
    position += read;
  }
}
