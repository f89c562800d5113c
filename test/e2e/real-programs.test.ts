// Three agent services built from the real packages (fixtures/real-programs/, README there): each attached
// as a user would, `leakhunt attach <pid> --interval <I>` with attach's own budget, time-paced, no
// --counter, and held to the verdict and fix of its truth file (measured from real heap snapshots):
// - b1: LangGraph durability "async", a saver 15 ms a write, checkpoint puts chained on their parent:
//   a backlog that drains (or none once it drained), never `leak`; the durability advice.
// - b2: durability "sync", a checkpointer holding a growing copy of one long thread's state: `leak`, the
//   checkpointer advice.
// - n: every turn awaited as Promise.race([turn, shuttingDown]): `leak`, the race advice.
// The interval is LEAKHUNT_REAL_INTERVAL (default 15s, as the truth files were run); one run each here,
// `node scripts/real-programs.js --runs 5` repeats this file and tabulates the answers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { sleep, startTarget } from '../helpers/live-target.js';

interface Finding { kind: string; className: string; count: number; fix: string; action: string; drained?: boolean; evidence: string[] }
interface AttachJson { verdict: string; evidence: string[]; findings: Finding[]; capture: { taken: number; inspector: { inspectorClosed: boolean } } }

const INTERVAL = process.env.LEAKHUNT_REAL_INTERVAL ?? '15s';
/** A directory to keep each capture in (for `leakhunt report`), else a temporary one removed after. */
const KEEP = process.env.LEAKHUNT_REAL_KEEP;
const TEST_TIMEOUT_MS = 900_000;

async function attachReal(program: string): Promise<{ out: AttachJson; code: number | null }> {
  // --inspect-port=0: SIGUSR1 opens the inspector on a free port, so runs beside other targets do not collide on 9229.
  const target = await startTarget({ fixture: `real-programs/${program}.mjs`, nodeArgs: ['--inspect-port=0'], warmupMs: 5_000 });
  const dir = mkdtempSync(join(KEEP ?? tmpdir(), `leakhunt-real-${program}-`));
  try {
    const r = await runCli(['attach', String(target.pid), '--interval', INTERVAL, '--out', join(dir, 'capture'), '--json', '--no-progress'], { timeoutMs: TEST_TIMEOUT_MS - 60_000 });
    assert.ok(r.code === 0 || r.code === 1, `attach ran to the end (exit ${r.code}); stderr:\n${r.stderr}`);
    const out = JSON.parse(r.stdout) as AttachJson;
    assert.equal(out.capture.inspector.inspectorClosed, true);
    await sleep(300);
    assert.ok(target.alive(), 'the service still runs');
    // One line per answer, for scripts/real-programs.js.
    console.log(`# real: ${program} verdict ${out.verdict} exit ${r.code} snapshots ${out.capture.taken}`);
    for (const f of out.findings.slice(0, 3)) console.log(`# real:   ${f.kind} ${f.className} ×${f.count}${f.drained === undefined ? '' : ` drained=${f.drained}`} | ${f.evidence[0]} | fix: ${f.action}`);
    return { out, code: r.code };
  } finally {
    await target.stop();
    if (!KEEP) rmSync(dir, { recursive: true, force: true });
  }
}

const summary = (out: AttachJson): string => `verdict ${out.verdict}: ${out.evidence.join(' | ')} | findings: ${out.findings.map((f) => `${f.kind} ${f.className} ×${f.count}`).join(', ')}`;

test('b1, durability "async" behind a 15 ms saver: a backlog that drains never fails CI; the durability advice', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { out, code } = await attachReal('b1-durability-async');
  assert.ok(out.verdict === 'backlog' || out.verdict === 'none', summary(out));
  assert.equal(code, 0, 'exit 0: a backlog is not a leak');
  assert.ok(!out.findings.some((f) => f.kind === 'leak'), summary(out));
  if (out.verdict === 'backlog') assert.match(out.findings[0]!.action, /durability "sync"/, summary(out));
});

test('b2, durability "sync", a checkpointer holding a growing state: a leak, the checkpointer advice', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { out, code } = await attachReal('b2-durability-sync');
  assert.equal(out.verdict, 'leak', summary(out));
  assert.equal(code, 1);
  assert.match(out.findings[0]!.action, /deleteThread|durable saver/, summary(out));
});

test('n, every turn raced against a shutdown promise: a leak, the race advice', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { out, code } = await attachReal('n-promise-race-shutdown');
  assert.equal(out.verdict, 'leak', summary(out));
  assert.equal(code, 1);
  assert.match(out.findings[0]!.action, /settles per turn/, summary(out));
  assert.ok(out.findings[0]!.evidence.some((e) => /reaction list of one promise/.test(e)), summary(out));
});
