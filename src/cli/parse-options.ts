// Turning flag text into typed option values, with usage errors (exit 2) that name the flag.

import { UsageError } from '../errors.js';

/** A positive integer or `all` (Infinity), for list lengths: --top, --groups, --paths, --depth. */
export function parseTop(value: string, flag = '--top'): number {
  if (value === 'all') return Infinity;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer or "all", got "${value}"`);
  return n;
}

/** A positive integer, e.g. --unit-count. */
export function parseCount(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer, got "${value}"`);
  return n;
}

export function parseChoice<T extends string>(flag: string, value: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${choices.join(', ')}, got "${value}"`);
}

const SIZE_UNITS: Record<string, number> = {
  b: 1, k: 1e3, kb: 1e3, kib: 1024, m: 1e6, mb: 1e6, mib: 1048576, g: 1e9, gb: 1e9, gib: 1073741824,
};

/** `1MB`, `512KiB`, `2g`, `1048576` → bytes. Decimal units are powers of 10, binary ones of 2. */
export function parseSize(flag: string, value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = m ? SIZE_UNITS[(m[2] || 'b').toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new UsageError(`${flag} must be a size like 1MB, 512KiB or 1048576, got "${value}"`);
  return Math.round(Number(m[1]) * unit);
}

/** `15s`, `5m`, `1h`, `250ms`, `30` (seconds) → milliseconds. */
export function parseDuration(flag: string, value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(value);
  if (!m) throw new UsageError(`${flag} must be a duration like 15s, 5m or 1h, got "${value}"`);
  const factor = { ms: 1, s: 1000, m: 60000, h: 3600000 }[(m[2] ?? 's').toLowerCase() as 'ms' | 's' | 'm' | 'h'];
  return Math.round(Number(m[1]) * factor);
}
