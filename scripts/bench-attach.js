#!/usr/bin/env node
// `npm run bench:attach`: what leakhunt costs the process it diagnoses, in two parts, each a table on
// stdout (progress on stderr). Not a test: the figures depend on the machine; the load average is printed
// with each table. `--only pause` or `--only overhead` runs one part (the pause part takes ~10–20 min on
// 2 cores, the overhead part ~5 min with the defaults).
//
// pause (scripts/lib/attach-pause.js) — a snapshot's pause under `leakhunt attach`, side by side with
//   V8's own `v8.writeHeapSnapshot()` in the same target, on heaps of ~70 and ~300 MiB (issue 13's targets:
//   leakhunt's pause ≤ 1.1× V8's own, leakhunt's capture RSS ≤ 100 MB counting every leakhunt process).
//   Per heap size, in one target (fixtures/heap-size.cjs, which measures its own pauses with a 5 ms timer),
//   the two alternate: W0 v8.writeHeapSnapshot (warm-up, not counted: the first snapshot of a process
//   faults in its memory), W1, then `leakhunt attach --snapshots R` (R = --rounds): S1, W2 during its
//   interval, S2, W3, …, SR; then W(R+1). The pause of W is the synchronous call's duration (by the
//   target's clock); the pause of S is the sum of every event-loop gap the target saw from 100 ms before
//   leakhunt's first progress line for that snapshot until it was on disk (gaps placed in our time
//   through the target's clock offset): the counter and memory reads, the snapshot, and whatever else in
//   that window (on a loaded machine, timer jitter too: it counts against leakhunt). Ratios: median(S) /
//   median(W), and the median of each S over the mean of the two W beside it. The method leakhunt used is
//   read from each snapshot's JSON. leakhunt's RSS: every process of the run summed
//   (scripts/process-tree-rss.js; the count is in the table), sampled every 50 ms until the second
//   snapshot is on disk; then the run is stopped with SIGINT (its analysis is not the capture).
//
// overhead (scripts/lib/attach-overhead.js) — what the two ways of naming the allocating line cost a
//   running target, on the story fixtures (A: agents/context-capture, C: agents/callback-retention; `zoo`:
//   zoo/listener-per-request) served closed-loop as fast as they go: nothing switched on, allocation
//   tracking as `attach --trace-allocations` runs it, and the sampling heap profiler at `leakhunt
//   profile`'s default interval. One target per fixture, warmed up (30 turns, 3 s), then windows of
//   --window seconds alternate: off, sampling, off, sampling, … (--cycles times), then off, tracking,
//   off, tracking, …, off (switching on, switching off and --settle seconds after it fall outside every
//   window; each mode in one block: tracking slows the target for a while after it is off). Throughput
//   is the target's own counter (`globalThis.__leakhuntRequests`) per second of wall time and per second
//   of its CPU time (every thread); the p99 event-loop delay comes from a 10 ms timer inside the target, pooled over a
//   configuration's windows; "÷ its neighbours" is each switched-on window's rate over the mean of the off
//   windows on either side (median): what drifts over minutes (a leaking target slowing, the machine's
//   load) is shared with them. Both profilers are switched over the inspector with leakhunt's own calls
//   (scripts/lib/profiler-modes.js) by this process, which stays connected in the off windows too (it
//   reads the counter at each window's edges and nothing else). The target's RSS is read from /proc for
//   the target and any process it starts (the count is in the table; the fixtures start none).
//
//   node scripts/bench-attach.js [--only pause|overhead] [--node /path/to/node]   (the target's and leakhunt's node)
//     pause:    [--sizes 70,300] [--rounds 3]
//     overhead: [--fixtures a,c] [--window 6] [--cycles 4] [--settle 1]   (seconds)
//     [--json]: the rows of each part as JSON after its table
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { benchOverhead, overheadTable } from './lib/attach-overhead.js';
import { benchPause, pauseTable } from './lib/attach-pause.js';

const { values: opts } = parseArgs({
  options: {
    only: { type: 'string' },
    node: { type: 'string', default: process.execPath },
    sizes: { type: 'string', default: '70,300' },
    rounds: { type: 'string', default: '3' },
    fixtures: { type: 'string', default: 'a,c' },
    window: { type: 'string', default: '6' },
    cycles: { type: 'string', default: '4' },
    settle: { type: 'string', default: '1' },
    json: { type: 'boolean' },
  },
});
const parts = opts.only === undefined ? ['pause', 'overhead'] : opts.only.split(',');
for (const part of parts) if (part !== 'pause' && part !== 'overhead') throw new Error(`--only takes pause or overhead, got "${part}"`);
const log = (line) => process.stderr.write(`bench:attach: ${line}\n`);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
/** The 1-minute load average every 10 s while `run` runs: its lowest and highest, for the table's line. */
async function withLoad(run) {
  const seen = [loadavg()[0]];
  const timer = setInterval(() => seen.push(loadavg()[0]), 10_000);
  try {
    return { result: await run(), load: `${Math.min(...seen).toFixed(1)}–${Math.max(...seen).toFixed(1)}` };
  } finally {
    clearInterval(timer);
  }
}
const version = spawnSync(opts.node, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim();

if (parts.includes('pause')) {
  const rows = await benchPause({ node: opts.node, sizes: opts.sizes.split(',').map(Number), rounds: Math.max(2, Number(opts.rounds)), log });
  console.log(`${pauseTable(rows, version)}\n`);
  if (opts.json) console.log(`${JSON.stringify(rows)}\n`);
}
if (parts.includes('overhead')) {
  const windowMs = Number(opts.window) * 1000;
  const cycles = Number(opts.cycles);
  const { result: rows, load: during } = await withLoad(() => benchOverhead({ node: opts.node, fixtures: opts.fixtures.split(','), windowMs, cycles, settleMs: Number(opts.settle) * 1000, log }));
  console.log(`What tracking and sampling cost the target, Node ${version}, ${new Date().toISOString().slice(0, 10)}, ${cycles} cycles of ${opts.window} s windows; load average (1 min) ${during} during the run, ${load()} at its end`);
  console.log(`${overheadTable(rows)}\n`);
  if (opts.json) console.log(`${JSON.stringify(rows)}\n`);
}
