// Shared between the main thread and the retainer-index worker (parallel-retainers.ts, retainers-worker.ts).

import type { MessagePort } from 'node:worker_threads';

export interface RetainersJob {
  readonly nodeCount: number;
  readonly firstEdge: SharedArrayBuffer;
  readonly edgeTarget: SharedArrayBuffer;
  /** Int32Array: [STATE]. */
  readonly control: SharedArrayBuffer;
  /** Brings `{ mask }` (a SharedArrayBuffer); takes back `{ index }` (read with receiveMessageOnPort). */
  readonly port: MessagePort;
}

export const STATE = 0;
/** Starting: the thread boots; Waiting: for the mask; Running: building; then Done or Failed. */
export const enum JobState { Starting = 0, Waiting = 1, Running = 2, Done = 3, Failed = 4 }
