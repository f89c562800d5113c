// The retainer index and the dominators computed on a second thread. The worker builds the index while
// this thread computes distances, then the dominators while this thread builds the class index and
// the self sizes (all read the edge mask; none needs another's result). Only for graphs whose edge
// arrays are shared memory, as the parser leaves them when it parsed edges on a second thread (large
// files: parallel-edges.ts). The analysis getters are synchronous, so results are waited for with Atomics and
// read with receiveMessageOnPort. Any trouble (no thread, a failure, no answer in time) and the caller
// computes what it did not get itself.

import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { HeapGraph } from '../snapshot/heap-graph.js';
import type { DominatorsInOrder } from './dominators.js';
import type { RetainerIndex } from './retainer-index.js';
import type { Scratch } from './scratch.js';
import { JobState, STATE, type DominatorsJobData } from './dominators-protocol.js';

/**
 * Below this many edges the thread costs about what it saves (its start-up, ~50 ms with its code cold,
 * against work the main thread does in ~0.1 s). Measured with the dominators on the thread, 6 runs
 * each, alternating: a 50 MB file (1.8M edges) ran in 1.27-1.43 s with it vs 1.34-1.72 s without (a
 * second series: 1.22-1.40 vs 1.34-1.59), +6 MiB peak; a 20 MB one (0.76M edges) gained nothing and
 * took +9 MiB. On a 306 MB file (10.6M edges) the index alone saved ~0.4 s at no cost in peak RSS, with
 * one malloc arena (the relaunched CLI's glibc.malloc.arena_max=1, relaunch.ts); without it the
 * worker's arena left ~15 MB more resident. LEAKHUNT_DOMINATORS_MIN_EDGES overrides it (tests reach the
 * threaded path on small heaps with it).
 */
export const PARALLEL_MIN_EDGES = 1_500_000;

/** LEAKHUNT_DOMINATORS_MIN_EDGES when set to a number, else PARALLEL_MIN_EDGES. */
function minEdges(): number {
  const env = process.env['LEAKHUNT_DOMINATORS_MIN_EDGES'];
  return env !== undefined && Number.isFinite(Number(env)) ? Number(env) : PARALLEL_MIN_EDGES;
}

/** Longest wait for the worker to start running. */
const START_WAIT_MS = 5000;

export class DominatorsJob {
  readonly #worker: Worker;
  readonly #control: Int32Array;
  readonly #port: MessagePort;
  readonly #edgeCount: number;
  #indexTaken = false;

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
  static start(graph: HeapGraph, least = minEdges()): DominatorsJob | undefined {
    if (graph.edgeCount < least || !(graph.firstEdge.buffer instanceof SharedArrayBuffer) || !(graph.edgeTarget.buffer instanceof SharedArrayBuffer)) {
      return undefined;
    }
    const control = new Int32Array(new SharedArrayBuffer(4));
    const { port1, port2 } = new MessageChannel();
    const data: DominatorsJobData = {
      nodeCount: graph.nodeCount,
      rootOrdinal: graph.rootOrdinal,
      firstEdge: graph.firstEdge.buffer as SharedArrayBuffer,
      edgeTarget: graph.edgeTarget.buffer as SharedArrayBuffer,
      control: control.buffer as SharedArrayBuffer,
      port: port2,
    };
    let worker: Worker;
    try {
      worker = new Worker(new URL('./dominators-worker.js', import.meta.url), {
        workerData: data, transferList: [port2], stdout: false, stderr: false,
      });
    } catch {
      port1.close();
      return undefined;
    }
    worker.unref();
    worker.on('error', () => undefined); // read through control: Failed, or no answer
    return new DominatorsJob(worker, control, port1, graph.edgeCount);
  }

  /** The mask to work over (on a SharedArrayBuffer). */
  submit(mask: Uint8Array): void {
    this.#port.postMessage({ mask: mask.buffer });
  }

  /**
   * The retainer index, once the worker has it (blocks); undefined when the caller must build it itself
   * (the job is then over: the dominators will not come either).
   */
  takeIndex(): RetainerIndex | undefined {
    if (this.#indexTaken) return undefined;
    this.#indexTaken = true;
    for (const waiting of [JobState.Starting, JobState.Waiting]) this.#waitWhile(waiting, START_WAIT_MS);
    this.#waitWhile(JobState.Running, this.#limitMs());
    const state = Atomics.load(this.#control, STATE);
    const answer = state === JobState.IndexReady || state === JobState.Done || state === JobState.Failed
      ? this.#receive<{ index?: RetainerIndex }>()
      : undefined;
    if (!answer?.index) this.stop();
    return answer?.index;
  }

  /**
   * The immediate dominators and their order (as computeDominatorsInOrder gives them), once the worker
   * has them (blocks; takes the index first if nobody did); undefined when the caller must compute them
   * itself. The worker's spare buffers join `scratch`. The job is over either way.
   */
  takeDominators(scratch: Scratch): DominatorsInOrder | undefined {
    try {
      if (!this.#indexTaken && this.takeIndex() === undefined) return undefined;
      this.#waitWhile(JobState.IndexReady, this.#limitMs());
      if (Atomics.load(this.#control, STATE) !== JobState.Done) return undefined;
      const answer = this.#receive<{ dominators?: Uint32Array; order?: Uint32Array; spare?: Uint8Array[] }>();
      if (answer?.spare) scratch.give(...answer.spare);
      return answer?.dominators && answer.order ? { dominators: answer.dominators, order: answer.order } : undefined;
    } finally {
      this.stop();
    }
  }

  /** Ends the job, wherever it is (safe to call more than once). */
  stop(): void {
    this.#port.close();
    void this.#worker.terminate();
  }

  /**
   * Generous: the work is under a second per 10 million edges; a worker that died without a word (it
   * catches every exception) must not hang the analysis.
   */
  #limitMs(): number {
    return 30_000 + this.#edgeCount / 1000;
  }

  #waitWhile(state: JobState, ms: number): void {
    if (Atomics.load(this.#control, STATE) === state) Atomics.wait(this.#control, STATE, state, ms);
  }

  #receive<T>(): T | undefined {
    return receiveMessageOnPort(this.#port)?.message as T | undefined;
  }
}
