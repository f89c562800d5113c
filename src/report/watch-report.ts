// `leakhunt watch` output: one line a sample (text, or a `memory_sample` JSON line), and the summary at
// the end: RSS slope, time to the limit, and which of heap / external / native grows, with what that
// points at.

import type { MemoryPart, MemoryTrend, PartTrend } from '../diagnose/memory-trend.js';
import type { WatchResult, WatchSample } from '../attach/watch.js';
import type { Block, ReportDocument } from './document.js';
import { sparkline } from './attach-report.js';
import { formatBytes, formatPercent } from './format.js';

const WHAT_IT_MEANS: Record<MemoryPart | 'rss', string> = {
  heap: 'JS objects are accumulating: `leakhunt attach` shows which class grows and what holds it',
  external: 'Buffers / ArrayBuffers (or wasm memory) are accumulating: `leakhunt attach` shows what holds the Buffers',
  native: 'memory outside the JS heap and Buffers (native addons, zlib, allocator fragmentation): heap snapshots will not show it',
  rss: 'RSS grows: run with --heap to tell heap, external and native apart',
};

/** The JSON line of one sample. */
export function sampleJson(pid: number | undefined, s: WatchSample): Record<string, unknown> {
  return { type: 'memory_sample', ...(pid === undefined ? {} : { pid }), ...s };
}

export function sampleLine(s: WatchSample): string {
  const time = new Date(s.t).toTimeString().slice(0, 8);
  const limit = s.limit === null ? '' : ` / ${formatBytes(s.limit)} (${formatPercent(s.rss, s.limit)})`;
  const heap = s.heapUsed === undefined
    ? ''
    : `  heapUsed ${formatBytes(s.heapUsed)}  external ${formatBytes(s.external ?? 0)}  arrayBuffers ${formatBytes(s.arrayBuffers ?? 0)}`;
  return `${time}  rss ${formatBytes(s.rss)}${limit}${heap}`;
}

const perHour = (bytesPerHour: number): string => `${bytesPerHour >= 0 ? '+' : ''}${formatBytes(bytesPerHour)}/hour`;

function duration(ms: number): string {
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 2 * 3_600_000) return `${(ms / 60_000).toFixed(0)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

/** A watch run with its trend. */
export type WatchedResult = WatchResult & { readonly trend: MemoryTrend };

export function summaryJson(pid: number | undefined, r: WatchedResult): Record<string, unknown> {
  const t = r.trend;
  const parts = Object.fromEntries((t.parts ?? []).map((p) => [p.part, { bytesPerHour: Math.round(p.bytesPerHour), riseBytes: Math.round(p.riseBytes), first: p.first, last: p.last, growing: p.growing }]));
  return {
    type: 'memory_summary',
    ...(pid === undefined ? {} : { pid }),
    samples: t.samples,
    durationMs: t.durationMs,
    endedBy: r.endedBy,
    rssBytesPerHour: Math.round(t.rss.bytesPerHour),
    ...(t.parts ? { parts } : {}),
    growing: t.growing,
    limit: r.limitBytes ?? null,
    limitKind: r.limitKind ?? null,
    timeToLimitMs: t.timeToLimitMs === undefined ? null : Math.round(t.timeToLimitMs),
  };
}

function partLine(p: PartTrend, values: readonly number[]): string {
  return `${p.part.padEnd(9)} ${sparkline(values, 32).padEnd(32)}  ${formatBytes(p.first)} → ${formatBytes(p.last)}, ${perHour(p.bytesPerHour)}  ${p.growing ? 'GROWING' : 'flat'}`;
}

export function buildWatchSummary(pid: number | undefined, r: WatchedResult): ReportDocument {
  const t = r.trend;
  const s = r.samples;
  const heapSamples = s.filter((x) => x.heapUsed !== undefined && x.heapTotal !== undefined && x.external !== undefined);
  const series: Record<MemoryPart, number[]> = {
    heap: heapSamples.map((x) => x.heapUsed!),
    external: heapSamples.map((x) => x.external!),
    native: heapSamples.map((x) => Math.max(0, x.rss - x.heapTotal! - x.external!)),
  };
  const lines = [
    `rss       ${sparkline(s.map((x) => x.rss), 32).padEnd(32)}  ${formatBytes(t.rss.first)} → ${formatBytes(t.rss.last)}, ${perHour(t.rss.bytesPerHour)}  ${t.rss.growing ? 'GROWING' : 'flat'}`,
    ...(t.parts ?? []).map((p) => partLine(p, series[p.part])),
  ];
  const limitName = r.limitKind === 'cgroup' ? `the cgroup limit (${formatBytes(r.limitBytes ?? 0)})` : 'the machine\'s available memory';
  const toLimit = t.timeToLimitMs === undefined
    ? 'not growing: no projected time to the limit'
    : `~${duration(t.timeToLimitMs)} to ${limitName} at this rate`;
  const blocks: Block[] = [
    { kind: 'heading', text: `Watched ${pid === undefined ? 'the target' : `pid ${pid}`} for ${duration(t.durationMs)} (${t.samples} samples${r.endedBy === 'target-exited' ? ', until it exited' : ''})` },
    { kind: 'code', lines },
    { kind: 'fields', rows: [['slope', `${perHour(t.rss.bytesPerHour)} RSS (least squares)`], ['limit', toLimit]] },
  ];
  blocks.push(t.growing.length === 0
    ? { kind: 'lines', tone: 'good', lines: ['nothing grows beyond the noise'] }
    : { kind: 'lines', tone: 'warn', lines: t.growing.map((g) => `growing: ${g} — ${WHAT_IT_MEANS[g]}`) });
  return blocks;
}
