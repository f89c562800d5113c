// The retainer index and dominators computed on a second thread (parallel-dominators.ts) against the
// ones computed here, on a real snapshot whose arrays the two-thread parse left shared (the edge
// threshold lowered to 0). The
// whole analysis with and without threads, at the real thresholds: e2e/cli-analyze-threads.test.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSnapshotFile } from '../../src/snapshot/parse.js';
import { computeEssentialEdgeMask } from '../../src/analysis/essential-edges.js';
import { buildRetainerIndex } from '../../src/analysis/retainer-index.js';
import { computeDominators } from '../../src/analysis/dominators.js';
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
    const theirDominators = job.takeDominators(scratch);
    assert.ok(theirDominators, 'the worker answered with the dominators');
    // Lengauer–Tarjan's five temporary per-node arrays (the retainer cursor may have become one of them).
    assert.ok(scratch.pooledBytes >= 5 * 4 * graph.nodeCount, `the worker's temporaries came back to the pool (${scratch.pooledBytes} bytes)`);
    const ourDominators = computeDominators(graph, mask, new Scratch(), ours);
    assert.equal(theirDominators.length, graph.nodeCount);
    assert.ok(same(theirDominators, ourDominators), 'dominators');
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
