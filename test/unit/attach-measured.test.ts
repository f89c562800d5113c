// The line printed after each snapshot (issue 13, defect 10): the measured pause, the target's RSS
// before and after and the file's size, each beside the plan's prediction.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CapturedSnapshot } from '../../src/attach/capture.js';
import { estimateSnapshot } from '../../src/attach/snapshot-cost.js';
import { measuredLine } from '../../src/report/attach-report.js';

const MiB = 1024 * 1024;
const snapshot: CapturedSnapshot = {
  index: 1, file: '/tmp/x-1.heapsnapshot', metaFile: '/tmp/x-1.json', takenAt: '2026-12-01T00:00:00.000Z',
  durationMs: 4200, bytes: 141 * MiB,
  memoryUsage: { rss: 790 * MiB, heapTotal: 90 * MiB, heapUsed: 70 * MiB, external: 5 * MiB, arrayBuffers: 4 * MiB },
  rssBeforeBytes: 153 * MiB, rssAfterBytes: 784 * MiB, method: 'target-wrote',
};

test('after a snapshot: measured pause, RSS before → after and file size beside the predictions', () => {
  const estimate = estimateSnapshot(70 * MiB);
  const line = measuredLine(snapshot, estimate);
  assert.equal(line,
    `  measured   paused 4.2 s (predicted ~${(estimate.pauseMs / 1000).toFixed(1)} s); `
    + 'target RSS 153 MiB → 784 MiB (+631 MiB; predicted up to +910 MiB); file 141 MiB (predicted ~149 MiB); '
    + 'written by the target itself (v8.writeHeapSnapshot)');
});

test('without a local pid the RSS is left out, not guessed', () => {
  const { rssBeforeBytes: _before, rssAfterBytes: _after, ...remote } = snapshot;
  const streamed: CapturedSnapshot = { ...remote, method: 'streamed', streamedBecause: 'the target is not a local process (--port / --ws): it cannot write where leakhunt reads' };
  assert.equal(measuredLine(streamed), '  measured   paused 4.2 s; file 141 MiB; streamed over the inspector (the target is not a local process (--port / --ws): it cannot write where leakhunt reads)');
});
