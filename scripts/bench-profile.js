#!/usr/bin/env node
// `npm run bench:profile`: what `leakhunt profile` costs the target, side by side with the same target
// left alone: throughput (turns a second of wall time, and of the target's own CPU time — the figure a
// machine shared with other work does not blur; the agent's own request counter) and the p99 event-loop delay
// (a 10 ms timer inside the target, scripts/lib/loop-probe.cjs), on the story fixtures run closed-loop
// as fast as they go (every turn starts when the previous one ended: throughput is their capacity).
// Each run is a fresh process: warm-up, then a window of --seconds either left alone ("off") or sampled
// by `leakhunt profile --sampling-interval X`: the window from the end of its first reading to the start
// of its second, as --json reports them (then it is stopped with SIGINT). A reading pauses the target while
// V8 builds and sends the profile: its median is reported apart (at --interval T it costs read/T more). Configurations rotate from round to round so a
// machine that slows down over the run does not favour one. Medians over rounds; the table goes to
// stdout. Not a test: the figures depend on the machine (docs/profile.md quotes a run).
//   node scripts/bench-profile.js [--fixtures agents/context-capture,agents/callback-retention]
//     [--intervals off,32768,16384,8192] [--rounds 3] [--seconds 10] [--node /path/to/node]
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = new URL('..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin', 'leakhunt.js');
const PROBE = join(ROOT, 'scripts', 'lib', 'loop-probe.cjs');
const { values: opts } = parseArgs({
  options: {
    fixtures: { type: 'string', default: 'agents/context-capture,agents/callback-retention' },
    intervals: { type: 'string', default: 'off,32768,16384,8192' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '4' },
    node: { type: 'string', default: process.execPath },
  },
});
const fixtures = opts.fixtures.split(',');
const configs = opts.intervals.split(',');
const rounds = Number(opts.rounds);
const windowMs = Number(opts.seconds) * 1000;
const warmupMs = Number(opts.warmup) * 1000;
const log = (line) => process.stderr.write(`bench:profile: ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
};

function startTarget(fixture) {
  const child = spawn(opts.node, ['-r', PROBE, join(ROOT, 'fixtures', `${fixture}.cjs`)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH ?? '', LEAKHUNT_FIXTURE_RATE: '1000', LEAKHUNT_FIXTURE_ANNOUNCE: '1' },
  });
  const lines = [];
  let serving = false;
  let buffered = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    buffered += d;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.startsWith('loop-probe ')) lines.push(JSON.parse(line.slice('loop-probe '.length)));
      else if (line.startsWith('leakhunt-fixture: serving')) serving = true;
    }
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    pid: child.pid,
    lines,
    serving: () => serving,
    stop: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * `leakhunt profile` with readings --seconds apart, stopped with SIGINT once the second reading is in:
 * the window between the end of the first reading and the start of the second is sampling alone; each
 * reading pauses the target for about its read time (reported apart).
 */
function runProfile(pid, samplingInterval) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'profile', String(pid), '--interval', `${windowMs}ms`, '--samples', '3', '--sampling-interval', samplingInterval, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let stopped = false;
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => {
      err += d;
      if (!stopped && /reading 2\/3/.test(err)) stopped = child.kill('SIGINT'); // once: a second SIGINT quits at once
    });
    child.once('exit', (code) => {
      if (code !== 130) return reject(new Error(`leakhunt profile exited ${code} (expected 130 after SIGINT): ${err}`));
      resolve(JSON.parse(out));
    });
  });
}

/** Throughput and p99 delay of the probe's lines inside [from, to] (Unix ms). */
function measure(lines, from, to) {
  const inside = lines.filter((l) => l.t >= from && l.t <= to);
  if (inside.length < 2) throw new Error(`too few probe lines in the window (${inside.length})`);
  const first = inside[0];
  const last = inside[inside.length - 1];
  const delays = inside.slice(1).flatMap((l) => l.delays);
  const turns = last.requests - first.requests;
  return {
    turnsPerSec: (turns * 1000) / (last.t - first.t),
    // Turns per second of the target's own CPU time (every thread): its capacity, whatever else the machine runs.
    turnsPerCpuSec: (turns * 1e6) / (last.cpuUs - first.cpuUs),
    p99Ms: percentile(delays, 0.99),
    ticks: delays.length,
  };
}

async function runOnce(fixture, config) {
  const target = startTarget(fixture);
  try {
    const deadline = Date.now() + 60_000;
    while (!target.serving()) {
      if (Date.now() > deadline) throw new Error(`${fixture} did not start serving`);
      await sleep(50);
    }
    await sleep(warmupMs);
    let from;
    let to;
    let readMs = 0;
    if (config === 'off') {
      from = Date.now();
      await sleep(windowMs);
      to = from + windowMs;
    } else {
      const out = await runProfile(target.pid, config);
      const [r1, r2] = out.profile.readings;
      from = Date.parse(r1.takenAt) + r1.readMs;
      to = Date.parse(r2.takenAt);
      readMs = median([r1.readMs, r2.readMs]);
      if (!out.profile.inspector.inspectorClosed) throw new Error(`the inspector of pid ${target.pid} was left open: ${out.profile.inspector.note}`);
    }
    await sleep(1100); // the probe's line that covers the window's end
    return { ...measure(target.lines, from, to), readMs };
  } finally {
    await target.stop();
  }
}

const results = new Map(); // `${fixture} ${config}` → runs
log(`node ${opts.node}; ${rounds} rounds of ${fixtures.length} fixtures × ${configs.length} configurations, ${windowMs / 1000} s windows; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (let round = 0; round < rounds; round++) {
  const order = configs.map((_, i) => configs[(i + round) % configs.length]);
  for (const fixture of fixtures) {
    for (const config of order) {
      const r = await runOnce(fixture, config);
      const key = `${fixture} ${config}`;
      results.set(key, [...(results.get(key) ?? []), r]);
      log(`round ${round + 1} ${fixture} ${config}: ${r.turnsPerSec.toFixed(1)} turns/s, ${r.turnsPerCpuSec.toFixed(1)} turns/CPU-s, p99 ${r.p99Ms.toFixed(1)} ms (${r.ticks} ticks)${config === 'off' ? '' : `, profile read ${r.readMs} ms`}`);
    }
  }
}
const rows = [['fixture', 'sampling interval', 'turns per CPU-second', 'vs off', 'turns/s (wall)', 'vs off', 'p99 event-loop delay', 'vs off', 'a reading pauses it']];
for (const fixture of fixtures) {
  const off = results.get(`${fixture} off`);
  const base = (f) => (off ? median(off.map(f)) : undefined);
  for (const config of configs) {
    const runs = results.get(`${fixture} ${config}`);
    const vs = (f) => {
      const a = median(runs.map(f));
      const b = base(f);
      return b === undefined || config === 'off' ? '' : `${a >= b ? '+' : ''}${(((a - b) / b) * 100).toFixed(1)}%`;
    };
    rows.push([
      fixture, config === 'off' ? 'off (not profiled)' : `${Number(config) / 1024} KiB`,
      median(runs.map((r) => r.turnsPerCpuSec)).toFixed(1), vs((r) => r.turnsPerCpuSec),
      median(runs.map((r) => r.turnsPerSec)).toFixed(1), vs((r) => r.turnsPerSec),
      `${median(runs.map((r) => r.p99Ms)).toFixed(1)} ms`, vs((r) => r.p99Ms),
      config === 'off' ? '' : `${median(runs.map((r) => r.readMs))} ms`,
    ]);
  }
}
process.stdout.write(`${rows.map((r) => `| ${r.join(' | ')} |`).join('\n').replace(/\n/, `\n|${rows[0].map(() => '---').join('|')}|\n`)}\n`);
log(`load at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
