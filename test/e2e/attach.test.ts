// `leakhunt attach` and `leakhunt snapshot` against real, running Node processes over the real
// inspector: a leaking fixture that was NOT started with --inspect (found by SIGUSR1, left alive and
// closed), the refusals (no such pid; not node, and still alive afterwards), a target started with
// --inspect (used and left open, also through --port), and 127.0.0.1:9229 held by another inspector
// (never attached to).
// These tests use Node's default inspector port 9229, so they stay in this one file (run in sequence).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { sleep, startTarget, waitFor, type LiveTarget } from '../helpers/live-target.js';

interface AttachJson {
  sameProcess: boolean;
  growth: number;
  classes: { name: string; countDelta: number; grewEveryInterval: boolean | null }[];
  survivors: { groups: { className: string; count: number; grewEveryInterval: boolean | null }[] } | null;
  gates: unknown[];
  target: { pid: number; nodeVersion: string };
  samples: { t: number; rss: number; heapUsed?: number; external?: number; arrayBuffers?: number }[];
  snapshots: { file: string; nodeCount: number; metaFile: string; durationMs: number }[];
  capture: { outDir: string; taken: number; endedBy: string; inspector: { port: number; how: string; openedByUs: boolean; inspectorClosed: boolean } };
  verdict: string;
  findings: { kind: string; className: string; perMinute?: number; fix: string }[];
  leakhunt: { captureRssPeak: number };
}

function privateDir(): string {
  return mkdtempSync(join(tmpdir(), 'leakhunt-attach-'));
}

/** Runs `body`, then stops the targets and removes the directories whatever happened. */
async function withTargets<T>(targets: LiveTarget[], body: () => Promise<T>, dirs: string[] = []): Promise<T> {
  try {
    return await body();
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

test('attach finds the growing class of a fixture not started with --inspect; the target lives on, its inspector closed', async () => {
  const target = await startTarget({ fixture: 'map-cache', rate: 50, warmupMs: 300 });
  const dir = privateDir();
  const out = join(dir, 'capture');
  await withTargets([target], async () => {
    assert.deepEqual(target.listeningPorts(), [], 'the fixture listens on nothing before');
    const r = await runCli(['attach', String(target.pid), '--snapshots', '3', '--interval', '2s', '--sample-every', '500ms', '--out', out, '--json'], { timeoutMs: 90_000 });
    assert.equal(r.code, 1, `exit 1: the verdict is a leak; stderr:\n${r.stderr}`);
    const j = JSON.parse(r.stdout) as AttachJson;
    assert.equal(j.target.pid, target.pid);
    assert.equal(j.target.nodeVersion, process.version);
    assert.equal(j.sameProcess, true);
    const row = j.classes.find((c) => c.name === 'CacheEntry');
    assert.ok(row && row.countDelta > 0 && row.grewEveryInterval === true, `CacheEntry grew in every interval: ${JSON.stringify(row)}`);
    assert.equal(j.survivors?.groups[0]?.className, 'CacheEntry', 'the largest survivor group is CacheEntry');
    assert.equal(j.verdict, 'leak');
    assert.equal(j.findings[0]?.className, 'CacheEntry');
    assert.ok((j.findings[0]?.perMinute ?? 0) > 0, 'a rate per minute from the capture times');
    assert.match(j.findings[0]!.fix, /responseCache/);
    // the capture
    assert.equal(j.capture.taken, 3);
    assert.equal(j.capture.endedBy, 'complete');
    assert.equal(j.snapshots.length, 3);
    assert.equal(statSync(out).mode & 0o777, 0o700, 'the output directory is private');
    for (const s of j.snapshots) {
      assert.equal(statSync(s.file).mode & 0o777, 0o600, `${s.file} is owner-only`);
      assert.ok(existsSync(s.metaFile), 'a JSON beside each snapshot');
      assert.ok(s.nodeCount > 10_000);
    }
    assert.deepEqual(readdirSync(out).filter((f) => f.endsWith('.partial')), []);
    assert.ok(j.samples.length >= 4, `memory samples all along (${j.samples.length})`);
    assert.ok(j.samples.every((s) => s.t > 0 && s.rss > 0));
    assert.ok(j.samples.some((s) => s.heapUsed !== undefined && s.external !== undefined && s.arrayBuffers !== undefined));
    assert.ok(j.leakhunt.captureRssPeak < 150 * 1024 * 1024, `leakhunt's own RSS stays small while capturing (${j.leakhunt.captureRssPeak})`);
    // the target as it was found: alive, not listening, and it really had an inspector opened and closed
    assert.equal(j.capture.inspector.how, 'sigusr1');
    assert.equal(j.capture.inspector.openedByUs, true);
    assert.equal(j.capture.inspector.inspectorClosed, true);
    assert.ok(target.alive(), 'the target is still running');
    assert.deepEqual(target.listeningPorts(), [], `no inspector port left open (port was ${j.capture.inspector.port})`);
    assert.match(target.stderr(), /Debugger listening on ws:\/\/127\.0\.0\.1:\d+/);
    assert.match(r.stderr, /^leakhunt: plan for pid \d+/m);
    assert.match(r.stderr, /~[\d.]+ s paused/, 'the plan says how long each snapshot pauses the target');
    await sleep(500); // a target that crashed while its inspector closed would be gone by now
    assert.ok(target.alive(), `and keeps running; its stderr:\n${target.stderr()}`);
  }, [dir]);
});

test('attach refuses a pid that does not exist (exit 4)', async () => {
  const r = await runCli(['attach', '4194303']);
  assert.equal(r.code, 4, r.stderr);
  assert.match(r.stderr, /^leakhunt: no process with pid 4194303$/m);
});

test('attach refuses a process that is not node and does not signal it (exit 4; it keeps running)', async () => {
  const sleeper = await startTarget({ command: ['sleep', '60'] });
  await withTargets([sleeper], async () => {
    const r = await runCli(['attach', String(sleeper.pid), '--interval', '1s']);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /is not node \(.*sleep\)/);
    assert.match(r.stderr, /uncaught SIGUSR1 kills the process/, 'the plan says why no signal is sent');
    await sleep(200);
    assert.ok(sleeper.alive(), 'sleep was not killed by a SIGUSR1');
  });
});

test('snapshot uses the inspector of a target started with --inspect=0, and leaves it listening', async () => {
  const target = await startTarget({ fixture: 'client-array', nodeArgs: ['--inspect=127.0.0.1:0'], waitForListen: true });
  const dir = privateDir();
  await withTargets([target], async () => {
    const [port] = target.listeningPorts();
    assert.ok(port && port !== 9229, `a random port (${port})`);
    const file = join(dir, 'one.heapsnapshot');
    const r = await runCli(['snapshot', String(target.pid), '-o', file, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout) as { target: { pid: number }; file: string; bytes: number };
    assert.equal(j.target.pid, target.pid);
    assert.equal(j.file, file);
    assert.equal(statSync(file).size, j.bytes);
    assert.match(r.stderr, new RegExp(`already listening on 127\\.0\\.0\\.1:${port}`));
    assert.ok(target.alive());
    assert.deepEqual(target.listeningPorts(), [port], 'the inspector it was started with is still open');
    // --port without a pid (a port-forward): memoryUsage() over the protocol, RSS included; left open too.
    const w = await runCli(['watch', '--port', String(port), '--heap', '--every', '200ms', '--for', '1s', '--json']);
    assert.equal(w.code, 0, w.stderr);
    const lines = w.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; rss?: number; heapUsed?: number });
    assert.ok(lines.filter((l) => l.type === 'memory_sample').every((l) => l.rss! > 0 && l.heapUsed! > 0));
    assert.deepEqual(target.listeningPorts(), [port]);
  }, [dir]);
});

