// Human-readable numbers for reports: sizes in binary units (as DevTools shows kB/MB, but with the
// unit spelled so it is unambiguous), counts with thousands separators, percentages.

export { formatBytes, formatBytesDelta } from '../units.js';

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
