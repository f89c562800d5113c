// Ctrl-C during a heap snapshot: the target is paused generating it and cannot be interrupted, so
// leakhunt waits for it to finish, drops the chunks, removes the partial file, closes the inspector it
// opened and exits 130. The target must be alive and no longer listening afterwards. And the target
// going away mid-capture: what was captured is kept and analysed. Targets open their inspector on a
// random port (--inspect-port=0), so this file can run beside the others.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli } from '../helpers/cli-process.js';
import { sleep, startTarget } from '../helpers/live-target.js';

/** ~60 k small objects: a snapshot of a few seconds, long enough to interrupt in the middle. */
const BIG_HEAP = `
globalThis.keep = [];
for (let i = 0; i < 60000; i++) keep.push({ id: i, name: 'item-' + i, tags: ['a', 'b'], meta: { owner: { n: i } } });
setInterval(() => { keep.push({ id: keep.length }); }, 20);
`;

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(`${signal} during a snapshot: exit ${signal === 'SIGINT' ? 130 : 143}, target alive, inspector closed, no partial file`, async () => {
    const target = await startTarget({ code: BIG_HEAP, nodeArgs: ['--inspect-port=0'], warmupMs: 200 });
    const dir = mkdtempSync(join(tmpdir(), 'leakhunt-interrupt-'));
    const out = join(dir, 'capture');
    try {
      const cli = spawnCli(['attach', String(target.pid), '--snapshots', '2', '--interval', '1s', '--out', out, '--json', '--progress', '--verbose']);
      await cli.waitForStderr(/snapshot 1 of 2: generating/, 60_000);
      const partials = readdirSync(out).filter((f) => f.endsWith('.partial'));
      assert.equal(partials.length, 1, `the snapshot is being written to a partial file: ${readdirSync(out).join(', ')}`);
      cli.child.kill(signal);
      const r = await cli.done;
      assert.equal(r.code, signal === 'SIGINT' ? 130 : 143, r.stderr);
      assert.equal(r.stdout, '', 'no result on stdout');
      assert.match(r.stderr, new RegExp(`${signal}: stopping the capture`));
      assert.match(r.stderr, /inspector: closed/);
      assert.deepEqual(readdirSync(out), [], 'neither a partial nor an incomplete snapshot is left');
      assert.deepEqual(target.listeningPorts(), [], 'its inspector is closed');
      await sleep(500); // a target that crashed while its inspector closed would be gone by now
      assert.ok(target.alive(), `the target is still running; its stderr:\n${target.stderr()}`);
    } finally {
      await target.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('the target exits mid-capture: leakhunt says so, keeps what was captured and analyses two snapshots', async () => {
  const target = await startTarget({ fixture: 'map-cache', nodeArgs: ['--inspect-port=0'], warmupMs: 200 });
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-exit-'));
  const out = join(dir, 'capture');
  try {
    const cli = spawnCli(['attach', String(target.pid), '--snapshots', '3', '--interval', '3s', '--out', out, '--json', '--progress', '--verbose']);
    await cli.waitForStderr(/snapshot 2 of 3: [^\n]* → /, 60_000);
    await target.stop(); // SIGKILL: gone without a word
    const r = await cli.done;
    assert.ok(r.code === 0 || r.code === 1, `the analysis ran (exit ${r.code}); stderr:\n${r.stderr}`);
    assert.match(r.stderr, /pid \d+ exited during the capture: 2 of 3 snapshots were taken/);
    const j = JSON.parse(r.stdout) as { capture: { taken: number; endedBy: string }; classes: { name: string; countDelta: number }[] };
    assert.equal(j.capture.taken, 2);
    assert.equal(j.capture.endedBy, 'target-exited');
    assert.ok((j.classes.find((c) => c.name === 'CacheEntry')?.countDelta ?? 0) > 0, 'the two snapshots were diffed');
    assert.deepEqual(readdirSync(out).filter((f) => f.endsWith('.heapsnapshot')).length, 2);
  } finally {
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
