// The snapshot's `trace_tree` (allocation tracking's call tree), parsed only when asked for. Nothing in
// leakhunt reads it; it is kept for the API (`HeapGraph.extras.traceTree`). Parsing it while reading
// the file cost ~30× its size in JS objects (a 21 MB file of `[[],[],…]` took 615 MB and 11 s; a larger
// one runs V8 out of heap), so the parser only notes where it is: in the file, or its bytes when the
// snapshot came from memory. A tree that is not valid JSON is a SnapshotFormatError when it is read.

import { closeSync, openSync, readSync } from 'node:fs';
import { SnapshotFormatError } from '../errors.js';

export type TraceTreeSource =
  | { readonly file: string; readonly offset: number; readonly length: number }
  | { readonly bytes: Buffer; readonly offset: number };

/** Defines `traceTree` on `extras` as a getter that parses the tree on first use and keeps it. */
export function defineTraceTree(extras: object, source: TraceTreeSource, label: string): void {
  let parsed: { value: unknown } | undefined;
  Object.defineProperty(extras, 'traceTree', {
    enumerable: true,
    get(): unknown {
      parsed ??= { value: parseTree(source, label) };
      return parsed.value;
    },
  });
}

function parseTree(source: TraceTreeSource, label: string): unknown {
  const bytes = 'bytes' in source ? source.bytes : readRange(source.file, source.offset, source.length);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new SnapshotFormatError(label, '"trace_tree" is not valid JSON', source.offset);
  }
}

function readRange(file: string, offset: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  let read = 0;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    throw new SnapshotFormatError(file, `"trace_tree" cannot be read back (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`, offset);
  }
  try {
    while (read < length) {
      const n = readSync(fd, bytes, read, length - read, offset + read);
      if (n === 0) break;
      read += n;
    }
  } finally {
    closeSync(fd);
  }
  if (read < length) throw new SnapshotFormatError(file, '"trace_tree" cannot be read back: the file is shorter than when it was parsed', offset + read);
  return bytes;
}
