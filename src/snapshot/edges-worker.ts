// The edges worker: finds the `"edges"` array after the snapshot's header and parses it into the shared
// edge arrays while the main thread parses nodes, strings and the rest (parallel-edges.ts drives it).
// It says where the array starts as soon as it knows (control[STATE] / found[0], with Atomics, so the
// main thread can read it synchronously), then posts one EdgeRangeResult, or nothing when stopped.

import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { EdgeRangeStopped, parseEdgeRange } from './edge-range.js';
import { isSpace } from './json-string.js';
import { SearchState, STATE, STOP, type EdgesWorkerData } from './edges-protocol.js';

const KEY = Buffer.from('"edges"');
const SEARCH_BYTES = 1024 * 1024; // see DEFAULT_CHUNK_BYTES in parse.ts

/**
 * The offset just past the '[' of `"edges": [`, or -1. In V8's order (header, nodes, edges, …, strings)
 * the first `"edges"` after the header is the key: `nodes` holds only numbers. A file in another order
 * may show the word as a string first (`"edges",`): that is -1, and the main thread parses the edges.
 */
function findEdgesStart(fd: number, from: number, stopped: () => boolean): number {
  const buffer = Buffer.allocUnsafe(SEARCH_BYTES);
  let position = from;
  for (;;) {
    if (stopped()) return -1;
    const read = readSync(fd, buffer, 0, buffer.length, position);
    if (read < KEY.length) return -1;
    const at = buffer.subarray(0, read).indexOf(KEY);
    if (at >= 0) return afterOpenBracket(fd, position + at + KEY.length);
    position += read - (KEY.length - 1); // the key may straddle two reads
  }
}

function afterOpenBracket(fd: number, position: number): number {
  const bytes = Buffer.alloc(256);
  const read = readSync(fd, bytes, 0, bytes.length, position);
  let i = 0;
  while (i < read && isSpace(bytes[i])) i++;
  if (bytes[i++] !== 0x3a) return -1; // ':'
  while (i < read && isSpace(bytes[i])) i++;
  if (i >= read || bytes[i] !== 0x5b) return -1; // '['
  return position + i + 1;
}

function run(data: EdgesWorkerData): void {
  const control = new Int32Array(data.control);
  const found = new Float64Array(data.found);
  const stopped = (): boolean => Atomics.load(control, STOP) !== 0;
  const announce = (state: SearchState): void => {
    Atomics.store(control, STATE, state);
    Atomics.notify(control, STATE);
  };
  let fd = -1;
  try {
    fd = openSync(data.path, 'r');
    const start = findEdgesStart(fd, data.searchFrom, stopped);
    if (start < 0) {
      announce(SearchState.NotFound);
      return;
    }
    found[0] = start;
    announce(SearchState.Found);
    const arrays = { type: new Uint8Array(data.type), name: new Uint32Array(data.name), target: new Uint32Array(data.target) };
    parentPort!.postMessage(parseEdgeRange(fd, start, data.layout, arrays, stopped));
    announce(SearchState.Done);
  } catch (e) {
    if (Atomics.load(control, STATE) === SearchState.Searching) announce(SearchState.NotFound);
    if (!(e instanceof EdgeRangeStopped)) throw e;
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

run(workerData as EdgesWorkerData);
