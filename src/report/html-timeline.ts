// The memory timeline of an attach in the HTML report: rss, heapUsed, external and arrayBuffers over the
// capture, each snapshot's moment marked and its pause (GC, generation, transfer) shaded.

import type { MemorySample } from '../attach/memory-sampler.js';
import { formatBytes } from './format.js';
import { lineChart, type ChartSeries } from './html-charts.js';
import { element } from './html-escape.js';

export interface SnapshotMoment {
  readonly index: number;
  /** Unix ms. */
  readonly t: number;
  readonly durationMs: number;
}

const FIELDS = ['rss', 'heapUsed', 'external', 'arrayBuffers'] as const;

export function timelineSection(samples: readonly MemorySample[], moments: readonly SnapshotMoment[]): string {
  const start = Math.min(...samples.map((s) => s.t), ...moments.map((m) => m.t));
  if (!Number.isFinite(start)) return '';
  const sec = (t: number): number => (t - start) / 1000;
  const series: ChartSeries[] = FIELDS.map((field, i) => ({
    name: field,
    tone: `s${i}`,
    dots: samples.length <= 40,
    points: samples.flatMap((s) => (s[field] === undefined ? [] : [[sec(s.t), s[field]!] as const])),
  }));
  const chart = lineChart({
    title: 'Memory of the target over the capture',
    series,
    xAxisName: 'seconds since the capture began (dashed: a snapshot; shaded: the target paused for it)',
    formatX: (x) => `${x.toFixed(0)} s`,
    formatY: (y) => formatBytes(y),
    marks: moments.map((m) => ({ x: sec(m.t), label: `#${m.index}` })),
    bands: moments.map((m) => ({ from: sec(m.t), to: sec(m.t + m.durationMs), label: `snapshot ${m.index}: paused ${(m.durationMs / 1000).toFixed(1)} s` })),
    height: 260,
  });
  if (!chart) return '';
  const note = samples.length === 0 ? element('p', { class: 'dim' }, 'no memory samples were kept: the points are the readings taken with each snapshot') : '';
  return element('section', { id: 'timeline' }, `${element('h2', {}, 'Memory timeline')}${note}${chart}`);
}
