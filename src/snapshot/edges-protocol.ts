// What the main thread and the edges worker share: the worker's start data and the layout of the small
// shared control arrays the main thread reads synchronously (parallel-edges.ts, edges-worker.ts).

import type { EdgeRecordLayout } from './edge-records.js';

export interface EdgesWorkerData {
  readonly path: string;
  /** Where to start looking for `"edges"`: the end of the `"snapshot"` header. */
  readonly searchFrom: number;
  readonly layout: EdgeRecordLayout;
  /** Int32Array: [STATE, STOP]. */
  readonly control: SharedArrayBuffer;
  /** Float64Array: [file offset just past the array's '['], valid once STATE is Found. */
  readonly found: SharedArrayBuffer;
  readonly type: SharedArrayBuffer;
  readonly name: SharedArrayBuffer;
  readonly target: SharedArrayBuffer;
}

/** control[STATE]: a SearchState. */
export const STATE = 0;
/** control[STOP]: set to 1 by the main thread when it no longer wants the worker's edges. */
export const STOP = 1;

/** Searching for the array, then Found (and parsing) or NotFound; Done once the worker has posted its result. */
export const enum SearchState { Searching = 0, Found = 1, NotFound = 2, Done = 3 }
