// The snapshot's `trace_tree` (allocation tracking's call tree), parsed only when asked for: as JSON for
// the API (`HeapGraph.extras.traceTree`), and as flat arrays (`extras.traceNodes`, trace-nodes.ts) for
// allocation sites (src/analysis/allocation-stacks.ts), read in 1 MiB pieces. Parsing it while reading
// the file cost ~30× its size in JS objects (a 21 MB file of `[[],[],…]` took 615 MB and 11 s; a larger
// one runs V8 out of heap), so the parser only notes where it is: in the file, or its bytes when the
// snapshot came from memory. A tree that is not valid JSON is a SnapshotFormatError when it is read.

import { closeSync, openSync, readSync } from 'node:fs';
import { SnapshotFormatError } from '../errors.js';
import { scanTraceNodes, type TraceNodes } from './trace-nodes.js';

export type TraceTreeSource =
  | { readonly file: string; readonly offset: number; readonly length: number }
  | { readonly bytes: Buffer; readonly offset: number };

const PIECE_BYTES = 1 << 20;

/**
 * Defines `traceTree` (parsed JSON) and `traceNodes` (flat arrays) on `extras` as getters that read the
 * tree on first use and keep what they read.
 */
export function defineTraceTree(extras: object, source: TraceTreeSource, label: string): void {
  let parsed: { value: unknown } | undefined;
  let nodes: TraceNodes | undefined;
  Object.defineProperty(extras, 'traceTree', {
    enumerable: true,
    get(): unknown {
      parsed ??= { value: parseTree(source, label) };
      return parsed.value;
    },
  });
  Object.defineProperty(extras, 'traceNodes', {
    enumerable: false,
    get(): TraceNodes {
      nodes ??= readTraceNodes(source, label);
      return nodes;
    },
  });
}

function readTraceNodes(source: TraceTreeSource, label: string): TraceNodes {
  if ('bytes' in source) {
    let given = false;
    const read = (): Uint8Array | undefined => (given ? undefined : ((given = true), source.bytes));
    return scanTraceNodes(read, source.bytes.length, label, source.offset);
  }
  let done = 0;
  const read = (): Uint8Array | undefined => {
    if (done >= source.length) return undefined;
    const piece = readRange(source.file, source.offset + done, Math.min(PIECE_BYTES, source.length - done));
    done += piece.length;
    return piece;
  };
  return scanTraceNodes(read, source.length, source.file, source.offset);
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
