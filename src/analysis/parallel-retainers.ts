// The retainer index built on a second thread while this one computes distances (both read the edge
// mask; neither needs the other). Only for graphs whose edge arrays are shared memory, as the parser
// leaves them when it parsed edges on a second thread (large files: parallel-edges.ts). The analysis
// getters are synchronous, so the result is waited for with Atomics and read with receiveMessageOnPort.
// Any trouble (no thread, a failure, no answer in time) and the caller builds the index itself.

import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { HeapGraph } from '../snapshot/heap-graph.js';
import type { RetainerIndex } from './retainer-index.js';
import type { Scratch } from './scratch.js';
import { JobState, STATE, type RetainersJob } from './retainers-protocol.js';

/**
 * Below this many edges the thread costs about what it saves: its start-up (~50 ms, code cold) against
 * the index it builds (on a 2.6M-edge heap the main thread waited 87 ms for an index it builds in 78 ms).
 * On a 306 MB file (10.6M edges) it saves ~0.4 s at no cost in peak RSS, with one malloc arena (the
 * relaunched CLI's glibc.malloc.arena_max=1, relaunch.ts); without it the worker's arena left ~15 MB more
 * resident. LEAKHUNT_RETAINERS_MIN_EDGES overrides it (tests reach the threaded path on small heaps with it).
 */
export const PARALLEL_MIN_EDGES = 4_000_000;

/** LEAKHUNT_RETAINERS_MIN_EDGES when set to a number, else PARALLEL_MIN_EDGES. */
function minEdges(): number {
  const env = process.env['LEAKHUNT_RETAINERS_MIN_EDGES'];
  return env !== undefined && Number.isFinite(Number(env)) ? Number(env) : PARALLEL_MIN_EDGES;
}

/** Longest wait for the worker to start running. */
const START_WAIT_MS = 5000;

export class RetainersJobHandle {
  readonly #worker: Worker;
  readonly #control: Int32Array;
  readonly #port: MessagePort;
  readonly #edgeCount: number;

  private constructor(worker: Worker, control: Int32Array, port: MessagePort, edgeCount: number) {
    this.#worker = worker;
    this.#control = control;
    this.#port = port;
    this.#edgeCount = edgeCount;
  }

  /**
   * Starts the worker before the mask exists (its start-up then overlaps computing the mask; `submit`
   * hands it over), or undefined when the graph is under `least` edges, its arrays are not shared
   * memory (a one-thread parse), or no thread can be had.
   */
  static start(graph: HeapGraph, least = minEdges()): RetainersJobHandle | undefined {
    if (graph.edgeCount < least || !(graph.firstEdge.buffer instanceof SharedArrayBuffer) || !(graph.edgeTarget.buffer instanceof SharedArrayBuffer)) {
      return undefined;
    }
    const control = new Int32Array(new SharedArrayBuffer(4));
    const { port1, port2 } = new MessageChannel();
    const job: RetainersJob = {
      nodeCount: graph.nodeCount,
      firstEdge: graph.firstEdge.buffer as SharedArrayBuffer,
      edgeTarget: graph.edgeTarget.buffer as SharedArrayBuffer,
      control: control.buffer as SharedArrayBuffer,
      port: port2,
    };
    let worker: Worker;
    try {
      worker = new Worker(new URL('./retainers-worker.js', import.meta.url), {
        workerData: job, transferList: [port2], stdout: false, stderr: false,
      });
    } catch {
      port1.close();
      return undefined;
    }
    worker.unref();
    worker.on('error', () => undefined); // read through control: Failed, or no answer
    return new RetainersJobHandle(worker, control, port1, graph.edgeCount);
  }

  /** The mask to build the index over (on a SharedArrayBuffer). */
  submit(mask: Uint8Array): void {
    this.#port.postMessage({ mask: mask.buffer });
  }

  /**
   * The index, once the worker has it (blocks); undefined when the caller must build it itself. The
   * worker's spare buffers join `scratch`.
   */
  take(scratch: Scratch): RetainerIndex | undefined {
    const control = this.#control;
    try {
      for (const waiting of [JobState.Starting, JobState.Waiting]) {
        if (Atomics.load(control, STATE) === waiting) Atomics.wait(control, STATE, waiting, START_WAIT_MS);
      }
      // Generous: the work is a few hundred ms per 10 million edges; a worker that died without a word
      // (it catches every exception) must not hang the analysis.
      const limit = 30_000 + this.#edgeCount / 1000;
      if (Atomics.load(control, STATE) === JobState.Running) Atomics.wait(control, STATE, JobState.Running, limit);
      if (Atomics.load(control, STATE) !== JobState.Done) return undefined;
      const answer = receiveMessageOnPort(this.#port)?.message as { index?: RetainerIndex; spare?: Uint8Array[] } | undefined;
      if (answer?.spare) scratch.give(...answer.spare);
      return answer?.index;
    } finally {
      this.#port.close();
      void this.#worker.terminate();
    }
  }
}
