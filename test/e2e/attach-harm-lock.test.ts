// issue 13, defects 8 and 9. Two leakhunts on one process: the second used to join the first's inspector
// as "already listening", the first closed it under the second. One capture per target now (a lock file
// per target process, src/attach/target-lock.ts): the second exits 4 naming the holder, for attach,
// snapshot and watch --heap alike; a lock whose holder died is taken over; the lock is gone once the
// holder ends. And a target with its own process.on('SIGUSR1'): the message says what was seen (the
// options it was started with, the signal caught, no port) and never suggests a flag it already has.
// The lock directory is a private one of this test file (XDG_RUNTIME_DIR), so stale locks can be planted.

import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { spawnCli } from '../helpers/cli-process.js';
import { sleep, startTarget, waitFor } from '../helpers/live-target.js';

const runtime = mkdtempSync(join(tmpdir(), 'leakhunt-harm-xdg-'));
process.env.XDG_RUNTIME_DIR = runtime; // spawnCli passes process.env on
const lockDir = join(runtime, 'leakhunt');
const env = { XDG_RUNTIME_DIR: runtime };
process.on('exit', () => rmSync(runtime, { recursive: true, force: true }));

const IDLE = 'globalThis.keep = []; setInterval(() => keep.push({ n: keep.length }), 50);';

function startTicksOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3]!;
}

