// The arithmetic of attach and watch on synthetic samples: least squares, which part of memory grows
// (and that a GC sawtooth or a warm-up crumb is not called growth), time to the limit, sparklines and
// the interim exit rule of `attach`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DiffResult } from '../../src/analysis/diff/diff-series.js';
import type { MemorySample } from '../../src/attach/memory-sampler.js';
import { fitLine, summarizeTrend } from '../../src/attach/memory-trend.js';
import { interimVerdict } from '../../src/cli/commands/attach.js';
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

function diffWith(growth: number, groups: { className: string; retainedSize: number; counts: number[]; grew: boolean | null }[], snapshots = 3): DiffResult {
  return {
    schemaVersion: 1,
    snapshots: Array.from({ length: snapshots }, (_, i) => ({ file: `s${i}`, nodeCount: 1, edgeCount: 1, totalSize: 1, maxId: i })),
    sameProcess: true,
    warnings: [],
    growth,
    classes: [],
    survivors: {
      count: 0,
      size: 0,
      groups: groups.map((g) => ({
        signature: `${g.className} ← x`, className: g.className, count: g.counts[g.counts.length - 1]!, selfSize: g.retainedSize,
        retainedSize: g.retainedSize, counts: g.counts, growthPerInterval: 1, grewEveryInterval: g.grew, chain: [],
      })),
    },
  };
}

test('interim rule: a group that grew in every interval with ≥ 10% of the growth is a suspected leak', () => {
  const leak = interimVerdict(diffWith(100_000, [
    { className: 'Noise', retainedSize: 5_000, counts: [0, 1, 2], grew: true },
    { className: 'CacheEntry', retainedSize: 60_000, counts: [0, 50, 100], grew: true },
  ]));
  assert.equal(leak.leak, true);
  assert.equal(leak.group?.className, 'CacheEntry');
  assert.equal(leak.group?.shareOfGrowth, 0.6);
  assert.equal(interimVerdict(diffWith(100_000, [{ className: 'Small', retainedSize: 9_999, counts: [0, 1, 2], grew: true }])).leak, false, 'under 10%');
  assert.equal(interimVerdict(diffWith(100_000, [{ className: 'Backlog', retainedSize: 90_000, counts: [0, 80, 60], grew: false }])).leak, false, 'fell back');
  assert.equal(interimVerdict(diffWith(-5, [{ className: 'X', retainedSize: 10, counts: [0, 1, 2], grew: true }])).leak, false, 'no growth');
  assert.match(interimVerdict(diffWith(100, [], 2)).reason, /fewer than 3 snapshots/);
});