test('127.0.0.1:9229 held by another inspector: a clear error, never the wrong process; a target on its own port is found', async () => {
  // The holder is what a naive tool would attach to: another Node process listening on 9229.
  const holder = await startTarget({ code: 'setInterval(() => {}, 1000)', nodeArgs: ['--inspect=127.0.0.1:9229'] });
  const blocked = await startTarget({ fixture: 'control' });
  const ownPort = await startTarget({ fixture: 'control', nodeArgs: ['--inspect-port=0'] });
  const dir = privateDir();
  await withTargets([holder, blocked, ownPort], async () => {
    await waitFor(() => holder.listeningPorts().length > 0 || /address already in use/.test(holder.stderr()), 5000, 'the holder to take 9229');
    const file = join(dir, 'blocked.heapsnapshot');
    const r = await runCli(['snapshot', String(blocked.pid), '-o', file, '--connect-timeout', '2s']);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /opened no inspector port within 2\.0 s of SIGUSR1/);
    assert.match(r.stderr, /127\.0\.0\.1:9229 is held by pid \d+/);
    assert.ok(!existsSync(file), 'no snapshot of anyone');
    assert.doesNotMatch(holder.stderr(), /Debugger attached/, 'leakhunt never connected to the process holding 9229');
    assert.ok(blocked.alive() && holder.alive());

    const file2 = join(dir, 'own.heapsnapshot');
    const ok = await runCli(['snapshot', String(ownPort.pid), '-o', file2, '--json']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal((JSON.parse(ok.stdout) as { target: { pid: number } }).target.pid, ownPort.pid);
    assert.doesNotMatch(holder.stderr(), /Debugger attached/);
    assert.match(ownPort.stderr(), /Debugger listening on ws:\/\/127\.0\.0\.1:(?!9229)\d+/);
    assert.deepEqual(ownPort.listeningPorts(), [], 'closed again');
    await sleep(500);
    assert.ok(ownPort.alive() && blocked.alive() && holder.alive(), 'all three still run');
  }, [dir]);
});
