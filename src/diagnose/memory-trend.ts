// What a series of memory samples says (used by watch, attach and the verdict): the RSS slope (least
// squares), when the limit is reached at that rate, and which part grows. `process.memoryUsage()` splits
// RSS three ways (docs/node-facts.md): heap (heapUsed: JS objects), external (Buffers, ArrayBuffers,
// wasm) and native, the rest (rss − heapTotal − external: zlib, addons, allocator fragmentation,
// snapshot leftovers).
//
// A part "grows" when its fitted rise over the window is clearly above the noise around the fit (GC
// makes heapUsed a sawtooth) and above a floor that ignores warm-up crumbs.

import { DEFAULT_MODEL, type ModelParams } from './model-params.js';
/** One reading: RSS from /proc, and the target's process.memoryUsage() when it was asked. */
export interface MemorySample {
  /** Unix time in ms. */
  readonly t: number;
  readonly rss: number;
  readonly heapUsed?: number;
  readonly heapTotal?: number;
  readonly external?: number;
  readonly arrayBuffers?: number;
}

export type MemoryPart = 'heap' | 'external' | 'native';

/** A heap snapshot's pause of the target (Unix ms): it leaves native memory behind (DESIGN facts). */
export interface Pause {
  readonly startMs: number;
  readonly endMs: number;
}

export interface Fit {
  /** Least-squares slope in bytes per ms. */
  readonly slope: number;
  /** Fitted rise over the whole window, in bytes. */
  readonly riseBytes: number;
  /** Standard deviation of the residuals, in bytes. */
  readonly noiseBytes: number;
}

export interface PartTrend extends Fit {
  readonly part: MemoryPart;
  readonly bytesPerHour: number;
  readonly first: number;
  readonly last: number;
  readonly growing: boolean;
}

export interface MemoryTrend {
  readonly samples: number;
  readonly durationMs: number;
  readonly rss: Fit & { readonly bytesPerHour: number; readonly first: number; readonly last: number; readonly growing: boolean };
  /** Present when the samples carry memoryUsage() figures (watch --heap, attach). */
  readonly parts?: readonly PartTrend[];
  /** The growing parts, largest rise first; ['rss'] when only RSS is known and it grows. */
  readonly growing: readonly (MemoryPart | 'rss')[];
  /** At the RSS slope, ms until the headroom is used up; undefined when not growing or no headroom known. */
  readonly timeToLimitMs?: number;
}

const MS_PER_HOUR = 3_600_000;
// A part grows when its fitted rise reaches ModelParams.trendMinRiseBytes and trendNoiseFactor times
// the residual noise.

export function fitLine(xs: readonly number[], ys: readonly number[]): Fit {
  const n = xs.length;
  if (n < 2) return { slope: 0, riseBytes: 0, noiseBytes: 0 };
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0, sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i]! - mx) ** 2;
    sxy += (xs[i]! - mx) * (ys[i]! - my);
  }
  const slope = sxx === 0 ? 0 : sxy / sxx;
  let sse = 0;
  for (let i = 0; i < n; i++) sse += (ys[i]! - (my + slope * (xs[i]! - mx))) ** 2;
  return {
    slope,
    riseBytes: slope * (xs[n - 1]! - xs[0]!),
    noiseBytes: n > 2 ? Math.sqrt(sse / (n - 2)) : 0,
  };
}

function isGrowing(fit: Fit, samples: number, params: ModelParams): boolean {
  return samples >= 3 && fit.riseBytes >= params.trendMinRiseBytes && fit.riseBytes >= params.trendNoiseFactor * fit.noiseBytes;
}

function partValue(s: MemorySample, part: MemoryPart): number | undefined {
  if (s.heapUsed === undefined || s.heapTotal === undefined || s.external === undefined) return undefined;
  if (part === 'heap') return s.heapUsed;
  if (part === 'external') return s.external;
  return Math.max(0, s.rss - s.heapTotal - s.external);
}

/** After a snapshot's pause the target keeps touching and releasing memory for a while: not the program's. */
export const SETTLE_MS = 2000;
/** Samples a window between pauses needs to say which way the native part goes. */
const MIN_WINDOW_SAMPLES = 3;
// Running time between pauses the native part must be watched over (ModelParams.nativeMinSpanMs): a
// young or busy process's allocator and code grow native memory for seconds at a time, which a minute of
// steady rise tells apart.

/**
 * The native part between the snapshots' pauses: samples within a pause or SETTLE_MS after it are
 * dropped, and each window between pauses is stitched to the end of the one before, so no step across a
 * snapshot counts (each leaves native memory behind in the target, and keeps settling after it).
 * Grows only when every window long enough to tell rose, over `nativeMinSpanMs` of windows at least.
 */
