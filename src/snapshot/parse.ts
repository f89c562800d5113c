// Reading a `.heapsnapshot` file into a HeapGraph: opens the file, feeds it to the streaming parser
// in 1 MiB chunks through two reused buffers (one read ahead), reports bytes read; large files get a
// second thread for `edges` (parallel-edges.ts). Files of any size (over 2 GiB too):
// positions are plain numbers and no chunk is ever concatenated with the rest.

import { open, stat, type FileHandle } from 'node:fs/promises';
import { SnapshotFormatError } from '../errors.js';
import type { HeapGraph } from './heap-graph.js';
import { EdgesThread, wantsEdgesThread, type ParseThreads } from './parallel-edges.js';
import { SnapshotParser } from './snapshot-parser.js';

export interface ParseOptions {
  /** Called after each chunk with the bytes read so far and the file size. */
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Read size; the default suits files from kilobytes to gigabytes. */
  readonly chunkBytes?: number;
  /** 2: parse `edges` on a second thread; 'auto' (default): when the file is large enough (parallel-edges.ts). */
  readonly threads?: ParseThreads;
}

/**
 * Every read buffer is fresh memory (two here, two in the edges worker: edge-range.ts, edges-worker.ts),
 * and larger reads are no faster: measured on a 50 MB file, 1 MiB reads instead of 8 MiB (4 MiB in the
 * worker) touched ~20 MiB less and ran ~50 ms faster; no difference on a 306 MB one.
 */
const DEFAULT_CHUNK_BYTES = 1024 * 1024;

export async function parseSnapshotFile(path: string, options: ParseOptions = {}): Promise<HeapGraph> {
  const totalBytes = await statSnapshotFile(path);
  const handle = await open(path, 'r').catch((e: NodeJS.ErrnoException) => {
    throw new SnapshotFormatError(path, describeOpenError(e));
  });
  const edges = wantsEdgesThread(totalBytes, options.threads) ? new EdgesThread(path) : undefined;
  try {
    const parser = new SnapshotParser({ fileLabel: path, longStringFile: path, edgesElsewhere: edges, fileBytes: totalBytes });
    let failure: unknown;
    try {
      await feed(handle, parser, totalBytes, options);
    } catch (e) {
      failure = e;
    }
    if (edges && parser.edgesParsedElsewhere && (failure === undefined || failure instanceof SnapshotFormatError)) {
      const result = await edges.result(handle.fd);
      if (result.ok) {
        if (failure === undefined) parser.acceptEdges(result.end, result.maxName);
      } else if (failure === undefined || (failure.byteOffset ?? Infinity) >= result.offset) {
        failure = new SnapshotFormatError(path, result.reason, result.offset); // the first problem in the file
      }
    }
    if (failure !== undefined) throw failure;
    return parser.finish();
  } finally {
    edges?.stop();
    await handle.close();
  }
}

/**
 * Reads the file in chunks into the parser, the next read under way while a chunk is parsed (two
 * buffers, taking turns).
 */
async function feed(handle: FileHandle, parser: SnapshotParser, totalBytes: number, options: ParseOptions): Promise<void> {
  const size = Math.min(options.chunkBytes ?? DEFAULT_CHUNK_BYTES, Math.max(totalBytes, 1));
  const buffers = [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)] as const;
  let turn = 0;
  let position = 0;
  let next = handle.read(buffers[0], 0, size, 0);
  try {
    for (;;) {
      const { bytesRead } = await next;
      if (bytesRead === 0) return;
      const chunk = buffers[turn]!;
      position += bytesRead;
      turn = 1 - turn;
      next = handle.read(buffers[turn]!, 0, size, position);
      parser.push(bytesRead === size ? chunk : chunk.subarray(0, bytesRead));
      options.onProgress?.(position, totalBytes);
    }
  } finally {
    await next.catch(() => undefined); // never leave a read running into a buffer or a closed file
  }
}

/**
 * Parses an in-memory snapshot delivered as chunks (tests). Long strings stay in memory. The chunks are
 * all in hand first: the parser checks the header's counts against the total size before it allocates.
 */
export function parseSnapshotChunks(chunks: Iterable<Uint8Array>, label = '<memory>'): HeapGraph {
  const all = Array.from(chunks);
  const parser = new SnapshotParser({ fileLabel: label, fileBytes: all.reduce((sum, c) => sum + c.length, 0) });
  for (const chunk of all) parser.push(chunk);
  return parser.finish();
}

async function statSnapshotFile(path: string): Promise<number> {
  let info;
  try {
    info = await stat(path);
  } catch (e) {
    throw new SnapshotFormatError(path, describeOpenError(e as NodeJS.ErrnoException));
  }
  if (info.isDirectory()) throw new SnapshotFormatError(path, 'is a directory, not a heap snapshot file');
  if (!info.isFile()) throw new SnapshotFormatError(path, 'is not a regular file');
  if (info.size === 0) throw new SnapshotFormatError(path, 'empty file', 0);
  return info.size;
}

function describeOpenError(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ENOENT': return 'no such file';
    case 'EACCES': case 'EPERM': return 'permission denied';
    case 'EISDIR': return 'is a directory, not a heap snapshot file';
    default: return `cannot read (${e.code ?? e.message})`;
  }
}
