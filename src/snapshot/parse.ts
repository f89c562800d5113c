// Reading a `.heapsnapshot` file into a HeapGraph: opens the file, feeds it to the streaming parser
// in large chunks through one reused buffer, reports bytes read. Files of any size (over 2 GiB too):
// positions are plain numbers and no chunk is ever concatenated with the rest.

import { open, stat } from 'node:fs/promises';
import { SnapshotFormatError } from '../errors.js';
import type { HeapGraph } from './heap-graph.js';
import { SnapshotParser } from './snapshot-parser.js';

export interface ParseOptions {
  /** Called after each chunk with the bytes read so far and the file size. */
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Read size; the default suits files from kilobytes to gigabytes. */
  readonly chunkBytes?: number;
}

const DEFAULT_CHUNK_BYTES = 8 * 1024 * 1024;

export async function parseSnapshotFile(path: string, options: ParseOptions = {}): Promise<HeapGraph> {
  const totalBytes = await statSnapshotFile(path);
  const handle = await open(path, 'r').catch((e: NodeJS.ErrnoException) => {
    throw new SnapshotFormatError(path, describeOpenError(e));
  });
  try {
    const parser = new SnapshotParser({ fileLabel: path, longStringFile: path });
    const buffer = Buffer.allocUnsafe(Math.min(options.chunkBytes ?? DEFAULT_CHUNK_BYTES, Math.max(totalBytes, 1)));
    let position = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      parser.push(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
      position += bytesRead;
      options.onProgress?.(position, totalBytes);
    }
    return parser.finish();
  } finally {
    await handle.close();
  }
}

/** Parses an in-memory snapshot delivered as chunks (tests; stdin). Long strings stay in memory. */
export function parseSnapshotChunks(chunks: Iterable<Uint8Array>, label = '<memory>'): HeapGraph {
  const parser = new SnapshotParser({ fileLabel: label });
  for (const chunk of chunks) parser.push(chunk);
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
