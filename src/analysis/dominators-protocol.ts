// Shared between the main thread and the dominators worker (parallel-dominators.ts, dominators-worker.ts).

import type { MessagePort } from 'node:worker_threads';

export interface DominatorsJobData {
  readonly nodeCount: number;
  readonly rootOrdinal: number;
  readonly firstEdge: SharedArrayBuffer;
  readonly edgeTarget: SharedArrayBuffer;
  /** Int32Array: [STATE]. */
  readonly control: SharedArrayBuffer;
  /**
   * Brings `{ mask }` (a SharedArrayBuffer); takes back `{ index }` and then `{ dominators, order, spare }`
   * (read with receiveMessageOnPort, in that order).
   */
  readonly port: MessagePort;
}

export const STATE = 0;
/**
 * Starting: the thread boots; Waiting: for the mask; Running: building the retainer index; IndexReady:
 * the index is posted and the dominators are under way; then Done (both posted) or Failed (whatever
 * was not posted yet, the main thread computes itself).
 */
export const enum JobState { Starting = 0, Waiting = 1, Running = 2, IndexReady = 3, Done = 4, Failed = 5 }
