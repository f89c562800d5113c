#!/usr/bin/env node
// `npm run bench:profile`: what `leakhunt profile` costs the target, side by side with the same target
// left alone, on the story fixtures run closed-loop as fast as they go (every turn starts when the
// previous one ended: throughput is their capacity). Two costs, measured apart:
//  1. Sampling, all the time the profiler runs: throughput (turns a second of the target's own CPU time —
//     the figure a machine shared with other work blurs least — and of wall time; the agent's own request
//     counter) and the p99 event-loop delay (a 10 ms timer inside the target). In one target per fixture,
//     after a warm-up, the seconds alternate: --phase-seconds sampled at c1, settle, as many off, the
//     same for c2, … for --rounds cycles ("settle": the second in which sampling is stopped, which builds the whole profile;
//     not counted)
//     (scripts/lib/loop-probe.cjs switches V8's sampling heap profiler through an in-process inspector
//     session: the same V8 calls leakhunt makes over the socket). Alternating second by second cancels
//     what drifts — a target that slows as it leaks (story A), a machine that gets busier. Each
//     configuration's turns and CPU are summed over its seconds; the delays are pooled for the p99.
//     A sampling interval of 1 GiB (the profiler on, next to no samples taken) is the method's control:
//     what it shows is the noise and bias of the measurement itself, not a cost of sampling.
//  2. A reading: `leakhunt profile --interval 5s --samples 3` on a fresh target, per configuration; each
//     reading pauses the target while V8 builds and sends the profile (it grows with the live samples).
//     At --interval T a reading of r ms costs r/T of the time.
// Not a test: the figures depend on the machine (docs/profile.md quotes a run).
//   node scripts/bench-profile.js [--fixtures agents/context-capture,agents/callback-retention]
//     [--intervals 1073741824,131072,65536,32768] [--rounds 8] [--phase-seconds 3] [--node /path/to/node]
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
    intervals: { type: 'string', default: '1073741824,131072,65536,32768' },
    rounds: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '30' },
    'phase-seconds': { type: 'string', default: '3' },
    node: { type: 'string', default: process.execPath },
  },
});
const fixtures = opts.fixtures.split(',');
const configs = opts.intervals.split(',');
const rounds = Number(opts.rounds);
const warmupRequests = Number(opts.warmup);
const phaseSeconds = Number(opts['phase-seconds']);
const repeat = (phase) => new Array(phaseSeconds).fill(phase);
const log = (line) => process.stderr.write(`bench:profile: ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
};

/** The fixture with the probe; `toggle`: the probe switches the sampling profiler second by second. */
function startTarget(fixture, toggle) {
  const child = spawn(opts.node, ['-r', PROBE, join(ROOT, 'fixtures', `${fixture}.cjs`)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '', LEAKHUNT_FIXTURE_RATE: '1000', LEAKHUNT_FIXTURE_ANNOUNCE: '1',
      ...(toggle ? { LOOP_PROBE_PHASES: configs.flatMap((c) => [...repeat(c), 'settle', ...repeat('off')]).join(','), LOOP_PROBE_CYCLES: String(rounds), LOOP_PROBE_AFTER: String(warmupRequests) } : {}),
    },
  });
  const lines = [];
  const other = []; // the target's own stderr (Node's inspector lines, a crash)
  let serving = false;
  let stopping = false;
  let buffered = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    buffered += d;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.startsWith('loop-probe ')) lines.push(JSON.parse(line.slice('loop-probe '.length)));
      else if (line.startsWith('leakhunt-fixture: serving')) serving = true;
      else other.push(line);
    }
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => {
    if (!stopping) log(`${fixture} (pid ${child.pid}) exited by itself: code ${code}, signal ${signal}; its last stderr lines:\n${other.slice(-15).join('\n')}`);
    resolve();
  }));
  return {
    pid: child.pid,
    lines,
    serving: () => serving,
    stop: async () => {
      stopping = true;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** `leakhunt profile --interval 5s --samples 3 --json` on the target: its readings. */
function runProfile(pid, samplingInterval) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'profile', String(pid), '--interval', '5s', '--samples', '3', '--sampling-interval', samplingInterval, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    child.once('exit', (code) => {
      if (code !== 0 && code !== 1) return reject(new Error(`leakhunt profile exited ${code}: ${err}`));
      const result = JSON.parse(out);
      if (!result.profile.inspector.inspectorClosed) return reject(new Error(`the inspector of pid ${pid} was left open: ${result.profile.inspector.note}`));
      resolve(result);
    });
  });
}

/** Per phase: turns and CPU summed over its seconds, delays pooled (each line covers the second before it). */
function byPhase(lines) {
  const phases = new Map();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const prev = lines[i - 1];
    if (line.phase === 'warm-up' || line.phase === 'done' || line.phase === 'settle') continue;
    const p = phases.get(line.phase) ?? { turns: 0, cpuUs: 0, ms: 0, delays: [], seconds: 0 };
    p.turns += line.requests - prev.requests;
    p.cpuUs += line.cpuUs - prev.cpuUs;
    p.ms += line.t - prev.t;
    p.delays.push(...line.delays);
    p.seconds++;
    phases.set(line.phase, p);
  }
  return phases;
}

async function startServing(fixture, toggle) {
  const target = startTarget(fixture, toggle);
  const deadline = Date.now() + 60_000;
  while (!target.serving()) {
    if (Date.now() > deadline) throw new Error(`${fixture} did not start serving`);
    await sleep(50);
  }
  return target;
}

const pct = (a, b) => `${a >= b ? '+' : ''}${(((a - b) / b) * 100).toFixed(1)}%`;
const rows = [['fixture', 'sampling interval', 'seconds', 'turns per CPU-second', 'turns/s (wall)', 'p99 event-loop delay', 'a reading pauses it (live sampled objects)']];
log(`node ${opts.node}; ${fixtures.length} fixtures; ${rounds} cycles of ${configs.map((c) => `${c} ×${phaseSeconds}, settle, off ×${phaseSeconds}`).join(', ')} (seconds) after ${warmupRequests} turns; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const fixture of fixtures) {
  let target = await startServing(fixture, true);
  try {
    const deadline = Date.now() + 60_000 + (2 * phaseSeconds + 1) * configs.length * rounds * 1500;
    while (!target.lines.some((l) => l.phase === 'done')) {
      if (Date.now() > deadline) throw new Error(`${fixture}: the probe's phases did not end`);
      await sleep(500);
    }
    const phases = byPhase(target.lines);
    const off = phases.get('off');
    const offCpu = (off.turns * 1e6) / off.cpuUs;
    const offWall = (off.turns * 1000) / off.ms;
    const offP99 = percentile(off.delays, 0.99);
    rows.push([fixture, 'off (not profiled)', String(off.seconds), offCpu.toFixed(1), offWall.toFixed(1), `${offP99.toFixed(1)} ms`, '']);
    // The readings on a fresh target: story A leaks a grpc-js channel a turn and, some minutes in at full
    // speed, fails a call and exits by itself (code 70). Its probe switches nothing: the profiler is
    // one per process, and a second session stopping it would stop leakhunt's.
    await target.stop();
    target = await startServing(fixture, false);
    while ((target.lines[target.lines.length - 1]?.requests ?? 0) < warmupRequests) await sleep(250);
    const sampled = configs.map((config) => {
      const p = phases.get(config);
      const cpu = (p.turns * 1e6) / p.cpuUs;
      const wall = (p.turns * 1000) / p.ms;
      const p99 = percentile(p.delays, 0.99);
      log(`${fixture} ${config}: ${cpu.toFixed(1)} turns/CPU-s vs ${offCpu.toFixed(1)} off; ${wall.toFixed(1)} turns/s vs ${offWall.toFixed(1)}; p99 ${p99.toFixed(1)} vs ${offP99.toFixed(1)} ms`);
      return { config, seconds: p.seconds, cpu, wall, p99 };
    });
    for (const { config, seconds, cpu, wall, p99 } of sampled) {
      const control = Number(config) >= 2 ** 30;
      const readings = control ? [] : (await runProfile(target.pid, config)).profile.readings; // the control is no setting of leakhunt's
      const reads = readings.map((r) => `${r.readMs} ms (${r.sampledObjects})`).join(', ');
      log(`${fixture} ${config}: readings ${reads}`);
      const label = control ? `${Number(config) / 2 ** 30} GiB (control: on, ~no samples)` : `${Number(config) / 1024} KiB`;
      rows.push([fixture, label, String(seconds), `${cpu.toFixed(1)} (${pct(cpu, offCpu)})`, `${wall.toFixed(1)} (${pct(wall, offWall)})`, `${p99.toFixed(1)} ms (${pct(p99, offP99)})`, reads]);
    }
  } finally {
    await target.stop();
  }
}
process.stdout.write(`${rows.map((r) => `| ${r.join(' | ')} |`).join('\n').replace(/\n/, `\n|${rows[0].map(() => '---').join('|')}|\n`)}\n`);
log(`load at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
