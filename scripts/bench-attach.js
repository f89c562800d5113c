#!/usr/bin/env node
// `npm run bench:attach`: what a snapshot costs the target under `leakhunt attach`, side by side with
// V8's own `v8.writeHeapSnapshot()` in the same target, on heaps of ~70 and ~300 MiB (issue 13's
// targets: leakhunt's pause ≤ 1.1× V8's own, leakhunt's capture RSS ≤ 100 MB counting every leakhunt
// process). Not a test: the figures depend on the machine; the table goes to stdout.
// Per heap size, in one target (fixtures/heap-size.cjs, which measures its own pauses with a 5 ms timer):
//   W0 v8.writeHeapSnapshot (warm-up, not counted: the first snapshot of a process faults in its memory),
//   W1 v8.writeHeapSnapshot, then `leakhunt attach --snapshots 2` (S1, S2), then W2.
// The pause of W is the synchronous call's duration; the pause of S is the sum of the event-loop gaps the
// target saw during that snapshot (leakhunt's forced GC and the snapshot: gaps closer than 2 s together;
// when a loaded machine chains both snapshots' gaps into one group, each gets half).
// leakhunt's RSS: every process of the run summed (scripts/process-tree-rss.js), sampled every 50 ms until
// the second snapshot is on disk; then the run is stopped with SIGINT (its analysis is not the capture).
//   node scripts/bench-attach.js [--sizes 70,300] [--node /path/to/node]   (the target and leakhunt's node)
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sampleTreeRss } from './process-tree-rss.js';

const ROOT = new URL('..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin', 'leakhunt.js');
const FIXTURE = join(ROOT, 'fixtures', 'heap-size.cjs');
const { values: opts } = parseArgs({ options: { sizes: { type: 'string', default: '70,300' }, node: { type: 'string', default: process.execPath } } });
const sizes = opts.sizes.split(',').map(Number);
const log = (line) => process.stderr.write(`bench:attach: ${line}\n`);
const mib = (bytes) => bytes / 2 ** 20;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The heap-size fixture driven through stdin/stdout: one JSON reply per command. */
async function startTarget(sizeMiB) {
  const child = spawn(opts.node, ['--inspect-port=0', FIXTURE, String(sizeMiB)], { stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = [];
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (d) => {
    buffered += d;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      waiting.shift()?.(msg);
    }
  });
  const next = () => new Promise((resolve) => waiting.push(resolve));
  const ready = await next();
  return {
    pid: child.pid,
    ready,
    ask: (line) => {
      const reply = next();
      child.stdin.write(`${line}\n`);
      return reply;
    },
    stop: () => child.kill('SIGKILL'),
  };
}

function nodeCountOf(file) {
  const fd = openSync(file, 'r');
  const head = Buffer.alloc(4096);
  readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  return Number(/"node_count":(\d+)/.exec(head.toString('latin1'))?.[1] ?? NaN);
}

/** Gaps closer than `joinMs` together: one snapshot's forced GC and its generation are one pause each. */
function pauseGroups(pauses, joinMs = 2000) {
  const groups = [];
  for (const p of pauses) {
    const last = groups[groups.length - 1];
    if (last && p.atMs - last.endMs < joinMs) {
      last.ms += p.ms;
      last.endMs = p.atMs + p.ms;
    } else groups.push({ ms: p.ms, endMs: p.atMs + p.ms });
  }
  return groups.map((g) => g.ms).filter((ms) => ms >= 100); // a snapshot is never shorter; evaluations are
}

async function leakhuntAttach(pid, outDir) {
  const cli = spawn(opts.node, [BIN, 'attach', String(pid), '--snapshots', '2', '--interval', '10s', '--out', outDir, '--progress', '--json'], {
    env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  const rss = sampleTreeRss(cli.pid);
  let stderr = '';
  const exited = new Promise((resolve) => cli.on('close', resolve));
  await new Promise((resolve) => {
    cli.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
      if (/snapshot 2 of 2: [^\n]* → /.test(stderr)) resolve();
    });
    exited.then(resolve);
  });
  const { peakKiB, maxProcesses } = rss.stop();
  cli.kill('SIGINT');
  await exited;
  const predicted = /pause {6}~([\d.]+) s/.exec(stderr)?.[1];
  return { peakKiB, maxProcesses, predictedPauseS: predicted === undefined ? undefined : Number(predicted), stderr };
}

