// A snapshot large enough for both second threads (edges parsed on a worker from 16 MiB, the retainer
// index and dominators on one from 1.5M edges, lowered to 1M here), analysed through the built binary with and without them:
// the same JSON, byte for byte, suspects included. The snapshot is real V8 output, written by a child holding ~1.5M edges (~32 MiB).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { PARALLEL_MIN_BYTES } from '../../src/snapshot/parallel-edges.js';

const dir = mkdtempSync(join(tmpdir(), 'leakhunt-threads-cli-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('analyze --json is the same with and without the second threads', { timeout: 180_000 }, async (t) => {
  const path = join(dir, 'big.heapsnapshot');
  const program = `
    class Turn { constructor(i) { this.id = i; this.label = 'turn-' + i; this.steps = [{ at: i }, { at: i + 1 }]; this.meta = { i }; } }
    globalThis.keep = Array.from({ length: 60000 }, (_, i) => new Turn(i));
    // Stores captured by timers (30: more than a healthy process holds at a moment): a suspect, found by the
    // pass that runs while the dominators are computed.
    const als = new (require('node:async_hooks').AsyncLocalStorage)();
    globalThis.timers = Array.from({ length: 30 }, (_, i) => als.run({ turn: i }, () => setInterval(() => {}, 1e6)));
    require('v8').writeHeapSnapshot(${JSON.stringify(path)});
    process.exit(0);`;
  const made = spawnSync(process.execPath, ['-e', program], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(made.status, 0, made.stderr);
  const bytes = statSync(path).size;
  assert.ok(bytes >= PARALLEL_MIN_BYTES, `the snapshot (${bytes} bytes) is large enough for the edges worker`);
  // The dominators thread starts at 1.5M edges; lowered here so this 33 MiB heap takes that path too.
  const threaded = await runCli(['analyze', path, '--json', '--top', 'all'], { env: { LEAKHUNT_DOMINATORS_MIN_EDGES: '1000000' }, timeoutMs: 120_000 });
  const single = await runCli(['analyze', path, '--json', '--top', 'all'], { env: { LEAKHUNT_PARSE_THREADS: '1' }, timeoutMs: 120_000 });
  assert.equal(threaded.code, 0, threaded.stderr);
  assert.equal(single.code, 0, single.stderr);
  const out = JSON.parse(threaded.stdout) as { snapshot: { edgeCount: number }; findings: { kind: string; count: number; className: string }[] };
  t.diagnostic(`${(bytes / 2 ** 20).toFixed(1)} MiB, ${out.snapshot.edgeCount} edges`);
  assert.ok(out.snapshot.edgeCount >= 1_000_000, 'enough edges for the dominators worker at the lowered threshold');
  assert.ok(out.findings.some((f) => f.kind === 'suspect' && f.count === 30), JSON.stringify(out.findings.map((f) => `${f.kind} ${f.className} × ${f.count}`)));
  assert.equal(threaded.stdout, single.stdout);
});
