// Human-readable numbers for reports: sizes in binary units (as DevTools shows kB/MB, but with the
// unit spelled so it is unambiguous), counts with thousands separators, percentages.

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatBytes(bytes: number): string {
  const sign = bytes < 0 ? '-' : '';
  let v = Math.abs(bytes);
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  const digits = u === 0 ? 0 : v < 10 ? 2 : v < 100 ? 1 : 0;
  return `${sign}${v.toFixed(digits)} ${UNITS[u]}`;
}

/** `+1.5 MiB` / `-20 B`: a delta with its sign always shown. */
export function formatBytesDelta(bytes: number): string {
  return bytes > 0 ? `+${formatBytes(bytes)}` : bytes === 0 ? '0 B' : formatBytes(bytes);
}

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function formatCountDelta(n: number): string {
  return n > 0 ? `+${formatCount(n)}` : formatCount(n);
}

export function formatPercent(part: number, whole: number): string {
  if (whole <= 0) return '–';
  const p = (100 * part) / whole;
  return `${p < 10 ? p.toFixed(1) : p.toFixed(0)}%`;
}
