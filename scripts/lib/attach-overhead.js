// `npm run bench:attach -- --only overhead`: what leakhunt's two ways of naming the allocating line cost a
// running target, side by side in one target per fixture: nothing switched on, `attach
// --trace-allocations`' allocation tracking, and `leakhunt profile`'s sampling heap profiler at its default
// interval (scripts/lib/profiler-modes.js), in alternating windows (scripts/lib/overhead-windows.js),
// sampling's block first: tracking leaves the target slower for a while after it is off.
import { benchFixture, startBenchTarget, warmUp } from './bench-target.js';
import { measureOverhead } from './overhead-windows.js';
import { DEFAULT_SAMPLING_BYTES, TRACKING, sampling } from './profiler-modes.js';

export async function benchOverhead({ node, fixtures, windowMs, cycles, settleMs, log }) {
  const rows = [];
  for (const name of fixtures) {
    const fixture = benchFixture(name);
    log(`${fixture.file}: warming up`);
    const target = await startBenchTarget(node, fixture);
    try {
      await warmUp(target);
      const { windows, configs } = await measureOverhead(target, { modes: [sampling(DEFAULT_SAMPLING_BYTES), TRACKING], cycles, windowMs, settleMs, log });
      rows.push({ fixture: fixture.file, what: fixture.what, node: target.nodeVersion, windowMs, cycles, configs, windows });
    } finally {
      await target.stop();
    }
  }
  return rows;
}

const pct = (ratio) => `${ratio >= 1 ? '+' : '−'}${(Math.abs(ratio - 1) * 100).toFixed(0)}%`;

/** One Markdown table: a row per fixture and configuration, each switched-on one against the same fixture's off. */
export function overheadTable(rows) {
  const lines = [
    '| fixture | configuration | seconds (windows) | turns/s (wall) | turns per CPU-second | each window ÷ its neighbours off (median) | p99 event-loop delay | switched on / off in | target RSS growth a window (processes) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const off = r.configs.find((c) => c.label === 'off');
    for (const c of r.configs) {
      const on = c !== off;
      lines.push(`| ${r.fixture} | ${c.label} | ${c.seconds.toFixed(0)} (${c.windows}) | ${c.perSec.toFixed(1)}${on ? ` (${pct(c.perSec / off.perSec)})` : ''} | ` +
        `${c.perCpuSec.toFixed(1)}${on ? ` (${pct(c.perCpuSec / off.perCpuSec)})` : ''} | ${on ? pct(c.pairedRatio) : ''} | ${c.p99DelayMs.toFixed(0)} ms | ` +
        `${on ? `${c.startMs} / ${c.stopMs} ms` : ''} | ${(c.rssGrowthKiB / 1024).toFixed(1)} MiB (${c.processes}) |`);
    }
  }
  return lines.join('\n');
}
