// `leakhunt attach --counter / --every` and the interval as running time, against real children over
// the real inspector: the counter recorded with each snapshot (JSON and the file beside it) and turned
// into per-unit rates; snapshots paced by the counter; the interval counted from the end of a snapshot;
// the longest wait; and bad expressions (exit 2, one line, the target alive and its inspector closed,
// a side effect refused, an endless loop stopped). Targets open their inspector on a random port
// (--inspect-port=0), so this file can run beside the others.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { sleep, startTarget, type LiveTarget } from '../helpers/live-target.js';

const COUNTER = 'globalThis.__leakhuntRequests';

interface Snapshot {
  file: string;
  metaFile: string;
  takenAt: string;
  durationMs: number;
  counter?: number;
}
interface AttachJson {
  verdict: string;
  warnings: string[];
  snapshots: Snapshot[];
  capture: {
    taken: number;
    intervalMs?: number;
    intervalFrom: string;
    counter?: { expression: string; every?: number; units?: number };
    unitCount?: { count: number; source: string };
    inspector: { openedByUs: boolean; inspectorClosed: boolean };
  };
  findings: { className: string; count: number; perInterval: number; perUnit?: number }[];
}

async function withTarget(target: LiveTarget, body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-counter-'));
  try {
    await body(dir);
  } finally {
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The inspector leakhunt opened is closed again and the target runs on. */
async function assertLeftAsFound(target: LiveTarget): Promise<void> {
  assert.deepEqual(target.listeningPorts(), [], 'its inspector is closed again');
  await sleep(300); // a target that crashed while its inspector closed would be gone by now
  assert.ok(target.alive(), `the target still runs; its stderr:\n${target.stderr()}`);
}

test('--counter --every: snapshots paced by the counter, each reading recorded, per-unit rates over its advance', async () => {
  // map-cache: exactly one CacheEntry per request, kept forever.
  const target = await startTarget({ fixture: 'map-cache', nodeArgs: ['--inspect-port=0'], rate: 50, warmupMs: 300 });
  await withTarget(target, async (dir) => {
    const every = 40;
    const r = await runCli(['attach', String(target.pid), '--counter', COUNTER, '--every', String(every), '--snapshots', '3', '--sample-every', '250ms', '--out', join(dir, 'c'), '--json'], { timeoutMs: 120_000 });
    assert.equal(r.code, 1, `a leak; stderr:\n${r.stderr}`);
    const j = JSON.parse(r.stdout) as AttachJson;
    assert.match(r.stderr, new RegExp(`counter +${COUNTER.replace(/[.$]/g, '\\$&')} = \\d+ \\(read without side effects\\)`));
    const readings = j.snapshots.map((s) => s.counter);
    assert.ok(readings.every((v) => typeof v === 'number'), `a reading with each snapshot: ${readings.join(', ')}`);
    for (let i = 1; i < readings.length; i++) {
      assert.ok(readings[i]! - readings[i - 1]! >= every, `at least ${every} requests between snapshots ${i} and ${i + 1}: ${readings.join(' → ')}`);
    }
    for (const s of j.snapshots) {
      assert.equal((JSON.parse(readFileSync(s.metaFile, 'utf8')) as Snapshot).counter, s.counter, 'the same reading in the JSON beside the snapshot');
    }
    assert.deepEqual(j.capture.counter, { expression: COUNTER, every, units: readings[2]! - readings[0]! });
    assert.equal(j.capture.intervalMs, 600_000, 'a longest wait of 10 minutes without --interval');
    assert.deepEqual(j.capture.unitCount, { count: readings[2]! - readings[0]!, source: 'counter' });
    const top = j.findings[0]!;
    assert.equal(top.className, 'CacheEntry');
    assert.ok(top.perUnit !== undefined && top.perUnit > 0.85 && top.perUnit < 1.15, `one CacheEntry per request: ${top.perUnit} per unit`);
    assert.deepEqual(j.warnings, []);
    assert.equal(j.capture.inspector.inspectorClosed, true);
    await assertLeftAsFound(target);
  });
});

test('--interval is running time from the end of one snapshot to the start of the next; --counter alone names its units in text', async () => {
  const target = await startTarget({ fixture: 'map-cache', nodeArgs: ['--inspect-port=0'], rate: 50, warmupMs: 300 });
  await withTarget(target, async (dir) => {
    const out = join(dir, 'c');
    const r = await runCli(['attach', String(target.pid), '--counter', COUNTER, '--interval', '1500ms', '--snapshots', '3', '--out', out, '--no-progress'], { timeoutMs: 120_000 });
    assert.equal(r.code, 1, r.stderr);
    const metas = [1, 2, 3].map((n) => JSON.parse(readFileSync(join(out, `${target.pid}-${n}.json`), 'utf8')) as Snapshot);
    for (let i = 1; i < metas.length; i++) {
      const endOfPrevious = Date.parse(metas[i - 1]!.takenAt) + metas[i - 1]!.durationMs;
      const running = Date.parse(metas[i]!.takenAt) - endOfPrevious;
      assert.ok(running >= 1500 - 5, `the target ran ${running} ms between snapshot ${i} and ${i + 1}`);
    }
    const readings = metas.map((m) => m.counter!);
    assert.match(r.stdout, /capture +3 of 3 snapshots, 1\.5 s of running time between them/);
    const counterLine = r.stdout.replace(/\n {2,}/g, ' ').split('\n').find((l) => l.startsWith('counter'));
    assert.ok(counterLine, `a counter line in the report:\n${r.stdout}`);
    assert.ok(counterLine.includes(`${COUNTER}: ${readings.map((v) => v.toLocaleString('en-US')).join(' → ')}`), counterLine);
    assert.match(counterLine, /\(\+\d+, \+\d+; [\d,]+ units for the per-unit rates\)/);
    assert.match(r.stdout, /per unit of work/);
    await assertLeftAsFound(target);
  });
});

test('--every with --interval: the snapshot is taken after the longest wait, with a warning', async () => {
  const target = await startTarget({ fixture: 'control', nodeArgs: ['--inspect-port=0'], rate: 20, warmupMs: 200 });
  await withTarget(target, async (dir) => {
    const r = await runCli(['attach', String(target.pid), '--counter', COUNTER, '--every', '1000000', '--interval', '1s', '--snapshots', '2', '--sample-every', '200ms', '--out', join(dir, 'c'), '--json'], { timeoutMs: 120_000 });
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    const j = JSON.parse(r.stdout) as AttachJson;
    assert.equal(j.capture.taken, 2);
    assert.equal(j.capture.intervalMs, 1000);
    const warning = j.warnings.find((w) => /longest wait/.test(w));
    assert.match(warning ?? '', /^snapshot 2 was taken after the longest wait \(--interval 1 s\): the counter had advanced \d+ of 1000000$/, j.warnings.join(' | '));
    assert.ok(r.stderr.includes(`leakhunt: warning: ${warning}`), `the warning on stderr too:\n${r.stderr}`);
    await assertLeftAsFound(target);
  });
});

/**
 * A plain program with a counter that also says on stderr if `globalThis.x` ever appears: a refused
 * expression must not have run at all.
 */
const COUNTING = `
globalThis.turns = 0;
setInterval(() => {
  globalThis.turns++;
  if ('x' in globalThis) { process.stderr.write('x WAS SET\\n'); delete globalThis.x; }
}, 20);
`;

test('a bad --counter: exit 2 with one line naming it; nothing written; the target alive, its inspector closed', async () => {
  const target = await startTarget({ code: COUNTING, nodeArgs: ['--inspect-port=0'], warmupMs: 200 });
  await withTarget(target, async (dir) => {
    const cases: [string, RegExp][] = [
      ['globalThis.nope', /^leakhunt: --counter "globalThis\.nope" returned undefined, not a finite number$/],
      ['globalThis.x = 1', /^leakhunt: --counter "globalThis\.x = 1" was refused: V8 cannot prove it free of side effects \(EvalError: Possible side-effect in debug-evaluate\)/],
      ['while (true) {}', /^leakhunt: --counter "while \(true\) \{\}" ran longer than 500 ms and was stopped$/],
      ['turns +', /^leakhunt: --counter "turns \+" threw SyntaxError: /],
    ];
    for (const [expression, line] of cases) {
      const out = join(dir, 'never');
      const r = await runCli(['attach', String(target.pid), '--counter', expression, '--snapshots', '2', '--interval', '1s', '--out', out], { timeoutMs: 60_000 });
      assert.equal(r.code, 2, `${expression}: exit 2; stderr:\n${r.stderr}`);
      const lines = r.stderr.trim().split('\n');
      assert.match(lines[lines.length - 1]!, line, `${expression}: the last line of stderr`);
      assert.equal(lines.filter((l) => /--counter/.test(l)).length, 1, `one line about it:\n${r.stderr}`);
      assert.ok(!lines.some((l) => /^\s+at /.test(l)), 'no stack trace');
      assert.match(r.stderr, /leakhunt: inspector: closed/, 'detached before the error');
      assert.ok(!existsSync(out), 'no output directory, no snapshot');
      await assertLeftAsFound(target);
    }
    assert.doesNotMatch(target.stderr(), /x WAS SET/, 'the refused assignment never ran');
    // The same target answers a good counter afterwards (the terminated loop left it healthy).
    const ok = await runCli(['attach', String(target.pid), '--counter', 'globalThis.turns', '--every', '10', '--snapshots', '2', '--sample-every', '100ms', '--out', join(dir, 'ok'), '--json'], { timeoutMs: 60_000 });
    assert.ok(ok.code === 0 || ok.code === 1, ok.stderr);
    const j = JSON.parse(ok.stdout) as AttachJson;
    assert.ok(j.snapshots[1]!.counter! - j.snapshots[0]!.counter! >= 10);
    await assertLeftAsFound(target);
  });
});

test('--every without --counter is a usage error before anything is touched', async () => {
  const r = await runCli(['attach', '4194303', '--every', '50']);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr, 'leakhunt: --every needs --counter: the expression whose advance it waits for\n');
});
