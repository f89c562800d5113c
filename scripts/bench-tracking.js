#!/usr/bin/env node
// What allocation tracking (`attach --trace-allocations`) costs a target, side by side on the story
// fixtures: requests served a second, p99 event-loop delay, and RSS growth, in windows of equal length
// without tracking, with it, and without it again (the two untracked windows bracket the tracked one, so
// a target that slows as its leak grows does not count against tracking). The figures go to stdout as a
// table (and `--json`); src/attach/tracking-cost.ts and docs/allocation-sites.md hold the measured ones.
// Not a test: the figures depend on the machine. Also callable from scripts/bench-attach.js:
//   import { benchTracking, trackingTable } from './bench-tracking.js'
//   node scripts/bench-tracking.js [--window 8] [--fixtures a,c,zoo] [--node /path/to/node] [--json]
// How: the fixture runs free (lib/serve.cjs) with its inspector on an ephemeral port; over the inspector
// the script installs a perf_hooks event-loop-delay histogram in it (10 ms resolution), reads the request
// counter (`globalThis.__leakhuntRequests`) at each window's edges and VmRSS from /proc, and turns
// tracking on with HeapProfiler.startTrackingHeapObjects({ trackAllocations: true }) and off with
// HeapProfiler.disable, as leakhunt does (src/attach/session.ts).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import CDP from 'chrome-remote-interface';

const ROOT = new URL('..', import.meta.url).pathname;
export const TRACKING_FIXTURES = {
  a: { file: 'fixtures/agents/context-capture.cjs', rate: 1000, what: 'story A (LangGraph agent, grpc client per turn)' },
  c: { file: 'fixtures/agents/callback-retention.cjs', rate: 1000, what: 'story C (LangGraph agent, callback keeps updates)' },
  zoo: { file: 'fixtures/zoo/listener-per-request.cjs', rate: 2000, what: 'zoo listener-per-request (plain Node)' },
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rssOf = (pid) => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

async function startFixture(node, fixture) {
  const child = spawn(node, ['--inspect-port=0', '--inspect', join(ROOT, fixture.file)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LEAKHUNT_FIXTURE_RATE: String(fixture.rate) },
  });
  const port = await new Promise((resolve, reject) => {
    let text = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      text += d;
      const m = /ws:\/\/127\.0\.0\.1:(\d+)\//.exec(text);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`${fixture.file} exited (${code}) before its inspector listened`)));
  });
  child.stderr.resume();
  return { child, port };
}

async function evaluate(client, expression) {
  const r = await client.Runtime.evaluate({ expression, returnByValue: true, includeCommandLineAPI: true });
  if (r.exceptionDetails) throw new Error(`evaluation failed: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
  return r.result.value;
}

const HISTOGRAM = `(() => { const h = require('node:perf_hooks').monitorEventLoopDelay({ resolution: 10 }); h.enable(); globalThis.__benchDelay = h; return true; })()`;

/** One window: requests a second, p99 event-loop delay (ms) and RSS growth (bytes) over `ms`. */
async function window(client, pid, ms) {
  await evaluate(client, 'globalThis.__benchDelay.reset()');
  const r0 = await evaluate(client, 'globalThis.__leakhuntRequests');
  const rss0 = rssOf(pid);
  const t0 = Date.now();
  await sleep(ms);
  const r1 = await evaluate(client, 'globalThis.__leakhuntRequests');
  const elapsed = Date.now() - t0;
  const p99 = (await evaluate(client, 'globalThis.__benchDelay.percentile(99)')) / 1e6;
  return { perSec: ((r1 - r0) * 1000) / elapsed, p99DelayMs: p99, rssGrowthBytes: rssOf(pid) - rss0, rssBytes: rssOf(pid) };
}

export async function benchTracking({ node = process.execPath, windowMs = 8000, fixtures = Object.keys(TRACKING_FIXTURES), log = () => {} } = {}) {
  const rows = [];
  for (const key of fixtures) {
    const fixture = TRACKING_FIXTURES[key];
    const { child, port } = await startFixture(node, fixture);
    let client;
    try {
      client = await CDP({ host: '127.0.0.1', port });
      await evaluate(client, HISTOGRAM);
      await sleep(3000); // warm-up: modules loaded, JIT settled
      log(`${key}: untracked window`);
      const off1 = await window(client, child.pid, windowMs);
      await client.HeapProfiler.enable();
      const t = Date.now();
      await client.HeapProfiler.startTrackingHeapObjects({ trackAllocations: true });
      const startPauseMs = Date.now() - t;
      log(`${key}: tracked window (start took ${startPauseMs} ms)`);
      const on = await window(client, child.pid, windowMs);
      await client.HeapProfiler.disable();
      log(`${key}: untracked window`);
      const off2 = await window(client, child.pid, windowMs);
      const offPerSec = (off1.perSec + off2.perSec) / 2;
      const offRss = (off1.rssGrowthBytes + off2.rssGrowthBytes) / 2;
      rows.push({
        fixture: key, what: fixture.what, node: await evaluate(client, 'process.version'), windowMs, startPauseMs,
        off: { perSec: offPerSec, p99DelayMs: Math.max(off1.p99DelayMs, off2.p99DelayMs), rssGrowthBytes: offRss },
        on: { perSec: on.perSec, p99DelayMs: on.p99DelayMs, rssGrowthBytes: on.rssGrowthBytes },
        throughputLoss: offPerSec > 0 ? 1 - on.perSec / offPerSec : 0,
        extraRssBytes: on.rssGrowthBytes - offRss,
      });
    } finally {
      await client?.close().catch(() => {});
      child.kill('SIGKILL');
    }
  }
  return rows;
}

export function trackingTable(rows) {
  const f = (x, d = 0) => x.toFixed(d);
  const lines = [
    '| fixture | node | req/s off | req/s on | throughput lost | p99 delay off | p99 delay on | RSS growth off | RSS growth on | start pause |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(`| ${r.fixture} | ${r.node} | ${f(r.off.perSec)} | ${f(r.on.perSec)} | ${f(r.throughputLoss * 100)}% | ${f(r.off.p99DelayMs, 1)} ms | ${f(r.on.p99DelayMs, 1)} ms | ${f(r.off.rssGrowthBytes / 2 ** 20, 1)} MiB | ${f(r.on.rssGrowthBytes / 2 ** 20, 1)} MiB | ${r.startPauseMs} ms |`);
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { window: { type: 'string', default: '8' }, fixtures: { type: 'string', default: Object.keys(TRACKING_FIXTURES).join(',') }, node: { type: 'string', default: process.execPath }, json: { type: 'boolean' } } });
  const rows = await benchTracking({ node: values.node, windowMs: Number(values.window) * 1000, fixtures: values.fixtures.split(','), log: (l) => process.stderr.write(`bench:tracking: ${l}\n`) });
  process.stdout.write(values.json ? `${JSON.stringify(rows, null, 2)}\n` : `${trackingTable(rows)}\n`);
}
