// The `edges` array parsed on its own, from the byte after its '[' to its ']', with blocking reads:
// what the edges worker runs while the main thread parses everything else (and what the main thread
// runs itself should the worker die). Same scanner, same checks and messages as the streaming parser.

import { readSync } from 'node:fs';
import { EdgeFiller, type EdgeArrays, type EdgeRecordLayout } from './edge-records.js';
import { BATCH_VALUES, createIntegerScanState, describeScanError, scanIntegers, ScanStatus } from './integer-scanner.js';

const CLOSE_BRACKET = 0x5d;
const READ_BYTES = 1024 * 1024; // see DEFAULT_CHUNK_BYTES in parse.ts

export type EdgeRangeResult =
  | {
    readonly ok: true;
    /** File offset of the closing ']'. */
    readonly end: number;
    /** The largest string index an edge names (EdgeFiller.maxName). */
    readonly maxName: number;
  }
  | { readonly ok: false; readonly reason: string; readonly offset: number };

/** Thrown out of parseEdgeRange when `stopped()` turns true (the main thread no longer wants the edges). */
export class EdgeRangeStopped extends Error {}

/** `start`: the file offset just past the array's '['. */
export function parseEdgeRange(
  fd: number, start: number, layout: EdgeRecordLayout, arrays: EdgeArrays, stopped: () => boolean = () => false,
): EdgeRangeResult {
  const st = createIntegerScanState(BATCH_VALUES);
  const filler = new EdgeFiller(layout, arrays);
  const buffer = Buffer.allocUnsafe(READ_BYTES);
  let position = start;
  for (;;) {
    if (stopped()) throw new EdgeRangeStopped();
    const read = readSync(fd, buffer, 0, buffer.length, position);
    if (read === 0) {
      const expected = layout.edgeCount * layout.fields;
      return {
        ok: false,
        reason: `file ends early (inside "edges" after ${filler.count + st.length} of ${expected} values)`,
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
      const problem = filler.take(st.batch, st.offsets, st.length);
      if (problem) return { ok: false, ...problem };
      st.length = 0;
      if (st.status === ScanStatus.Closed) {
        const end = position + i - 1;
        if (buffer[i - 1] !== CLOSE_BRACKET) throw new Error('edge range: scanner closed away from a bracket');
        const wrong = filler.close(end);
        return wrong ? { ok: false, ...wrong } : { ok: true, end, maxName: filler.maxName };
      }
    }
    position += read;
  }
}
