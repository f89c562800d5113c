// The memory timeline in numbers: least-squares slopes of RSS, JS heap and external memory, which of
// them grows, and when RSS would reach the limit. Used by `attach` (samples over the inspector) and
// `watch`.

export interface MemorySample {
  /** Milliseconds since the epoch. */
  readonly t: number;
  readonly rss: number;
  readonly heapUsed?: number;
  readonly external?: number;
  readonly arrayBuffers?: number;
}

export interface MemoryTrend {
  /** Bytes per hour. */
  readonly rssSlope: number;
  readonly heapSlope?: number;
  readonly externalSlope?: number;
  /** What grows: the JS heap, external memory (Buffers, wasm), native memory (RSS only), or nothing. */
  readonly growing: 'heap' | 'external' | 'native' | 'none';
  readonly summary: string;
}

const HOUR_MS = 3_600_000;
/** Below this, a slope is noise for a verdict (bytes per hour). */
const FLAT_BYTES_PER_HOUR = 8 * 1024 * 1024;

/** Least-squares slope of y over t, in bytes per hour. */
export function slopePerHour(ts: readonly number[], ys: readonly number[]): number {
  const n = ts.length;
  if (n < 2) return 0;
  const mt = ts.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0, den = 0;
  for (let i = 0; i < n; i++) {
    num += (ts[i]! - mt) * (ys[i]! - my);
    den += (ts[i]! - mt) ** 2;
  }
  return den === 0 ? 0 : (num / den) * HOUR_MS;
}

function mib(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MB/hour`;
}

export function trendOf(samples: readonly MemorySample[]): MemoryTrend {
  const ts = samples.map((s) => s.t);
  const rssSlope = slopePerHour(ts, samples.map((s) => s.rss));
  const hasHeap = samples.every((s) => s.heapUsed !== undefined);
  const heapSlope = hasHeap ? slopePerHour(ts, samples.map((s) => s.heapUsed!)) : undefined;
  const externalSlope = hasHeap ? slopePerHour(ts, samples.map((s) => s.external ?? 0)) : undefined;
  let growing: MemoryTrend['growing'] = 'none';
  if (heapSlope !== undefined && externalSlope !== undefined) {
    if (heapSlope > FLAT_BYTES_PER_HOUR && heapSlope >= externalSlope) growing = 'heap';
    else if (externalSlope > FLAT_BYTES_PER_HOUR) growing = 'external';
    else if (rssSlope > FLAT_BYTES_PER_HOUR) growing = 'native';
  } else if (rssSlope > FLAT_BYTES_PER_HOUR) {
    growing = 'native';
  }
  const parts = [`RSS ${mib(rssSlope)}`];
  if (heapSlope !== undefined) parts.push(`JS heap ${mib(heapSlope)}`, `external ${mib(externalSlope!)}`);
  const what = {
    heap: 'the JS heap grows',
    external: 'external memory (Buffers, ArrayBuffers, wasm) grows while the JS heap is flat',
    native: 'RSS grows while the JS heap and external memory are flat: native memory (addons, zlib, fragmentation)',
    none: 'memory is flat',
  }[growing];
  return {
    rssSlope,
    ...(heapSlope !== undefined ? { heapSlope, externalSlope } : {}),
    growing,
    summary: `memory timeline: ${parts.join(', ')}: ${what}`,
  };
}
