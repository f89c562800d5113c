// issue 13, defect 2: every way leakhunt ends closes the inspector it opened. An inspector left open is
// remote code execution for anyone on the host, and a later run would find it "already listening" and
// leave it open too. For each way to end — a reader that goes away (EPIPE on stdout, on stderr), a full
// disk behind `> file` (a failed write), SIGINT / SIGTERM / SIGHUP, an uncaught error — the target must
// no longer listen once leakhunt has ended (read from /proc by live-target.ts, not by src/attach) and
// must still run. Targets open their inspector on a random port (--inspect-port=0).

import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN } from '../helpers/cli.js';
import { spawnCli } from '../helpers/cli-process.js';
import { sleep, startTarget, type LiveTarget } from '../helpers/live-target.js';

const IDLE = 'globalThis.keep = []; setInterval(() => keep.push({ n: keep.length }), 50);';

interface Ended {
  readonly code: number | null;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs `command` under bash (for pipes and redirections); resolves with bash's exit code and the time it took. */
function runShell(script: string, env: Record<string, string>, timeoutMs = 60_000): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn('bash', ['-c', script], { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bash -c ${script} did not end within ${timeoutMs} ms; stderr:\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, ms: Date.now() - started });
    });
  });
}

async function assertLeftAsFound(target: LiveTarget, stderr: string): Promise<void> {
  assert.deepEqual(target.listeningPorts(), [], `the inspector leakhunt opened is closed; leakhunt's stderr:\n${stderr}`);
  await sleep(300); // a target that crashed while its inspector closed would be gone by now
  assert.ok(target.alive(), `the target still runs; its stderr:\n${target.stderr()}`);
}

async function withTarget(fn: (target: LiveTarget) => Promise<void>): Promise<void> {
  const target = await startTarget({ code: IDLE, nodeArgs: ['--inspect-port=0'], warmupMs: 200 });
  try {
    await fn(target);
  } finally {
    await target.stop();
  }
}

const LH = { NODE: process.execPath, LEAKHUNT: BIN };

test('watch --heap --json | head -1 (EPIPE on stdout): the inspector is closed, the target runs', async (t: TestContext) => {
  await withTarget(async (target) => {
    const r = await runShell(`"$NODE" "$LEAKHUNT" watch ${target.pid} --heap --every 200ms --json | head -1; exit \${PIPESTATUS[0]}`, LH);
    t.diagnostic(`leakhunt ended ${r.ms} ms after it started (first sample at once, EPIPE on the second)`);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.ms < 10_000, `${r.ms} ms`);
    await assertLeftAsFound(target, r.stderr);
  });
});

