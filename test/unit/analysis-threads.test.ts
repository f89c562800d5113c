// The retainer index and dominators computed on a second thread (parallel-dominators.ts) against the
// ones computed here, on a real snapshot whose arrays the two-thread parse left shared (the edge
// threshold lowered to 0). The whole analysis with and without threads, at the real thresholds:
// e2e/cli-analyze-threads.test.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSnapshotFile } from '../../src/snapshot/parse.js';
import { computeEssentialEdgeMask } from '../../src/analysis/essential-edges.js';
import { buildRetainerIndex } from '../../src/analysis/retainer-index.js';
import { computeDominatorsInOrder } from '../../src/analysis/dominators.js';
import { DominatorsJob } from '../../src/analysis/parallel-dominators.js';
import { Scratch } from '../../src/analysis/scratch.js';
import { removeSnapshots, takeSnapshot } from '../helpers/take-snapshot.js';

const same = (a: ArrayBufferView, b: ArrayBufferView): boolean =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

test('the retainer index and dominators from the worker equal those computed on this thread; its spare buffers join the pool', { timeout: 120_000 }, async () => {
  const path = await takeSnapshot('map-cache', { requests: 200 });
  try {
    const graph = await parseSnapshotFile(path, { threads: 2 });
    assert.ok(graph.firstEdge.buffer instanceof SharedArrayBuffer, 'the two-thread parse shares firstEdge');
    const mask = computeEssentialEdgeMask(graph, new Scratch(), true);
    assert.ok(mask.buffer instanceof SharedArrayBuffer);
    const job = DominatorsJob.start(graph, 0);
    assert.ok(job, 'a worker starts for a shared graph');
    job.submit(mask);
    const scratch = new Scratch();
    const theirs = job.takeIndex();
    assert.ok(theirs, 'the worker answered with the index');
    assert.ok(theirs.retainingNode.buffer instanceof SharedArrayBuffer);
    const ours = buildRetainerIndex(graph, mask);
    assert.ok(same(theirs.firstRetainer, ours.firstRetainer), 'firstRetainer');
    assert.ok(same(theirs.retainingNode, ours.retainingNode), 'retainingNode');
    assert.ok(same(theirs.retainingBits, ours.retainingBits), 'retainingBits');
    const theirs2 = job.takeDominators(scratch);
    assert.ok(theirs2, 'the worker answered with the dominators');
    // Semi-NCA's temporaries other than the order's pair: one pair (the retainer cursor became the dominators).
    assert.ok(scratch.pooledBytes >= 2 * 4 * graph.nodeCount, `the worker's temporaries came back to the pool (${scratch.pooledBytes} bytes)`);
    const ours2 = computeDominatorsInOrder(graph, mask, new Scratch(), ours);
    assert.equal(theirs2.dominators.length, graph.nodeCount);
    assert.ok(same(theirs2.dominators, ours2.dominators), 'dominators');
    assert.ok(same(theirs2.order, ours2.order), 'order');
  } finally {
    removeSnapshots([path]);
  }
});

test('no worker for a graph on unshared arrays (a one-thread parse)', { timeout: 120_000 }, async () => {
  const path = await takeSnapshot('control', { requests: 50 });
  try {
    const graph = await parseSnapshotFile(path, { threads: 1 });
    assert.equal(DominatorsJob.start(graph, 0), undefined);
  } finally {
    removeSnapshots([path]);
  }
});
