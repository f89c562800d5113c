// The arithmetic of attach and watch on synthetic samples: least squares, which part of memory grows
// (and that a GC sawtooth or a warm-up crumb is not called growth), time to the limit, sparklines and
// the interim exit rule of `attach`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MemorySample } from '../../src/attach/memory-sampler.js';
import { fitLine, summarizeTrend } from '../../src/diagnose/memory-trend.js';
import { sparkline } from '../../src/report/attach-report.js';

const MiB = 1024 * 1024;

function samples(n: number, everyMs: number, f: (i: number) => Omit<MemorySample, 't'>): MemorySample[] {
  return Array.from({ length: n }, (_, i) => ({ t: 1_700_000_000_000 + i * everyMs, ...f(i) }));
}

test('fitLine: exact on a line, noise is the residual spread', () => {
  const fit = fitLine([0, 1000, 2000, 3000], [10, 20, 30, 40]);
  assert.equal(fit.slope, 0.01);
  assert.equal(fit.riseBytes, 30);
  assert.equal(fit.noiseBytes, 0);
  assert.equal(fitLine([5], [1]).slope, 0);
});

test('external growth under a heap sawtooth: external grows, the heap does not', () => {
  const s = samples(40, 250, (i) => {
    const heapUsed = 20 * MiB + (i % 8) * 2 * MiB; // young-generation sawtooth, no trend
    const external = 5 * MiB + i * 0.8 * MiB;
    return { rss: 80 * MiB + heapUsed + external, heapUsed, heapTotal: 40 * MiB, external, arrayBuffers: external - MiB };
  });
  const t = summarizeTrend(s, 1024 * MiB);
  assert.deepEqual(t.growing, ['external']);
  const heap = t.parts!.find((p) => p.part === 'heap')!;
  assert.equal(heap.growing, false);
  assert.ok(t.rss.growing);
  assert.ok(t.timeToLimitMs! > 0);
  assert.ok(Math.abs(t.timeToLimitMs! - (1024 * MiB) / t.rss.slope) < 1);
});

test('heap growth: the heap grows; native is rss − heapTotal − external and stays flat', () => {
  const s = samples(30, 1000, (i) => {
    const heapUsed = 10 * MiB + i * 0.5 * MiB;
    const heapTotal = heapUsed + 4 * MiB;
    return { rss: 50 * MiB + heapTotal + 2 * MiB, heapUsed, heapTotal, external: 2 * MiB, arrayBuffers: 0 };
  });
  const t = summarizeTrend(s);
  assert.deepEqual(t.growing, ['heap']);
  assert.equal(t.parts!.find((p) => p.part === 'native')!.growing, false);
  assert.equal(t.timeToLimitMs, undefined, 'no headroom known: no projection');
});

test('RSS only (watch without --heap): growth is "rss"; a flat series or a tiny rise is nothing', () => {
  assert.deepEqual(summarizeTrend(samples(10, 1000, (i) => ({ rss: 100 * MiB + i * MiB }))).growing, ['rss']);
  assert.deepEqual(summarizeTrend(samples(10, 1000, () => ({ rss: 100 * MiB }))).growing, []);
  assert.deepEqual(summarizeTrend(samples(10, 1000, (i) => ({ rss: 100 * MiB + i * 1024 }))).growing, [], 'below the 1 MiB floor');
  assert.deepEqual(summarizeTrend(samples(2, 1000, (i) => ({ rss: 100 * MiB + i * 50 * MiB }))).growing, [], 'two samples are not a trend');
});

test('sparkline: scaled min..max, averaged into the width', () => {
  assert.equal(sparkline([1, 2, 3, 4, 5, 6, 7, 8]), '▁▂▃▄▅▆▇█');
  assert.equal(sparkline([5, 5, 5]), '▁▁▁');
  assert.equal(sparkline(Array.from({ length: 1000 }, (_, i) => i), 10).length, 10);
  assert.equal(sparkline([]), '');
});


