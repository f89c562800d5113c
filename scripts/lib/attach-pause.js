// `npm run bench:attach -- --only pause`: what a snapshot costs the target under `leakhunt attach`, side by
// side with V8's own `v8.writeHeapSnapshot()` in the same target (fixtures/heap-size.cjs); the method is
// in scripts/bench-attach.js's header. leakhunt's capture RSS counts every process of its run
// (scripts/process-tree-rss.js).
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleTreeRss } from '../process-tree-rss.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin', 'leakhunt.js');
const FIXTURE = join(ROOT, 'fixtures', 'heap-size.cjs');
const mib = (bytes) => bytes / 2 ** 20;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The heap-size fixture driven through stdin/stdout: one JSON reply per command. */
async function startTarget(node, sizeMiB) {
  const child = spawn(node, ['--inspect-port=0', FIXTURE, String(sizeMiB)], { stdio: ['pipe', 'pipe', 'ignore'] });
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

/**
 * The target's clock (performance.now()) minus ours (Date.now()), from the quickest of a few round trips
 * while nothing pauses it: to place its gaps in our time.
 */
async function clockOffset(target) {
  let best;
  for (let i = 0; i < 5; i++) {
    const t0 = Date.now();
    const r = await target.ask('pauses');
    const t1 = Date.now();
    if (!best || t1 - t0 < best.rtt) best = { rtt: t1 - t0, offset: r.nowMs - (t0 + t1) / 2 };
  }
  return best.offset;
}

/**
 * `leakhunt attach --snapshots <rounds>`, with `onSnapshot(n, window)` once snapshot n is on disk; `window` is
 * when it ran by our clock, from its first progress line to its "→" line. Memory samples are taken once an
 * hour, i.e. never during the run: a sample is an evaluate, which would wait for W2 in the interval.
 */
async function leakhuntAttach(node, rounds, pid, outDir, intervalS, onSnapshot) {
  const cli = spawn(node, [BIN, 'attach', String(pid), '--snapshots', String(rounds), '--interval', `${intervalS}s`, '--sample-every', '3600s', '--out', outDir, '--progress', '--verbose', '--json'], {
    env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  const rss = sampleTreeRss(cli.pid);
  let stderr = '';
  let seen = 0;
  const startedAt = {};
  const exited = new Promise((resolve) => cli.on('close', resolve));
  let chain = Promise.resolve();
  await new Promise((resolve) => {
    cli.stderr.setEncoding('utf8').on('data', (d) => {
      const now = Date.now();
      stderr += d;
      for (const m of stderr.matchAll(/snapshot (\d+) of \d+: (?:generating|writing)/g)) startedAt[m[1]] ??= now;
      const done = (stderr.match(/snapshot \d+ of \d+: [^\n]* → /g) ?? []).length;
      while (seen < done) {
        const n = ++seen;
        const window = { fromMs: startedAt[n] ?? now, toMs: now };
        chain = chain.then(() => onSnapshot(n, window));
        if (n === rounds) chain.then(resolve);
      }
    });
    exited.then(resolve);
  });
  const { peakKiB, maxProcesses } = rss.stop();
  cli.kill('SIGINT');
  await exited;
  const predicted = /pause {6}~([\d.]+) s/.exec(stderr)?.[1];
  return { peakKiB, maxProcesses, predictedPauseS: predicted === undefined ? undefined : Number(predicted), stderr, seen };
}

const sumGaps = (pauses) => pauses.reduce((a, p) => a + p.ms, 0);

/** Per heap size, one target: the W and S pauses, leakhunt's capture RSS and the target's. */
export async function benchPause({ node, sizes, rounds, log }) {
  const rows = [];
  for (const sizeMiB of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'leakhunt-bench-attach-'));
    log(`${sizeMiB} MiB: building the heap`);
    const target = await startTarget(node, sizeMiB);
    try {
      const rssStart = target.ready.memory.vmRss;
      const write = async (name) => {
        const r = await target.ask(`write ${join(dir, name)}`);
        log(`  ${name}: V8's own ${r.ms} ms, ${mib(r.bytes).toFixed(0)} MiB, target RSS ${mib(r.memory.vmRss).toFixed(0)} MiB`);
        rmSync(join(dir, name));
        return r;
      };
      const w0 = await write('w0.heapsnapshot');
      const w1 = await write('w1.heapsnapshot');
      const before = (await target.ask('memory')).memory;
      const offset = await clockOffset(target);
      const out = join(dir, 'capture');
      const interval = Math.ceil((1.5 * w1.ms) / 1000) + 20; // room for W2 between S1 and S2
      log(`  leakhunt attach --snapshots ${rounds} --interval ${interval}s`);
      const s = [];
      const w = [w1];
      const lh = await leakhuntAttach(node, rounds, target.pid, out, interval, async (n, window) => {
        // Every gap the target saw from leakhunt's first line for the snapshot to its file on disk (by the
        // target's clock, placed in ours; 100 ms of slack before that line), nothing of the interval before it.
        const from = window.fromMs + offset - 100, to = window.toMs + offset;
        const gaps = (await target.ask('pauses')).pauses.filter((g) => g.atMs >= from && g.atMs <= to);
        s.push(sumGaps(gaps));
        log(`  S${n}: the target was paused ${s[n - 1]} ms (gaps over 20 ms: ${gaps.map((g) => g.ms).join(', ')} ms; window ${((window.toMs - window.fromMs) / 1000).toFixed(1)} s)`);
        if (n < rounds) w.push(await write(`w${n + 1}.heapsnapshot`));
      });
      if (lh.seen < rounds) throw new Error(`leakhunt took ${lh.seen} of ${rounds} snapshots:\n${lh.stderr}`);
      const after = (await target.ask('memory')).memory;
      log(`  leakhunt: RSS of its processes ${(lh.peakKiB / 1024).toFixed(0)} MiB (${lh.maxProcesses} process(es))`);
      const metas = s.map((_, i) => JSON.parse(readFileSync(join(out, `${target.pid}-${i + 1}.json`), 'utf8')));
      const nodes = nodeCountOf(join(out, `${target.pid}-1.heapsnapshot`));
      w.push(await write(`w${rounds + 1}.heapsnapshot`));
      rows.push({
        sizeMiB, heapUsed: target.ready.memory.heapUsed, nodes, rssStart, rssAfterWarmup: w0.memory.vmRss,
        v8Ms: w.map((x) => x.ms), leakhuntMs: s, methods: metas.map((m) => m.method), predictedPauseS: lh.predictedPauseS,
        leakhuntRssKiB: lh.peakKiB, leakhuntProcesses: lh.maxProcesses,
        fileBytes: Math.max(...metas.map((m) => m.bytes)), rssAroundLeakhunt: [before.vmRss, after.vmRss], rssEnd: w[w.length - 1].memory.vmRss,
      });
    } finally {
      target.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

/** The Markdown table of benchPause's rows (`version`: the target's Node). */
export function pauseTable(rows, version) {
  const lines = [];
  const secs = (xs) => xs.map((m) => (m / 1000).toFixed(1)).join(', ');
  lines.push(`leakhunt attach vs v8.writeHeapSnapshot(), Node ${version}, ${new Date().toISOString().slice(0, 10)}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  lines.push('| heap | heap nodes | V8 writeHeapSnapshot pause (W1 … ) | leakhunt pause (S1 … ) | method | ratio of medians | median of S / its neighbours\' W | predicted | leakhunt capture RSS (processes) | snapshot file | target RSS: start → after warm-up → end |');
  lines.push('|---|---:|---|---|---|---:|---:|---:|---:|---:|---|');
  for (const r of rows) {
    const ratio = median(r.leakhuntMs) / median(r.v8Ms);
    const paired = median(r.leakhuntMs.map((ms, i) => ms / ((r.v8Ms[i] + r.v8Ms[i + 1]) / 2)));
    lines.push(`| ${mib(r.heapUsed).toFixed(0)} MiB | ${r.nodes.toLocaleString('en')} | ${secs(r.v8Ms)} s | ${secs(r.leakhuntMs)} s | ${[...new Set(r.methods)].join(', ')} | ` +
      `${ratio.toFixed(2)} | ${paired.toFixed(2)} | ${r.predictedPauseS ?? '?'} s | ${(r.leakhuntRssKiB / 1024).toFixed(0)} MiB (${r.leakhuntProcesses}) | ${mib(r.fileBytes).toFixed(0)} MiB | ` +
      `${mib(r.rssStart).toFixed(0)} → ${mib(r.rssAfterWarmup).toFixed(0)} → ${mib(r.rssEnd).toFixed(0)} MiB |`);
  }
  return lines.join('\n');
}
