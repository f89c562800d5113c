// The retainer-index worker (parallel-retainers.ts): waits for the edge mask, builds the index over the
// shared graph arrays, hands it back on its port, and says so in control[STATE] (the main thread
// waits there, blocked).

import { workerData, type MessagePort } from 'node:worker_threads';
import { buildRetainerIndex } from './retainer-index.js';
import { Scratch } from './scratch.js';
import { JobState, STATE, type RetainersJob } from './retainers-protocol.js';

const job = workerData as RetainersJob;
const control = new Int32Array(job.control);
const port = job.port as MessagePort;
const announce = (state: JobState): void => {
  Atomics.store(control, STATE, state);
  Atomics.notify(control, STATE);
};

port.once('message', ({ mask }: { mask: SharedArrayBuffer }) => {
  announce(JobState.Running);
  try {
    const graph = { nodeCount: job.nodeCount, firstEdge: new Uint32Array(job.firstEdge), edgeTarget: new Uint32Array(job.edgeTarget) };
    const scratch = new Scratch({ shared: true });
    const index = buildRetainerIndex(graph, new Uint8Array(mask), scratch, true);
    // Its temporaries go back to the main thread's pool, where later phases reuse them (as they would
    // have, had the index been built there).
    port.postMessage({ index, spare: scratch.drain() });
    announce(JobState.Done);
  } catch {
    announce(JobState.Failed); // the main thread builds the index itself
  }
});
announce(JobState.Waiting);
