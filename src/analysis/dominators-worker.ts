// The dominators worker (parallel-dominators.ts): waits for the edge mask, builds the retainer index over
// the shared graph arrays and hands it back, then computes the immediate dominators (and their order)
// with it and hands those back too, saying how far it got in control[STATE] (the main thread waits
// there, blocked).

import { workerData, type MessagePort } from 'node:worker_threads';
import { computeDominatorsInOrder } from './dominators.js';
import { buildRetainerIndex } from './retainer-index.js';
import { Scratch } from './scratch.js';
import { JobState, STATE, type DominatorsJobData } from './dominators-protocol.js';

const job = workerData as DominatorsJobData;
const control = new Int32Array(job.control);
const port = job.port as MessagePort;
const announce = (state: JobState): void => {
  Atomics.store(control, STATE, state);
  Atomics.notify(control, STATE);
};

port.once('message', ({ mask: maskBuffer }: { mask: SharedArrayBuffer }) => {
  announce(JobState.Running);
  try {
    const mask = new Uint8Array(maskBuffer);
    const graph = {
      nodeCount: job.nodeCount,
      edgeCount: mask.length,
      rootOrdinal: job.rootOrdinal,
      firstEdge: new Uint32Array(job.firstEdge),
      edgeTarget: new Uint32Array(job.edgeTarget),
    };
    const scratch = new Scratch({ shared: true });
    const index = buildRetainerIndex(graph, mask, scratch, true);
    port.postMessage({ index });
    announce(JobState.IndexReady);
    const { dominators, order } = computeDominatorsInOrder(graph, mask, scratch, index);
    // Its temporaries go back to the main thread's pool, where later phases reuse them (as they would
    // have, had the dominators been computed there).
    port.postMessage({ dominators, order, spare: scratch.drain() });
    announce(JobState.Done);
  } catch {
    announce(JobState.Failed); // the main thread computes what it did not get
  }
});
announce(JobState.Waiting);
