// What a series of memory samples says (used by watch, attach and the verdict): the RSS slope (least squares), when the limit is reached at
// that rate, and which part grows. `process.memoryUsage()` splits RSS three ways (DESIGN.md, "Node
// facts"): heap (heapUsed: JS objects), external (Buffers, ArrayBuffers, wasm) and native, the rest
// (rss − heapTotal − external: zlib, addons, allocator fragmentation, snapshot leftovers).
//
// A part "grows" when its fitted rise over the window is clearly above the noise around the fit (GC
// makes heapUsed a sawtooth) and above a floor that ignores warm-up crumbs.

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
/** Below this fitted rise a part is not called growing, whatever the fit says. */
export const MIN_RISE_BYTES = 1024 * 1024;
/** The rise must exceed the residual noise this many times. */
export const NOISE_FACTOR = 2;

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

function isGrowing(fit: Fit, samples: number): boolean {
  return samples >= 3 && fit.riseBytes >= MIN_RISE_BYTES && fit.riseBytes >= NOISE_FACTOR * fit.noiseBytes;
}

function partValue(s: MemorySample, part: MemoryPart): number | undefined {
  if (s.heapUsed === undefined || s.heapTotal === undefined || s.external === undefined) return undefined;
  if (part === 'heap') return s.heapUsed;
  if (part === 'external') return s.external;
  return Math.max(0, s.rss - s.heapTotal - s.external);
}

/**
 * The native part of each sample with what the pauses left behind taken out: the rise of the native part
 * from the last sample before a pause to the first after it is subtracted from every later sample (a
 * fall is kept: memory given back is not the snapshot's).
 */
export function nativeWithoutPauses(samples: readonly MemorySample[], pauses: readonly Pause[]): number[] {
  const raw = samples.map((s) => partValue(s, 'native') ?? 0);
  const offsets = new Array<number>(samples.length).fill(0);
  for (const p of pauses) {
    let before = -1, after = -1;
    for (let i = 0; i < samples.length; i++) {
      if (samples[i]!.t <= p.startMs) before = i;
      if (after < 0 && samples[i]!.t >= p.endMs) after = i;
    }
    if (before < 0 || after < 0) continue;
    const step = raw[after]! - raw[before]!;
    if (step <= 0) continue;
    for (let i = after; i < samples.length; i++) offsets[i]! += step;
  }
  return raw.map((v, i) => v - offsets[i]!);
}

/**
 * `headroomBytes`: what is left under the limit at the end (cgroup limit − usage, or MemAvailable).
 * `pauses`: the snapshots' pauses; the native part is judged without what they left behind.
 */
export function summarizeTrend(samples: readonly MemorySample[], headroomBytes?: number, pauses?: readonly Pause[]): MemoryTrend {
  const xs = samples.map((s) => s.t);
  const rssFit = fitLine(xs, samples.map((s) => s.rss));
  const durationMs = samples.length > 1 ? xs[xs.length - 1]! - xs[0]! : 0;
  const rssGrowing = isGrowing(rssFit, samples.length);
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
    const native = pauses ? nativeWithoutPauses(withHeap, pauses) : undefined;
    parts = (['heap', 'external', 'native'] as const).map((part) => {
      const ys = part === 'native' && native ? native : withHeap.map((s) => partValue(s, part)!);
      const fit = fitLine(hx, ys);
      return { part, ...fit, bytesPerHour: fit.slope * MS_PER_HOUR, first: ys[0]!, last: ys[ys.length - 1]!, growing: isGrowing(fit, ys.length) };
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
  const what = trend.growing.length === 0 ? 'nothing grows beyond the noise' : `growing: ${trend.growing.join(', ')}`;
  return `memory timeline over ${Math.round(trend.durationMs / 1000)} s (${trend.samples} samples, least-squares change): ${parts.join(', ')}; ${what}`;
}
