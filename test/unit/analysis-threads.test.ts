// The retainer index built on a second thread (parallel-retainers.ts) against the one built here, on a
// real snapshot whose arrays the two-thread parse left shared (the edge threshold lowered to 0). The
// whole analysis with and without threads, at the real thresholds: e2e/cli-analyze-threads.test.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSnapshotFile } from '../../src/snapshot/parse.js';
import { computeEssentialEdgeMask } from '../../src/analysis/essential-edges.js';
import { buildRetainerIndex } from '../../src/analysis/retainer-index.js';
import { RetainersJobHandle } from '../../src/analysis/parallel-retainers.js';
import { Scratch } from '../../src/analysis/scratch.js';
import { removeSnapshots, takeSnapshot } from '../helpers/take-snapshot.js';

const same = (a: ArrayBufferView, b: ArrayBufferView): boolean =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

test('the retainer index from the worker equals the one built on this thread; its spare buffers join the pool', { timeout: 120_000 }, async () => {
  const path = await takeSnapshot('map-cache', { requests: 200 });
  try {
    const graph = await parseSnapshotFile(path, { threads: 2 });
    assert.ok(graph.firstEdge.buffer instanceof SharedArrayBuffer, 'the two-thread parse shares firstEdge');
    const mask = computeEssentialEdgeMask(graph, new Scratch(), true);
    assert.ok(mask.buffer instanceof SharedArrayBuffer);
    const job = RetainersJobHandle.start(graph, 0);
    assert.ok(job, 'a worker starts for a shared graph');
    job.submit(mask);
    const scratch = new Scratch();
    const theirs = job.take(scratch);
    assert.ok(theirs, 'the worker answered');
    assert.ok(theirs.retainingNode.buffer instanceof SharedArrayBuffer);
    assert.ok(scratch.pooledBytes >= 4 * graph.nodeCount, 'the worker\'s cursor buffer came back to the pool');
    const ours = buildRetainerIndex(graph, mask);
    assert.ok(same(theirs.firstRetainer, ours.firstRetainer), 'firstRetainer');
    assert.ok(same(theirs.retainingNode, ours.retainingNode), 'retainingNode');
    assert.ok(same(theirs.retainingBits, ours.retainingBits), 'retainingBits');
  } finally {
    removeSnapshots([path]);
  }
});

test('no worker for a graph on unshared arrays (a one-thread parse)', { timeout: 120_000 }, async () => {
  const path = await takeSnapshot('control', { requests: 50 });
  try {
    const graph = await parseSnapshotFile(path, { threads: 1 });
    assert.equal(RetainersJobHandle.start(graph, 0), undefined);
  } finally {
    removeSnapshots([path]);
  }
});
