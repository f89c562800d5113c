// issue 13, defect 1: a target that exits while leakhunt is attached. A process that exits with a
// debugger attached waits in its exit for that debugger to disconnect; leakhunt waiting for a GC or an
// answer that never comes froze both for good. Each target here calls process.exit(7) at a moment the
// test chooses (a marker file appears, or the first pause ends): leakhunt must end within a few seconds
// with what it captured and a clear line, and the target's own exit must complete with its own code.
// Targets open their inspector on a random port (--inspect-port=0), so this file runs beside the others.

import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli } from '../helpers/cli-process.js';
import { startTarget, type LiveTarget } from '../helpers/live-target.js';

/** How long leakhunt may take to end once the target started to exit. */
const END_WITHIN_MS = 5000;

function exitCodeOf(target: LiveTarget, withinMs: number): Promise<number | null | 'still running'> {
  return new Promise((resolve) => {
    if (target.child.exitCode !== null || target.child.signalCode !== null) return resolve(target.child.exitCode);
    const timer = setTimeout(() => resolve('still running'), withinMs);
    target.child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

async function withDir(prefix: string, fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Grows a little, and exits with 7 as soon as the marker file exists (checked every 20 ms). */
const EXIT_ON_MARKER = `
const fs = require('fs');
globalThis.keep = [];
setInterval(() => { keep.push({ n: keep.length }); if (fs.existsSync(process.env.MARKER)) process.exit(7); }, 20);
`;

test('the target exits during the interval wait: leakhunt ends in seconds, keeps its snapshot and says so, the target exits 7', async (t: TestContext) => {
  await withDir('leakhunt-harm-exit-', async (dir) => {
    const marker = join(dir, 'exit-now');
    const out = join(dir, 'capture');
    const target = await startTarget({ code: EXIT_ON_MARKER, nodeArgs: ['--inspect-port=0'], env: { MARKER: marker }, warmupMs: 200 });
    try {
      const cli = spawnCli(['attach', String(target.pid), '--snapshots', '2', '--interval', '60s', '--out', out, '--json', '--progress', '--verbose'], { timeoutMs: 90_000 });
      await cli.waitForStderr(/next snapshot \(2 of 2\) in/, 60_000);
      writeFileSync(marker, '');
      const exitAsked = Date.now();
      const r = await cli.done;
      const endedMs = Date.now() - exitAsked;
      t.diagnostic(`leakhunt ended ${endedMs} ms after the target was told to exit`);
      assert.ok(endedMs < END_WITHIN_MS, `leakhunt took ${endedMs} ms to end (interval 60 s); stderr:\n${r.stderr}`);
      assert.equal(r.code, 4, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /disconnected at once so that its exit could go on/);
      assert.match(r.stderr, /pid \d+ exited during the capture: 1 of 2 snapshots were taken \(kept in /);
      assert.match(r.stderr, /only 1 snapshot\(s\) captured .*: a diff needs two/);
      assert.equal(readdirSync(out).filter((f) => f.endsWith('.heapsnapshot')).length, 1);
      assert.equal(await exitCodeOf(target, 2000), 7, `the target's own exit completed; its stderr:\n${target.stderr()}`);
      assert.match(target.stderr(), /Waiting for the debugger to disconnect/, 'the target did wait for leakhunt (the hazard this guards against)');
    } finally {
      await target.stop();
    }
  });
});

/**
 * Keeps its loop busy in 300 ms stretches and exits with 7 from inside a stretch once the marker exists:
 * whatever leakhunt asked for meanwhile (a snapshot runs at the target's next interrupt, even mid-stretch;
 * a task queued for the loop would never run) must not keep either process waiting.
 */
const EXIT_IN_BUSY_STRETCH = `
const fs = require('fs');
globalThis.keep = [];
setInterval(() => {
  const end = Date.now() + 300;
  let i = 0;
  while (Date.now() < end) if ((++i & 1023) === 0 && fs.existsSync(process.env.MARKER)) process.exit(7);
  keep.push({ n: keep.length });
}, 1);
`;

test('the target exits from a busy stretch while a snapshot is being taken: leakhunt ends in seconds with the first snapshot kept, the target exits 7', async (t: TestContext) => {
  await withDir('leakhunt-harm-busy-', async (dir) => {
    const marker = join(dir, 'exit-now');
    const out = join(dir, 'capture');
    const target = await startTarget({ code: EXIT_IN_BUSY_STRETCH, nodeArgs: ['--inspect-port=0'], env: { MARKER: marker }, warmupMs: 200 });
    try {
      const cli = spawnCli(['attach', String(target.pid), '--snapshots', '3', '--interval', '1s', '--out', out, '--json', '--progress', '--verbose'], { timeoutMs: 90_000 });
      await cli.waitForStderr(/snapshot 2 of 3: generating/, 60_000);
      writeFileSync(marker, '');
      const exitAsked = Date.now();
      const r = await cli.done;
      const endedMs = Date.now() - exitAsked;
      t.diagnostic(`leakhunt ended ${endedMs} ms after the target was told to exit`);
      assert.ok(endedMs < END_WITHIN_MS, `leakhunt took ${endedMs} ms to end; stderr:\n${r.stderr}`);
      // The target left during snapshot 2 (its file removed), or right after it was written.
      const taken = readdirSync(out).filter((f) => f.endsWith('.heapsnapshot')).length;
      assert.ok(taken === 1 || taken === 2, `${taken} snapshots`);
      assert.match(r.stderr, new RegExp(`pid \\d+ exited during the capture: ${taken} of 3 snapshots were taken \\(kept in `));
      // Two snapshots: the diff runs (0 nothing found, 1 a leak: the target kept pushing); one: no diff, exit 4.
      if (taken === 2) assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}:\n${r.stderr}`);
      else assert.equal(r.code, 4, r.stderr);
      if (taken === 1) assert.match(r.stderr, /only 1 snapshot\(s\) captured .*: a diff needs two/);
      assert.equal(await exitCodeOf(target, 2000), 7, `the target's own exit completed; its stderr:\n${target.stderr()}`);
      assert.match(target.stderr(), /Waiting for the debugger to disconnect/);
    } finally {
      await target.stop();
    }
  });
});

/** ~60 k small objects (a snapshot of a second or more); exits with 7 as soon as its loop sees the first long pause end. */
const EXIT_AFTER_PAUSE = `
globalThis.keep = [];
for (let i = 0; i < 60000; i++) keep.push({ id: i, name: 'item-' + i, tags: ['a', 'b'] });
let last = Date.now();
setInterval(() => { const now = Date.now(); if (now - last > 400) process.exit(7); last = now; }, 10);
`;

test('the target exits the moment a snapshot lets it go: leakhunt ends in seconds, the snapshot is kept, the target exits 7', async (t: TestContext) => {
  await withDir('leakhunt-harm-after-', async (dir) => {
    const out = join(dir, 'capture');
    const target = await startTarget({ code: EXIT_AFTER_PAUSE, nodeArgs: ['--inspect-port=0'], warmupMs: 300 });
    try {
      const started = Date.now();
      const cli = spawnCli(['attach', String(target.pid), '--snapshots', '2', '--interval', '1s', '--out', out, '--json', '--progress', '--verbose'], { timeoutMs: 90_000 });
      const targetExit = exitCodeOf(target, 80_000);
      const code = await targetExit;
      const exitedAt = Date.now();
      const r = await cli.done;
      const endedMs = Date.now() - exitedAt;
      t.diagnostic(`the target exited ${exitedAt - started} ms after leakhunt started; leakhunt ended ${endedMs} ms later`);
      assert.equal(code, 7, `the target's own exit completed; its stderr:\n${target.stderr()}`);
      assert.ok(endedMs < END_WITHIN_MS, `leakhunt took ${endedMs} ms to end after the target exited; stderr:\n${r.stderr}`);
      assert.equal(r.code, 4, r.stderr);
      assert.match(r.stderr, /pid \d+ exited during the capture: 1 of 2 snapshots were taken \(kept in /);
      assert.match(r.stderr, /only 1 snapshot\(s\) captured .*: a diff needs two/);
      assert.equal(readdirSync(out).filter((f) => f.endsWith('.heapsnapshot')).length, 1);
    } finally {
      await target.stop();
    }
  });
});

test('the target exits while watched over the inspector: watch ends in seconds saying so, the target exits 7', async (t: TestContext) => {
  await withDir('leakhunt-harm-watch-', async (dir) => {
    const marker = join(dir, 'exit-now');
    const target = await startTarget({ code: EXIT_ON_MARKER, nodeArgs: ['--inspect-port=0'], env: { MARKER: marker }, warmupMs: 200 });
    try {
      const cli = spawnCli(['watch', String(target.pid), '--heap', '--every', '500ms', '--json'], { timeoutMs: 60_000 });
      await cli.waitForStderr(/connected/, 20_000);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      writeFileSync(marker, '');
      const exitAsked = Date.now();
      const r = await cli.done;
      const endedMs = Date.now() - exitAsked;
      t.diagnostic(`watch ended ${endedMs} ms after the target was told to exit`);
      assert.ok(endedMs < END_WITHIN_MS, `watch took ${endedMs} ms to end; stderr:\n${r.stderr}`);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /pid \d+ exited/);
      assert.match(r.stdout, /"type":"memory_summary"/);
      assert.equal(await exitCodeOf(target, 2000), 7, `the target's own exit completed; its stderr:\n${target.stderr()}`);
    } finally {
      await target.stop();
    }
  });
});
