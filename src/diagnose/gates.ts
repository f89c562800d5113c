// CI gates on a diff: thresholds a user sets (`--max-growth 1MB`, `--max-class-growth RunTree=100`,
// `--max-survivor-size 512KiB`) checked against the result, each with a one-line reason that names
// the top survivor group, so a failed build says what to look at.

import type { DiffResult } from '../analysis/diff/diff-series.js';
import { formatBytes } from '../units.js';

export interface GateLimits {
  /** Live-size growth, newest minus oldest, in bytes. */
  readonly maxGrowth?: number;
  /** Per class name: the largest allowed count increase. */
  readonly maxClassGrowth?: ReadonlyMap<string, number>;
  /** Self size of all survivors, in bytes. */
  readonly maxSurvivorSize?: number;
}

export interface GateResult {
  readonly gate: string;
  readonly limit: number;
  readonly actual: number;
  readonly passed: boolean;
  readonly reason: string;
}

function topGroupHint(result: DiffResult): string {
  const top = result.survivors?.groups[0];
  if (!top) return '';
  return `; top survivor group: ${top.count} × ${top.className} (${top.signature.split(' ← ').slice(0, 4).join(' ← ')})`;
}

export function evaluateGates(result: DiffResult, limits: GateLimits): GateResult[] {
  const gates: GateResult[] = [];
  if (limits.maxGrowth !== undefined) {
    const passed = result.growth <= limits.maxGrowth;
    gates.push({
      gate: 'max-growth',
      limit: limits.maxGrowth,
      actual: result.growth,
      passed,
      reason: passed
        ? `live heap grew by ${formatBytes(result.growth)}, within ${formatBytes(limits.maxGrowth)}`
        : `live heap grew by ${formatBytes(result.growth)}, over the ${formatBytes(limits.maxGrowth)} allowed${topGroupHint(result)}`,
    });
  }
  for (const [name, limit] of limits.maxClassGrowth ?? []) {
    const row = result.classes.find((c) => c.name === name);
    const actual = row?.countDelta ?? 0;
    const passed = actual <= limit;
    gates.push({
      gate: `max-class-growth ${name}`,
      limit,
      actual,
      passed,
      reason: passed
        ? `${name} count changed by ${actual}, within ${limit}`
        : `${name} count grew by ${actual}, over the ${limit} allowed`,
    });
  }
  if (limits.maxSurvivorSize !== undefined) {
    const actual = result.survivors?.size ?? 0;
    const passed = actual <= limits.maxSurvivorSize;
    gates.push({
      gate: 'max-survivor-size',
      limit: limits.maxSurvivorSize,
      actual,
      passed,
      reason: passed
        ? `survivors hold ${formatBytes(actual)}, within ${formatBytes(limits.maxSurvivorSize)}`
        : `survivors hold ${formatBytes(actual)}, over the ${formatBytes(limits.maxSurvivorSize)} allowed${topGroupHint(result)}`,
    });
  }
  return gates;
}
