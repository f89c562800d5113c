// The plan's lines for `attach --trace-allocations`: what tracking costs the target, from the measured
// constants in src/attach/tracking-cost.ts, said before the capture starts.

import { TRACKING_COST } from '../../attach/tracking-cost.js';

export function trackingPlanLines(verbose: boolean): string[] {
  const c = TRACKING_COST;
  const lines = [
    `  tracking   allocations tracked from the first snapshot to the last: measured, the target served ${pct(c.throughputLoss.min)}–${pct(c.throughputLoss.max)} fewer requests a second while tracked, its p99 event-loop delay rose to ${c.p99DelayMs.on} ms (from ${c.p99DelayMs.off}), and starting it paused it up to ${(c.startPauseMs / 1000).toFixed(1)} s (docs/allocation-sites.md); heap compaction held off meanwhile (or tracked objects lose their stacks); both turned back on before detaching`,
  ];
  if (verbose) lines.push(`             no extra RSS while tracked (${mib(c.extraRssBytes.min)} to ${mib(c.extraRssBytes.max)} MiB against untracked windows: fewer requests ran); ${c.measuredOn}`);
  return lines;
}

const pct = (x: number): string => `${Math.round(x * 100)}%`;
const mib = (bytes: number): string => String(Math.round(bytes / 2 ** 20));
