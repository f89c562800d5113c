#!/usr/bin/env node
// What allocation tracking (`attach --trace-allocations`) costs a target, alone: turns a second, p99
// event-loop delay, RSS growth and the pause of turning it on, in windows of equal length untracked,
// tracked, untracked (--cycles times; the untracked ones on either side of a tracked one share its drift).
// The measurement is scripts/lib/overhead-windows.js, shared with `npm run bench:attach -- --only
// overhead` (which also measures the sampling profiler beside it); src/attach/tracking-cost.ts and
// docs/allocation-sites.md hold the measured figures. Not a test: the figures depend on the machine.
//   npm run bench:tracking -- [--window 8] [--cycles 1] [--fixtures a,c,zoo] [--node /path/to/node] [--json]
import { parseArgs } from 'node:util';
import { BENCH_FIXTURES, benchFixture, startBenchTarget, warmUp } from './lib/bench-target.js';
import { measureOverhead } from './lib/overhead-windows.js';
import { TRACKING } from './lib/profiler-modes.js';

export async function benchTracking({ node = process.execPath, windowMs = 8000, cycles = 1, fixtures = Object.keys(BENCH_FIXTURES), log = () => {} } = {}) {
  const rows = [];
  for (const name of fixtures) {
    const fixture = benchFixture(name);
    const target = await startBenchTarget(node, fixture);
    try {
      await warmUp(target);
      log(`${fixture.file}: untracked, tracked, untracked`);
      const { configs } = await measureOverhead(target, { modes: [TRACKING], cycles, windowMs, log });
      const [off, on] = configs;
      rows.push({
        fixture: name, what: fixture.what, node: target.nodeVersion, windowMs, startPauseMs: on.startMs,
        off: { perSec: off.perSec, p99DelayMs: off.p99DelayMs, rssGrowthBytes: off.rssGrowthKiB * 1024 },
        on: { perSec: on.perSec, p99DelayMs: on.p99DelayMs, rssGrowthBytes: on.rssGrowthKiB * 1024 },
        throughputLoss: off.perSec > 0 ? 1 - on.perSec / off.perSec : 0,
        extraRssBytes: (on.rssGrowthKiB - off.rssGrowthKiB) * 1024,
        processes: Math.max(off.processes, on.processes),
      });
    } finally {
      await target.stop();
    }
  }
  return rows;
}

export function trackingTable(rows) {
  const f = (x, d = 0) => x.toFixed(d);
  const lines = [
    '| fixture | node | req/s off | req/s on | throughput lost | p99 delay off | p99 delay on | RSS growth off | RSS growth on (processes) | start pause |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(`| ${r.fixture} | ${r.node} | ${f(r.off.perSec)} | ${f(r.on.perSec)} | ${f(r.throughputLoss * 100)}% | ${f(r.off.p99DelayMs, 1)} ms | ${f(r.on.p99DelayMs, 1)} ms | ${f(r.off.rssGrowthBytes / 2 ** 20, 1)} MiB | ${f(r.on.rssGrowthBytes / 2 ** 20, 1)} MiB (${r.processes}) | ${r.startPauseMs} ms |`);
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { window: { type: 'string', default: '8' }, cycles: { type: 'string', default: '1' }, fixtures: { type: 'string', default: Object.keys(BENCH_FIXTURES).join(',') }, node: { type: 'string', default: process.execPath }, json: { type: 'boolean' } } });
  const rows = await benchTracking({ node: values.node, windowMs: Number(values.window) * 1000, cycles: Number(values.cycles), fixtures: values.fixtures.split(','), log: (l) => process.stderr.write(`bench:tracking: ${l}\n`) });
  process.stdout.write(values.json ? `${JSON.stringify(rows, null, 2)}\n` : `${trackingTable(rows)}\n`);
}
