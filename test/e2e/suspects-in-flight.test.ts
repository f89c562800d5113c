// One snapshot, honestly (src/diagnose/suspects.ts, in-flight.ts): what the turns in flight hold is not a
// suspect. A healthy agent (fixtures/agents/context-capture-fixed.cjs: the gRPC client at process scope,
// the graph compiled per turn) with many turns in flight — a turn started every tick, each waiting on its
// own 3 s model call, a one-shot timer that captured the turn's RunTree store — snapshotted once by
// `leakhunt snapshot` while it runs: no suspect. The leaking agent (context-capture.cjs: a gRPC client
// per turn, whose 30-minute idle timer and never-ending call-ref interval captured the turn's store) still
// gives its suspects.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startTarget } from '../helpers/live-target.js';
import { removeSnapshots, takeSnapshot } from '../helpers/take-snapshot.js';
import { DEFAULT_MODEL } from '../../src/diagnose/model-params.js';

const { minSuspects: MIN_SUSPECTS, minCopies: MIN_COPIES } = DEFAULT_MODEL;

interface AnalyzeJson {
  verdict: string;
  evidence: string[];
  classes: { name: string; count: number }[];
  findings: { kind: string; className: string; count: number; evidence: string[] }[];
}

async function analyze(file: string): Promise<AnalyzeJson> {
  const r = await runCli(['analyze', file, '--json', '--no-progress', '--top', 'all']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as AnalyzeJson;
}

const countOf = (out: AnalyzeJson, name: string): number => out.classes.find((c) => c.name === name)?.count ?? 0;
const listed = (out: AnalyzeJson): string => out.findings.map((f) => `${f.className} × ${f.count}: ${f.evidence[0]}`).join('; ');

test('a healthy agent with many turns in flight, one snapshot: no suspect', { timeout: 180_000 }, async () => {
  const target = await startTarget({
    fixture: 'agents/context-capture-fixed', nodeArgs: ['--inspect-port=0'], rate: 20, serving: true, warmupMs: 6_000,
    env: { OPEN_LOOP: '1', MODEL_MS: '3000' },
  });
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-in-flight-'));
  try {
    const file = join(dir, 'now.heapsnapshot');
    const snap = await runCli(['snapshot', String(target.pid), '-o', file, '--no-progress'], { timeoutMs: 120_000 });
    assert.equal(snap.code, 0, snap.stderr);
    const out = await analyze(file);
    // The snapshot caught the turns in flight: one compiled graph (and run loop) each.
    assert.ok(countOf(out, 'PregelLoop') >= Math.max(MIN_SUSPECTS, MIN_COPIES), `turns in flight: ${countOf(out, 'PregelLoop')} PregelLoop`);
    assert.equal(out.verdict, 'none', listed(out));
    assert.equal(out.findings.length, 0, listed(out));
    // And it says what it set aside.
    assert.match(out.evidence[0]!, /held only by one-shot timers due within 10 min: turns in flight/, out.evidence.join(' | '));
  } finally {
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the leaking agent, one snapshot: its captured stores and per-turn graphs are still suspects', { timeout: 180_000 }, async () => {
  const file = await takeSnapshot('agents/context-capture', { requests: 60 });
  try {
    const out = await analyze(file);
    assert.equal(out.verdict, 'suspect', out.evidence.join(' | '));
    const stores = out.findings.find((f) => f.className === 'RunTree' && /AsyncLocalStorage stores/.test(f.evidence[0]!));
    assert.ok(stores && stores.count >= MIN_SUSPECTS, listed(out));
    assert.ok(out.findings.some((f) => f.className === 'CompiledStateGraph' && f.count >= MIN_COPIES), listed(out));
  } finally {
    removeSnapshots([file]);
  }
});
