// `leakhunt analyze` on single real snapshots: suspicious retention (AsyncLocalStorage stores held by
// timers, on every store shape) is reported with its labelled chain; a clean program gets none.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { takeSnapshot, removeSnapshots } from '../helpers/take-snapshot.js';
import { requireNodeBinary, type NodeMajor } from '../helpers/node-binaries.js';
import { runCli } from '../helpers/cli.js';
import { startTarget } from '../helpers/live-target.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const shapes: [NodeMajor, string[], RegExp][] = [
  [20, [], /^RequestContext ← Timeout\["<symbol kResourceStore>"\]/],
  [24, [], /^RequestContext ← \(array\)\[\] ← AsyncContextFrame\.table ← Timeout\["<symbol kAsyncContextFrame>"\]/],
  [24, ['--no-async-context-frame'], /^RequestContext ← \{<symbol kResourceStore>\}\["<symbol kResourceStore>"\] ← Timeout\["<symbol kAsyncLocalStorageContext>"\]/],
];

for (const [node, nodeArgs, signature] of shapes) {
  test(`analyze flags AsyncLocalStorage stores held by timers (Node ${node} ${nodeArgs.join(' ')})`, async () => {
    requireNodeBinary(node);
    const file = await takeSnapshot('als-timer', { node, nodeArgs, requests: 60 });
    try {
      const r = await runCli(['analyze', file, '--json']);
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      // One snapshot shows no growth: suspects, never a leak verdict; exit 0.
      assert.equal(out.verdict, 'suspect');
      const finding = out.findings[0];
      assert.equal(finding.kind, 'suspect');
      assert.equal(finding.className, 'RequestContext');
      assert.ok(finding.count >= 60, `count ${finding.count}`);
      assert.match(finding.signature, signature);
      assert.equal(finding.chain[0].label.kind, 'async-context');
      assert.match(finding.chain[0].label.text, /captured by a timer .*runs heartbeat\(\) at .*als-timer\.cjs:\d+:\d+/);
      assert.match(finding.fix, /AsyncLocalStorage context/);
    } finally {
      removeSnapshots([file]);
    }
  });
}

test('analyze finds nothing suspicious in the control program', async () => {
  const file = await takeSnapshot('control', { requests: 100 });
  try {
    const r = await runCli(['analyze', file, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.verdict, 'none', JSON.stringify(out.findings.map((f: { className: string }) => f.className)));
  } finally {
    removeSnapshots([file]);
  }
});

// One snapshot of a healthy service shows a pool at its limit and the requests in flight at that moment:
// neither is a suspect (issue 12: a pool of 8 clients and 6 requests in flight were called a leak).
for (const fixture of ['zoo/pool-at-limit', 'zoo/in-flight']) {
  test(`analyze calls a healthy service healthy: ${fixture} (free-running, one leakhunt snapshot)`, async () => {
    const target = await startTarget({ fixture, nodeArgs: ['--inspect-port=0'], rate: 100, warmupMs: 1000 });
    const dir = mkdtempSync(join(tmpdir(), 'leakhunt-analyze-healthy-'));
    try {
      const file = join(dir, 'now.heapsnapshot');
      const snap = await runCli(['snapshot', String(target.pid), '-o', file, '--no-progress'], { timeoutMs: 60_000 });
      assert.equal(snap.code, 0, snap.stderr);
      const r = await runCli(['analyze', file, '--json', '--no-progress']);
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout) as { verdict: string; findings: { className: string; count: number }[] };
      assert.equal(out.verdict, 'none', JSON.stringify(out.findings.map((f) => `${f.className} × ${f.count}`)));
    } finally {
      await target.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