export function nativeBetweenPauses(samples: readonly MemorySample[], pauses: readonly Pause[]): { xs: number[]; ys: number[]; everyWindowRose: boolean; spanMs: number } {
  const gaps = [...pauses].sort((a, b) => a.startMs - b.startMs).map((p) => [p.startMs, p.endMs + SETTLE_MS] as const);
  const windowOf = (t: number): number => {
    let w = 0;
    for (const [start, end] of gaps) {
      if (t >= start && t <= end) return -1;
      if (t > end) w++;
    }
    return w;
  };
  const windows = new Map<number, MemorySample[]>();
  for (const s of samples) {
    const w = windowOf(s.t);
    if (w < 0 || partValue(s, 'native') === undefined) continue;
    windows.set(w, [...(windows.get(w) ?? []), s]);
  }
  const xs: number[] = [], ys: number[] = [];
  const rises: number[] = [];
  let offset = 0;
  let spanMs = 0;
  for (const w of [...windows.keys()].sort((a, b) => a - b)) {
    const list = windows.get(w)!;
    if (list.length < MIN_WINDOW_SAMPLES) continue;
    const values = list.map((s) => partValue(s, 'native')!);
    if (ys.length > 0) offset = ys[ys.length - 1]! - values[0]!;
    list.forEach((s, i) => {
      xs.push(s.t);
      ys.push(values[i]! + offset);
    });
    rises.push(fitLine(list.map((s) => s.t), values).riseBytes);
    spanMs += list[list.length - 1]!.t - list[0]!.t;
  }
  return { xs, ys, everyWindowRose: rises.length > 0 && rises.every((r) => r > 0), spanMs };
}

/**
 * `headroomBytes`: what is left under the limit at the end (cgroup limit − usage, or MemAvailable).
 * `pauses`: the snapshots' pauses; the native part is judged between them (nativeBetweenPauses).
 */
export function summarizeTrend(samples: readonly MemorySample[], headroomBytes?: number, pauses?: readonly Pause[], params: ModelParams = DEFAULT_MODEL): MemoryTrend {
  const xs = samples.map((s) => s.t);
  const rssFit = fitLine(xs, samples.map((s) => s.rss));
  const durationMs = samples.length > 1 ? xs[xs.length - 1]! - xs[0]! : 0;
  const rssGrowing = isGrowing(rssFit, samples.length, params);
  const rss = {
    ...rssFit,
    bytesPerHour: rssFit.slope * MS_PER_HOUR,
    first: samples[0]?.rss ?? 0,
    last: samples[samples.length - 1]?.rss ?? 0,
    growing: rssGrowing,
  };
  const withHeap = samples.filter((s) => partValue(s, 'heap') !== undefined);
  let parts: PartTrend[] | undefined;
  if (withHeap.length >= 2) {
    const hx = withHeap.map((s) => s.t);
    const between = pauses ? nativeBetweenPauses(withHeap, pauses) : undefined;
    parts = (['heap', 'external', 'native'] as const).map((part) => {
      if (part === 'native' && between) {
        const fit = fitLine(between.xs, between.ys);
        const ends = between.ys.length > 0 ? { first: between.ys[0]!, last: between.ys[between.ys.length - 1]! } : { first: 0, last: 0 };
        return { part, ...fit, bytesPerHour: fit.slope * MS_PER_HOUR, ...ends, growing: between.everyWindowRose && between.spanMs >= params.nativeMinSpanMs && isGrowing(fit, between.ys.length, params) };
      }
      const ys = withHeap.map((s) => partValue(s, part)!);
      const fit = fitLine(hx, ys);
      return { part, ...fit, bytesPerHour: fit.slope * MS_PER_HOUR, first: ys[0]!, last: ys[ys.length - 1]!, growing: isGrowing(fit, ys.length, params) };
    });
  }
  const growing: (MemoryPart | 'rss')[] = parts
    ? [...parts].filter((p) => p.growing).sort((a, b) => b.riseBytes - a.riseBytes).map((p) => p.part)
    : rssGrowing ? ['rss'] : [];
  const timeToLimitMs = rssFit.slope > 0 && rssGrowing && headroomBytes !== undefined ? headroomBytes / rssFit.slope : undefined;
  return {
    samples: samples.length,
    durationMs,
    rss,
    ...(parts ? { parts } : {}),
    growing,
    ...(timeToLimitMs === undefined ? {} : { timeToLimitMs }),
  };
}

/** Windows shorter than this get no hourly rate: a few seconds of samples say nothing about an hour. */
const RATE_WINDOW_MS = 10 * 60_000;

function signedBytes(bytes: number): string {
  const abs = Math.abs(bytes);
  const [value, unit] = abs >= 1024 ** 3 ? [abs / 1024 ** 3, 'GiB'] : abs >= 1024 ** 2 ? [abs / 1024 ** 2, 'MiB'] : [abs / 1024, 'KiB'];
  return `${bytes < 0 ? '−' : '+'}${value.toFixed(1)} ${unit}`;
}

/**
 * One line for a report: the fitted change of each part over the window and what grows; an hourly rate
 * only when the window is long enough to stand for one.
 */
export function describeTrend(trend: MemoryTrend): string {
  const hourly = trend.durationMs >= RATE_WINDOW_MS;
  const change = (fit: Fit & { bytesPerHour: number }): string => `${signedBytes(fit.riseBytes)}${hourly ? ` (${signedBytes(fit.bytesPerHour)}/hour)` : ''}`;
  const parts = [`RSS ${change(trend.rss)}`, ...(trend.parts ?? []).map((p) => `${p.part} ${change(p)}`)];
  // Said of the timeline only: with no part above its GC noise the totals cannot tell either way, which
  // never contradicts growth the snapshots found object by object.
  const what = trend.growing.length === 0 ? 'the totals alone cannot tell growth from GC noise here' : `growing: ${trend.growing.join(', ')}`;
  return `memory timeline over ${Math.round(trend.durationMs / 1000)} s (${trend.samples} samples, fitted): ${parts.join(', ')}; ${what}`;
}