test('attach 2>&1 | head -1 (EPIPE on stderr while attached): the inspector is closed, the target runs', async (t: TestContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-harm-epipe-'));
  try {
    await withTarget(async (target) => {
      const r = await runShell(`"$NODE" "$LEAKHUNT" attach ${target.pid} --snapshots 2 --interval 30s --out "${join(dir, 'out')}" --json --progress 2>&1 | head -1; exit \${PIPESTATUS[0]}`, LH);
      t.diagnostic(`leakhunt ended ${r.ms} ms after it started`);
      assert.ok(r.ms < 15_000, `${r.ms} ms`);
      assert.deepEqual(target.listeningPorts(), [], `the inspector leakhunt opened is closed (exit ${r.code})`);
      await sleep(300);
      assert.ok(target.alive(), target.stderr());
      assert.match(target.stderr(), /Debugger attached/, 'leakhunt did attach before its reader went away');
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('watch --heap --json > /dev/full (a failed write): exit 2 naming stdout, the inspector is closed, the target runs', async (t: TestContext) => {
  await withTarget(async (target) => {
    const r = await runShell(`"$NODE" "$LEAKHUNT" watch ${target.pid} --heap --every 200ms --json > /dev/full`, LH);
    t.diagnostic(`leakhunt ended ${r.ms} ms after it started`);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /cannot write the output to stdout: .*ENOSPC/);
    assert.doesNotMatch(r.stderr, /internal error/);
    await assertLeftAsFound(target, r.stderr);
  });
});

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  test(`${signal} to watch --heap: the summary, the inspector closed, the target runs`, async (t: TestContext) => {
    await withTarget(async (target) => {
      const cli = spawnCli(['watch', String(target.pid), '--heap', '--every', '200ms', '--json']);
      await cli.waitForStderr(/connected/, 20_000);
      await sleep(600);
      const sent = Date.now();
      cli.child.kill(signal);
      const r = await cli.done;
      t.diagnostic(`leakhunt ended ${Date.now() - sent} ms after ${signal}`);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /"type":"memory_summary"/);
      await assertLeftAsFound(target, r.stderr);
    });
  });
}

test('SIGHUP to attach while a snapshot is taken (a terminal that closed): exit 129, the inspector closed, the target runs', async (t: TestContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-harm-hup-'));
  const target = await startTarget({
    code: 'globalThis.keep = []; for (let i = 0; i < 60000; i++) keep.push({ id: i, name: "item-" + i, tags: ["a"] }); setInterval(() => {}, 50);',
    nodeArgs: ['--inspect-port=0'], warmupMs: 200,
  });
  try {
    const cli = spawnCli(['attach', String(target.pid), '--snapshots', '2', '--interval', '1s', '--out', join(dir, 'out'), '--json', '--progress', '--verbose']);
    await cli.waitForStderr(/snapshot 1 of 2: generating/, 60_000);
    const sent = Date.now();
    cli.child.kill('SIGHUP');
    const r = await cli.done;
    t.diagnostic(`leakhunt ended ${Date.now() - sent} ms after SIGHUP`);
    assert.equal(r.code, 129, r.stderr);
    await assertLeftAsFound(target, r.stderr);
  } finally {
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a target that stops answering (SIGSTOP) past --connect-timeout: exit 4 naming its state, the inspector closed once it runs again', async (t: TestContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-harm-stop-'));
  try {
    await withTarget(async (target) => {
      const cli = spawnCli(['attach', String(target.pid), '--snapshots', '2', '--interval', '1s', '--connect-timeout', '1s', '--out', join(dir, 'out'), '--json', '--progress', '--verbose']);
      await cli.waitForStderr(/next snapshot \(2 of 2\) in/, 60_000);
      process.kill(target.pid, 'SIGSTOP');
      await sleep(2500);
      process.kill(target.pid, 'SIGCONT');
      const resumed = Date.now();
      const r = await cli.done;
      t.diagnostic(`leakhunt ended ${Date.now() - resumed} ms after the target was resumed (stopped for 2.5 s)`);
      assert.equal(r.code, 4, r.stderr);
      assert.match(r.stderr, /pid \d+ stopped answering: Runtime\.evaluate: no answer from the target within 1000 ms \(its state in \/proc: T \(stopped\)\)/);
      assert.doesNotMatch(r.stderr, /internal error/);
      await assertLeftAsFound(target, r.stderr);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A program that opens a target as the CLI does, then fails with an error nothing catches. */
const CRASH_AFTER_OPEN = `
const [exitPaths, openTarget] = await Promise.all([import(process.env.EXIT_PATHS), import(process.env.OPEN_TARGET)]);
exitPaths.installExitPaths();
const opened = await openTarget.openTarget({ pid: Number(process.env.PID), timeoutMs: 10000, lockAs: 'crash test' });
process.stderr.write('opened ' + opened.session.endpoint.port + '\\n');
setTimeout(() => { throw new Error('a bug nothing caught'); }, 100);
`;

test('an uncaught error while attached: exit 70, the inspector closed, the target runs', async (t: TestContext) => {
  await withTarget(async (target) => {
    const dist = (p: string): string => fileURLToPath(new URL(`../../src/${p}`, import.meta.url));
    const dir = mkdtempSync(join(tmpdir(), 'leakhunt-harm-crash-'));
    try {
      const script = join(dir, 'crash.mjs');
      writeFileSync(script, CRASH_AFTER_OPEN);
      const r = await runShell(`"$NODE" "${script}"`, {
        ...LH, PID: String(target.pid), EXIT_PATHS: dist('cli/exit-paths.js'), OPEN_TARGET: dist('attach/open-target.js'),
      });
      t.diagnostic(`the program ended ${r.ms} ms after it started`);
      assert.match(r.stderr, /opened \d+/);
      assert.equal(r.code, 70, r.stderr);
      assert.match(r.stderr, /internal error: a bug nothing caught/);
      await assertLeftAsFound(target, r.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