const rows = [];
for (const sizeMiB of sizes) {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-bench-attach-'));
  log(`${sizeMiB} MiB: building the heap`);
  const target = await startTarget(sizeMiB);
  try {
    const rssStart = target.ready.memory.vmRss;
    const write = async (name) => {
      const r = await target.ask(`write ${join(dir, name)}`);
      log(`  ${name}: ${r.ms} ms, ${mib(r.bytes).toFixed(0)} MiB, target RSS ${mib(r.memory.vmRss).toFixed(0)} MiB`);
      return r;
    };
    const w0 = await write('w0.heapsnapshot');
    const nodes = nodeCountOf(join(dir, 'w0.heapsnapshot'));
    rmSync(join(dir, 'w0.heapsnapshot'));
    await target.ask('pauses');
    const w1 = await write('w1.heapsnapshot');
    rmSync(join(dir, 'w1.heapsnapshot'));
    await target.ask('pauses');
    const before = (await target.ask('memory')).memory;
    log('  leakhunt attach --snapshots 2');
    const lh = await leakhuntAttach(target.pid, join(dir, 'capture'));
    // Under load the gaps of two snapshots can chain into one group: then each gets the group's share.
    const groups = pauseGroups((await target.ask('pauses')).pauses);
    const total = groups.reduce((a, b) => a + b, 0);
    const s = groups.length === 2 ? groups : [total / 2, total / 2].map(Math.round);
    const after = (await target.ask('memory')).memory;
    log(`  leakhunt: pauses ${s.join(', ')} ms; RSS of its processes ${(lh.peakKiB / 1024).toFixed(0)} MiB (${lh.maxProcesses} process(es))`);
    const files = ['1', '2'].map((n) => statSync(join(dir, 'capture', `${target.pid}-${n}.heapsnapshot`)).size);
    const w2 = await write('w2.heapsnapshot');
    rows.push({
      sizeMiB, heapUsed: target.ready.memory.heapUsed, nodes, rssStart, rssAfterWarmup: w0.memory.vmRss,
      v8Ms: [w1.ms, w2.ms], leakhuntMs: s.slice(0, 2), predictedPauseS: lh.predictedPauseS,
      leakhuntRssKiB: lh.peakKiB, leakhuntProcesses: lh.maxProcesses,
      fileBytes: Math.max(...files), rssAroundLeakhunt: [before.vmRss, after.vmRss], rssEnd: w2.memory.vmRss,
    });
  } finally {
    target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const version = spawnSync(opts.node, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim();
console.log(`leakhunt attach vs v8.writeHeapSnapshot(), Node ${version}, ${new Date().toISOString().slice(0, 10)}`);
console.log('| heap | heap nodes | V8 writeHeapSnapshot pause (W1, W2) | leakhunt pause (S1, S2) | ratio (medians) | predicted | leakhunt capture RSS (processes) | snapshot file | target RSS: start → after warm-up → end |');
console.log('|---|---:|---|---|---:|---:|---:|---:|---|');
for (const r of rows) {
  const ratio = median(r.leakhuntMs) / median(r.v8Ms);
  console.log(`| ${mib(r.heapUsed).toFixed(0)} MiB | ${r.nodes.toLocaleString('en')} | ${r.v8Ms.map((m) => (m / 1000).toFixed(1)).join(', ')} s | ` +
    `${r.leakhuntMs.map((m) => (m / 1000).toFixed(1)).join(', ')} s | ${ratio.toFixed(2)} | ${r.predictedPauseS ?? '?'} s | ` +
    `${(r.leakhuntRssKiB / 1024).toFixed(0)} MiB (${r.leakhuntProcesses}) | ${mib(r.fileBytes).toFixed(0)} MiB | ` +
    `${mib(r.rssStart).toFixed(0)} → ${mib(r.rssAfterWarmup).toFixed(0)} → ${mib(r.rssEnd).toFixed(0)} MiB |`);
}
console.log(`\n${JSON.stringify(rows)}`);
