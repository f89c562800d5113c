#!/usr/bin/env node
// `npm run bench:profile`: what `leakhunt profile` costs the target at several sampling intervals, side by
// side with the same target left alone, on the story fixtures run closed-loop as fast as they go (every
// turn starts when the previous one ended: throughput is their capacity). `npm run bench:attach -- --only
// overhead` measures the default interval beside allocation tracking; this sweep is how the default was
// chosen. Two costs, measured apart:
//  1. Sampling, all the time the profiler runs: in one target per fixture, after a warm-up, windows of
//     --phase-seconds alternate: off, sampled at interval 1, off, interval 2, …, off, for --rounds cycles
//     (scripts/lib/overhead-windows.js, interleaved: sampling leaves nothing behind, so a drift — a
//     target that slows as it leaks, a machine that gets busier — reaches every interval alike). The
//     profiler is switched over the inspector with leakhunt's calls (scripts/lib/profiler-modes.js);
//     `stopSampling` builds the whole profile, which falls outside every window (a cost `leakhunt profile`
//     pays once, at its end). Throughput: turns a second of the target's CPU time (every thread — the
//     figure a machine shared with other work blurs least) and of wall time, from the agent's own request
//     counter; the p99 event-loop delay from a 10 ms timer inside the target, pooled over the windows.
//     A sampling interval of 1 GiB (the profiler on, next to no samples taken) is the method's control:
//     what it shows is the noise and bias of the measurement itself, not a cost of sampling.
//  2. A reading: `leakhunt profile --interval 5s --samples 3` on a fresh target, per interval; each
//     reading pauses the target while V8 collects garbage and builds and sends the profile (it grows with
//     the heap and the live samples). At --interval T a reading of r ms costs r/T of the time.
// Not a test: the figures depend on the machine (docs/profile.md quotes runs).
//   node scripts/bench-profile.js [--fixtures a,c] [--intervals 1073741824,131072,65536,32768]
//     [--rounds 8] [--phase-seconds 3] [--node /path/to/node]
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchFixture, startBenchTarget, warmUp } from './lib/bench-target.js';
import { measureOverhead } from './lib/overhead-windows.js';
import { sampling } from './lib/profiler-modes.js';

const ROOT = new URL('..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin', 'leakhunt.js');
const { values: opts } = parseArgs({
  options: {
    fixtures: { type: 'string', default: 'a,c' },
    intervals: { type: 'string', default: '1073741824,131072,65536,32768' },
    rounds: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '30' },
    'phase-seconds': { type: 'string', default: '3' },
    node: { type: 'string', default: process.execPath },
  },
});
const modes = opts.intervals.split(',').map((bytes) => sampling(Number(bytes)));
const log = (line) => process.stderr.write(`bench:profile: ${line}\n`);
const pct = (a, b) => `${a >= b ? '+' : ''}${(((a - b) / b) * 100).toFixed(1)}%`;

/** `leakhunt profile --interval 5s --samples 3 --json` on the target: its readings. */
function runProfile(pid, samplingInterval) {
  return new Promise((resolve, reject) => {
    const child = spawn(opts.node, [BIN, 'profile', String(pid), '--interval', '5s', '--samples', '3', '--sampling-interval', String(samplingInterval), '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    child.once('exit', (code) => {
      if (code !== 0 && code !== 1) return reject(new Error(`leakhunt profile exited ${code}: ${err}`));
      resolve(JSON.parse(out).profile.readings);
    });
  });
}

/** The fixture served and warmed up; `close()` leaves its inspector to leakhunt (no session of ours open). */
async function servingTarget(fixture) {
  const target = await startBenchTarget(opts.node, fixture);
  try {
    await warmUp(target, { requests: Number(opts.warmup) });
  } catch (err) {
    await target.stop();
    throw err;
  }
  return target;
}

const rows = [['fixture', 'sampling interval', 'seconds', 'turns per CPU-second', 'turns/s (wall)', 'each window ÷ its neighbours off (median)', 'p99 event-loop delay', 'a reading pauses it (live sampled objects)']];
log(`node ${opts.node}; ${opts.rounds} cycles of ${opts['phase-seconds']} s windows: off, ${modes.map((m) => m.label).join(', off, ')}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const name of opts.fixtures.split(',')) {
  const fixture = benchFixture(name);
  let target = await servingTarget(fixture);
  try {
    const { configs } = await measureOverhead(target, { modes, cycles: Number(opts.rounds), windowMs: Number(opts['phase-seconds']) * 1000, interleave: true, log });
    const [off, ...sampled] = configs;
    rows.push([fixture.file, 'off (not profiled)', off.seconds.toFixed(0), off.perCpuSec.toFixed(1), off.perSec.toFixed(1), '', `${off.p99DelayMs.toFixed(1)} ms`, '']);
    // The readings on a fresh target, with no session of ours open beside leakhunt's.
    await target.stop();
    target = await servingTarget(fixture);
    await target.client.close();
    for (const [i, c] of sampled.entries()) {
      const bytes = modes[i].samplingInterval;
      const control = bytes >= 2 ** 30; // no setting of leakhunt's
      const reads = control ? '' : (await runProfile(target.pid, bytes)).map((r) => `${r.readMs} ms (${r.sampledObjects})`).join(', ');
      log(`${fixture.file} ${c.label}: readings ${reads}`);
      rows.push([fixture.file, control ? `${bytes / 2 ** 30} GiB (control: on, ~no samples)` : `${bytes / 1024} KiB`, c.seconds.toFixed(0),
        `${c.perCpuSec.toFixed(1)} (${pct(c.perCpuSec, off.perCpuSec)})`, `${c.perSec.toFixed(1)} (${pct(c.perSec, off.perSec)})`,
        pct(c.pairedRatio, 1), `${c.p99DelayMs.toFixed(1)} ms (${pct(c.p99DelayMs, off.p99DelayMs)})`, reads]);
    }
  } finally {
    await target.stop();
  }
}
process.stdout.write(`${rows.map((r) => `| ${r.join(' | ')} |`).join('\n').replace(/\n/, `\n|${rows[0].map(() => '---').join('|')}|\n`)}\n`);
log(`load at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
