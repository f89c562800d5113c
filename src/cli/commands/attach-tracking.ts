// The plan's lines for `attach --trace-allocations`: what tracking costs the target, from the measured
// constants in src/attach/tracking-cost.ts, said before the capture starts.

import { TRACKING_COST } from '../../attach/tracking-cost.js';

export function trackingPlanLines(verbose: boolean): string[] {
  const c = TRACKING_COST;
  const lines = [
    `  tracking   allocation tracking on from the first snapshot to the last: the target served ${pct(c.throughputLoss.min)}–${pct(c.throughputLoss.max)} fewer requests a second and its RSS grew ${mib(c.rssGrowthBytes.min)}–${mib(c.rssGrowthBytes.max)} MiB more while tracked (measured on the story fixtures, docs/allocation-sites.md); turned off before detaching`,
  ];
  if (verbose) lines.push(`             p99 event-loop delay ${c.p99DelayMs.off} ms untracked, ${c.p99DelayMs.on} ms tracked (${c.measuredOn})`);
  return lines;
}

const pct = (x: number): string => `${Math.round(x * 100)}%`;
const mib = (bytes: number): string => String(Math.round(bytes / 2 ** 20));
