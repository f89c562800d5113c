// Parsing `edges` on a second thread. `edges` is half of a snapshot's bytes; nodes, strings and the
// rest are the other half: with the edges worker (edges-worker.ts) filling shared edge arrays, the main
// thread only skips over them (a byte search for their ']'). The worker looks for the array as soon as
// the header is read; the main thread, on reaching it, checks the worker found the same offset, and
// parses the edges itself when it did not (or when the worker died).

import { Worker } from 'node:worker_threads';
import { parseEdgeRange, type EdgeRangeResult } from './edge-range.js';
import { edgeRecordLayout, type EdgeArrays, type EdgeRecordLayout } from './edge-records.js';
import { SearchState, STATE, STOP, type EdgesWorkerData } from './edges-protocol.js';
import type { SnapshotLayout } from './snapshot-meta.js';

/** Below this file size a second thread costs more to start (~30-50 ms) than it saves. */
export const PARALLEL_MIN_BYTES = 16 * 1024 * 1024;
/** How long the main thread waits, on reaching `edges`, for the worker to say where it found them. */
const CLAIM_WAIT_MS = 5000;
const PAGE_BYTES = 4096;

/** 'auto': a second thread for files of PARALLEL_MIN_BYTES and more, unless LEAKHUNT_PARSE_THREADS=1. */
export type ParseThreads = 'auto' | 1 | 2;

export function wantsEdgesThread(fileBytes: number, threads: ParseThreads = 'auto'): boolean {
  if (threads !== 'auto') return threads === 2;
  return process.env['LEAKHUNT_PARSE_THREADS'] !== '1' && fileBytes >= PARALLEL_MIN_BYTES;
}

/** The parser's side of the arrangement (SnapshotParser calls these). */
export interface EdgesElsewhere {
  /** The header is read: the (shared) arrays to fill and the offset where the header ends. */
  begin(layout: SnapshotLayout, arrays: EdgeArrays, headerEnd: number): void;
  /** At the first byte of the edges array: true when the other thread parses it from there. */
  claim(start: number): boolean;
}

export class EdgesThread implements EdgesElsewhere {
  readonly #path: string;
  readonly #control = new Int32Array(new SharedArrayBuffer(8));
  readonly #found = new Float64Array(new SharedArrayBuffer(8));
  #worker: Worker | undefined;
  #outcome: Promise<EdgeRangeResult | undefined> = Promise.resolve(undefined);
  #layout: EdgeRecordLayout | undefined;
  #arrays: EdgeArrays | undefined;
  #start = -1;

  constructor(path: string) {
    this.#path = path;
  }

  /** True once the worker owns the edges: the parser skipped them, result() has them. */
  get claimed(): boolean {
    return this.#start >= 0;
  }

  begin(layout: SnapshotLayout, arrays: EdgeArrays, headerEnd: number): void {
    if (this.#worker) return;
    const recordLayout = edgeRecordLayout(layout);
    const data: EdgesWorkerData = {
      path: this.#path,
      searchFrom: headerEnd,
      layout: recordLayout,
      control: this.#control.buffer as SharedArrayBuffer,
      found: this.#found.buffer as SharedArrayBuffer,
      type: arrays.type.buffer as SharedArrayBuffer,
      name: arrays.name.buffer as SharedArrayBuffer,
      target: arrays.target.buffer as SharedArrayBuffer,
    };
    let worker: Worker;
    try {
      worker = new Worker(new URL('./edges-worker.js', import.meta.url), { workerData: data, stdout: false, stderr: false });
    } catch {
      return; // no second thread to be had: the parser parses the edges itself
    }
    this.#worker = worker;
    this.#layout = recordLayout;
    this.#arrays = arrays;
    // undefined: the worker died without an answer (the edges are then parsed on this thread).
    this.#outcome = new Promise((resolve) => {
      worker.once('message', (result: EdgeRangeResult) => resolve(result));
      worker.once('error', () => resolve(undefined));
      worker.once('exit', () => resolve(undefined));
    });
  }

  claim(start: number): boolean {
    if (!this.#worker) return false;
    if (Atomics.load(this.#control, STATE) === SearchState.Searching) {
      Atomics.wait(this.#control, STATE, SearchState.Searching, CLAIM_WAIT_MS);
    }
    const state = Atomics.load(this.#control, STATE);
    if ((state === SearchState.Found || state === SearchState.Done) && this.#found[0] === start) {
      this.#start = start;
      return true;
    }
    this.stop();
    return false;
  }

  /**
   * The claimed edges, parsed: by the worker, or on this thread (reading `fd`) when it died. While it
   * waits, this thread first-touches the edge-array pages the worker has not reached yet.
   */
  async result(fd: number): Promise<EdgeRangeResult> {
    this.#touchAhead();
    const outcome = await this.#outcome;
    if (outcome) return outcome;
    await this.#worker?.terminate(); // it wrote its last value before dying; make sure it is gone
    return parseEdgeRange(fd, this.#start, this.#layout!, this.#arrays!);
  }

  /**
   * First-touched memory is most of what filling the arrays costs: touch theirs from the end backwards
   * while the worker fills them from the start. Each touch is a compare-and-swap of 0 with 0, so a value
   * the worker already stored stays as it is.
   */
  #touchAhead(): void {
    const arrays = this.#arrays;
    if (!arrays || this.#start < 0) return;
    for (const array of [arrays.target, arrays.name, arrays.type]) {
      for (let k = array.length - 1; k >= 0; k -= PAGE_BYTES / array.BYTES_PER_ELEMENT) {
        if (Atomics.load(this.#control, STATE) === SearchState.Done) return;
        Atomics.compareExchange(array, k, 0, 0);
      }
    }
  }

  /** Stops the worker, wherever it is (safe to call more than once). */
  stop(): void {
    Atomics.store(this.#control, STOP, 1);
    if (this.#worker) void this.#worker.terminate();
  }
}
