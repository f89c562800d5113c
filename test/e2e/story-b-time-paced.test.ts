// Story B as a user meets it (the async-durability incident; fixtures/README.md, "Agent fixtures"): an
// agent with long turns on a real checkpointer, running free, attached by pid, snapshots paced by TIME (no
// --counter): `leakhunt attach <pid> --snapshots 3 --interval 5s`. Two answers:
// - SqliteSaver behind a slow pool, durability "async", long turns (fixtures/agents/checkpoint-backlog.cjs
//   with MODEL_MS, DOC_BYTES): each turn's fast research steps queue their checkpoint puts and its slow
//   model call drains them, so the snapshots find the queue anywhere from full to empty. The backlog is
//   named (the checkpoint puts in flight, `drained` as data) and the advice is durability "sync".
// - MemorySaver keeping every thread (fixtures/agents/memory-saver-threads.cjs): checkpointer advice
//   (delete finished threads, or a durable saver), not closure advice.
// One run each here; `node scripts/story-b.js --runs 5` repeats this file and tabulates the answers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { sleep, startTarget } from '../helpers/live-target.js';

interface Hop { node: { className: string }; label?: { kind: string } }
interface Finding { kind: string; className: string; count: number; fix: string; drained?: boolean; evidence: string[]; chain: Hop[] }
interface AttachJson {
  verdict: string;
  evidence: string[];
  findings: Finding[];
  classes: { name: string; counts: number[] }[];
  capture: { taken: number; inspector: { inspectorClosed: boolean } };
}

const PUTS = '{config, checkpoint, metadata, newVersions}';

const TEST_TIMEOUT_MS = 180_000;

async function attachTimePaced(fixture: string, env: Record<string, string>, rate: number): Promise<AttachJson> {
  const target = await startTarget({ fixture, nodeArgs: ['--inspect-port=0'], rate, serving: true, env, warmupMs: 2_000 });
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-story-b-'));
  try {
    const r = await runCli(['attach', String(target.pid), '--snapshots', '3', '--interval', '5s', '--sample-every', '500ms', '--out', join(dir, 'capture'), '--json', '--no-progress'], { timeoutMs: 150_000 });
    assert.ok(r.code === 0 || r.code === 1, `attach ran to the end (exit ${r.code}); stderr:\n${r.stderr}`);
    const out = JSON.parse(r.stdout) as AttachJson;
    assert.equal(out.capture.taken, 3);
    assert.equal(out.capture.inspector.inspectorClosed, true);
    await sleep(300);
    assert.ok(target.alive(), 'the agent still runs');
    // One line per answer, for scripts/story-b.js.
    const counts = (name: string) => out.classes.find((c) => c.name === name)?.counts.join(' → ') ?? '-';
    console.log(`# story-b: ${fixture} verdict ${out.verdict} exit ${r.code}; puts ${counts(PUTS)}, PregelLoop ${counts('PregelLoop')}`);
    for (const f of out.findings) console.log(`# story-b:   ${f.kind} ${f.className} ×${f.count}${f.drained === undefined ? '' : ` drained=${f.drained}`} | ${f.evidence[0]} | fix: ${f.fix}`);
    return out;
  } finally {
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const summary = (out: AttachJson): string => `verdict ${out.verdict}: ${out.evidence.join(' | ')} | findings: ${out.findings.map((f) => `${f.kind} ${f.className} ×${f.count}`).join(', ')}`;

test('story B, long turns, durability "async" on SqliteSaver, time-paced: the checkpoint backlog, advice durability "sync"', { timeout: TEST_TIMEOUT_MS }, async () => {
  const out = await attachTimePaced('agents/checkpoint-backlog', { DURABILITY: 'async', MODEL_MS: '2000', DOC_BYTES: '16384', STEPS: '30', SAVER_LATENCY_MS: '40' }, 50);
  assert.equal(out.verdict, 'backlog', summary(out));
  const backlog = out.findings.find((f) => f.kind === 'backlog');
  assert.ok(backlog, summary(out));
  assert.equal(backlog.className, PUTS, 'the checkpoint puts in flight are named first');
  assert.equal(typeof backlog.drained, 'boolean', '`drained` is data on the finding');
  assert.match(backlog.evidence[0]!, /checkpoint puts waiting in LangGraph's put chain/);
  for (const f of out.findings.filter((x) => x.kind === 'backlog')) assert.match(f.fix, /durability "sync"/, `${f.className}: ${f.fix}`);
  assert.ok(!out.findings.some((f) => f.kind === 'leak'), summary(out));
});

test('story B, MemorySaver keeping every thread, time-paced: checkpointer advice, not closure advice', { timeout: TEST_TIMEOUT_MS }, async () => {
  const out = await attachTimePaced('agents/memory-saver-threads', {}, 20);
  assert.equal(out.verdict, 'leak', summary(out));
  const leaks = out.findings.filter((f) => f.kind === 'leak');
  assert.ok(leaks.length > 0, summary(out));
  for (const f of leaks) {
    assert.match(f.fix, /checkpointer's storage \(MemorySaver @\d+ "(storage|writes)", keyed by thread\).*deleteThread.*durable saver/, `${f.className}: ${f.fix}`);
    assert.doesNotMatch(f.fix, /closes over|pushed into the array/);
  }
});