test('a second leakhunt on a target being captured exits 4 naming the first; the lock goes with the first', async (t: TestContext) => {
  const target = await startTarget({ code: IDLE, nodeArgs: ['--inspect-port=0'], warmupMs: 200 });
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-harm-lock-'));
  try {
    const first = spawnCli(['attach', String(target.pid), '--snapshots', '2', '--interval', '60s', '--out', join(dir, 'first'), '--json', '--progress', '--verbose']);
    await first.waitForStderr(/next snapshot \(2 of 2\) in/, 60_000);
    const port = target.listeningPorts();
    assert.equal(port.length, 1, 'the first one opened the inspector');
    for (const args of [['snapshot', String(target.pid), '-o', join(dir, 'second.heapsnapshot')], ['watch', String(target.pid), '--heap', '--for', '1s'], ['attach', String(target.pid), '--out', join(dir, 'third')]]) {
      const started = Date.now();
      const second = await runCli(args);
      t.diagnostic(`${args[0]}: refused in ${Date.now() - started} ms`);
      assert.equal(second.code, 4, second.stderr);
      const m = new RegExp(`pid ${target.pid} is already being captured by leakhunt pid (\\d+) \\(since \\d{4}-\\d\\d-\\d\\dT[^:]+:\\d\\d:\\d\\d[.\\dZ]*: leakhunt attach ${target.pid} `).exec(second.stderr);
      assert.ok(m, second.stderr);
      assert.match(readFileSync(`/proc/${m[1]}/cmdline`, 'utf8'), /leakhunt\.js\0attach/, 'the holder named is the running attach');
      assert.ok(!existsSync(join(dir, 'second.heapsnapshot')));
      assert.deepEqual(target.listeningPorts(), port, 'the first one\'s inspector is untouched');
    }
    assert.equal(readdirSync(lockDir).length, 1, 'one lock file');
    first.child.kill('SIGINT');
    const r = await first.done;
    assert.equal(r.code, 130, r.stderr);
    assert.deepEqual(readdirSync(lockDir), [], 'released');
    assert.deepEqual(target.listeningPorts(), []);
    const again = await runCli(['snapshot', String(target.pid), '-o', join(dir, 'after.heapsnapshot')], { env });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(readdirSync(lockDir), []);
    await sleep(300);
    assert.ok(target.alive());
  } finally {
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a lock left by a leakhunt that died is taken over', async () => {
  const target = await startTarget({ code: IDLE, nodeArgs: ['--inspect-port=0'], warmupMs: 200 });
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-harm-stale-'));
  try {
    // The holder: a process that ran and is gone (its pid is free, or another process's by now).
    const gone = spawnSync('true');
    mkdirSync(lockDir, { recursive: true, mode: 0o700 });
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().slice(0, 8);
    const lock = join(lockDir, `target-${boot}-${target.pid}-${startTicksOf(target.pid)}.lock`);
    writeFileSync(lock, `${JSON.stringify({ pid: gone.pid, startTicks: 1, command: 'leakhunt attach (killed)', since: '2026-01-01T00:00:00.000Z' })}\n`, { mode: 0o600 });
    const r = await runCli(['snapshot', String(target.pid), '-o', join(dir, 's.heapsnapshot')], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!existsSync(lock), 'the stale lock was taken over, then released');
    assert.deepEqual(target.listeningPorts(), []);
  } finally {
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an inspector left open by a leakhunt killed with -9 is closed by the next one (it was ours), not left open as "already listening"', async (t: TestContext) => {
  const target = await startTarget({ code: IDLE, nodeArgs: ['--inspect-port=0'], warmupMs: 200 });
  try {
    const killed = spawnCli(['watch', String(target.pid), '--heap', '--every', '200ms', '--json']);
    await killed.waitForStderr(/connected/, 20_000);
    const port = target.listeningPorts();
    assert.equal(port.length, 1);
    killed.child.kill('SIGKILL'); // nothing of leakhunt runs after this
    await killed.done;
    assert.deepEqual(target.listeningPorts(), port, 'the inspector it opened is left open');
    const started = Date.now();
    const r = await runCli(['watch', String(target.pid), '--heap', '--every', '200ms', '--for', '600ms'], { env });
    t.diagnostic(`the next watch ended ${Date.now() - started} ms after it started`);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr.replace(/\n +/g, ' '), new RegExp(`the inspector on 127\\.0\\.0\\.1:${port[0]} was opened by leakhunt pid ${killed.child.pid}, which ended without closing it: it will be closed`));
    assert.match(r.stderr, /inspector: closed/);
    assert.deepEqual(target.listeningPorts(), [], 'closed');
    assert.deepEqual(readdirSync(lockDir), [], 'no lock left');
    await sleep(300);
    assert.ok(target.alive());
  } finally {
    await target.stop();
  }
});

const OWN_SIGUSR1 = `process.on('SIGUSR1', () => process.stderr.write('app: SIGUSR1\\n')); setInterval(() => {}, 100);`;

test('a target with its own SIGUSR1 handler and --inspect-port=0: exit 4 saying the app handles SIGUSR1, no advice to add a flag it has', async (t: TestContext) => {
  const withFlag = await startTarget({ code: OWN_SIGUSR1, nodeArgs: ['--inspect-port=0'], warmupMs: 200 });
  const without = await startTarget({ code: OWN_SIGUSR1, warmupMs: 200 });
  try {
    const started = Date.now();
    const r = await runCli(['snapshot', String(withFlag.pid), '-o', join(tmpdir(), `never-${withFlag.pid}.heapsnapshot`), '--connect-timeout', '2s'], { env });
    t.diagnostic(`refused in ${Date.now() - started} ms`);
    assert.equal(r.code, 4, r.stderr);
    const line = r.stderr.trim().split('\n').pop()!;
    assert.match(line, /opened no inspector port within 2\.0 s of SIGUSR1 \(started with --inspect-port=0;/);
    assert.match(line, /handles SIGUSR1 itself/);
    assert.match(line, /start it with --inspect \(it already has --inspect-port=0/);
    assert.match(line, /inspector\.open\(\)/);
    assert.match(line, /--port/);
    assert.doesNotMatch(line, /start it with --inspect-port=0/, 'it already has that flag');
    await waitFor(() => /app: SIGUSR1/.test(withFlag.stderr()), 2000, 'the app\'s handler to have run');
    assert.deepEqual(withFlag.listeningPorts(), []);
    assert.ok(withFlag.alive());

    const r2 = await runCli(['snapshot', String(without.pid), '-o', join(tmpdir(), `never-${without.pid}.heapsnapshot`), '--connect-timeout', '2s'], { env });
    assert.equal(r2.code, 4, r2.stderr);
    const line2 = r2.stderr.trim().split('\n').pop()!;
    assert.match(line2, /\(started without inspector options; Node would have opened it on 127\.0\.0\.1:9229\)/);
    assert.match(line2, /handles SIGUSR1 itself/);
    assert.match(line2, /start it with --inspect-port=0 --inspect/);
    assert.ok(without.alive());
  } finally {
    await withFlag.stop();
    await without.stop();
  }
});
