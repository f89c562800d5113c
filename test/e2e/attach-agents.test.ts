// `leakhunt attach` on the four agent stories the way a user meets them: the real agent (LangGraph,
// LangSmith with a stubbed fetch, grpc-js, the SQLite saver) running free, not started with --inspect,
// attached over the inspector it opens on SIGUSR1 (a random port: --inspect-port=0), diagnosed, and left
// running with its inspector closed. The snapshots are paced by the agent's own request counter
// (`--counter globalThis.__leakhuntRequests --every N`, fixtures/lib/serve.cjs), not by time: on a loaded
// 2-core machine a snapshot freezes an agent for 2–8 s, and how many turns fit in a time interval was
// random (the old time-paced story-A test flipped its verdict now and then). Structure, not bytes.
// One agent at a time (each is heavy); the stories: fixtures/README.md, "Agent fixtures".

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { sleep, startTarget } from '../helpers/live-target.js';

interface Hop {
  node: { id: number; name: string; type: string; className: string };
  edge: { type: string; name: string } | null;
  label?: { kind: string; text: string };
}
interface Finding {
  kind: string;
  className: string;
  signature: string | null;
  count: number;
  perInterval: number;
  perUnit?: number;
  fix: string;
  alsoHeld?: string[];
  /** Backlogs: the count fell back after its peak. */
  drained?: boolean;
  chain: Hop[];
}
interface AttachJson {
  verdict: string;
  evidence: string[];
  findings: Finding[];
  warnings: string[];
  snapshots: { counter?: number; durationMs: number }[];
  capture: { taken: number; endedBy: string; unitCount?: { count: number; source: string }; inspector: { port: number; openedByUs: boolean; inspectorClosed: boolean } };
}

const COUNTER = 'globalThis.__leakhuntRequests';
/**
 * Turns between snapshots (`--every`): enough for per-turn growth to stand out of the noise, few enough to
 * keep the heaps, the pauses and the test short. C keeps only ~1.5 KB a turn, and the live heap moves by
 * ±300 KB between snapshots by itself (V8 flushes the bytecode of functions that ran only at startup:
 * `(compiled code)` −310 KB in one interval). When that makes the heap shrink, the diagnosis asks a leak
 * to retain 256 KB; 2 × 50 turns (~170 KB) then came out "none" (6 of 14 runs), 2 × 120 (~390 KB) does not.
 */
const EVERY = { A: 20, B: 25, C: 120, D: 30 } as const;
/**
 * Requests a second. A snapshot freezes the agent wherever it is; at 50 a second a closed-loop agent is
 * nearly always in the middle of a turn, and the last snapshot's shortest path to C's kept updates then
 * sometimes runs through that turn's live frames, pending promises or setImmediate instead of the
 * handler's array (another finding or fix in 5 runs of 30). At 10 a second it idles between turns (none
 * in 24). B needs the load: its backlog builds only when turns arrive faster than the saver writes.
 */
const RATE = { A: 10, B: 50, C: 10, D: 10 } as const;
const CLI_TIMEOUT_MS = 200_000;
const TEST_TIMEOUT_MS = 240_000;

interface StoryRun {
  readonly code: number | null;
  readonly out: AttachJson;
  readonly stderr: string;
}

/**
 * Starts the agent, waits until it serves (LEAKHUNT_FIXTURE_ANNOUNCE: one line on stderr, no timer left
 * behind — the stats timer of LEAKHUNT_FIXTURE_STATS_MS would show up on the leak's chain), runs
 * `leakhunt attach --json` paced by the request counter, and checks the agent was left as found.
 */
async function attachStory(fixture: string, every: number, rate: number, env: Record<string, string> = {}): Promise<StoryRun> {
  const target = await startTarget({ fixture, nodeArgs: ['--inspect-port=0'], rate, serving: true, env });
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-attach-agent-'));
  const started = Date.now();
  try {
    assert.ok(target.alive(), `${fixture} runs: ${target.stderr()}`);
    const r = await runCli([
      'attach', String(target.pid), '--counter', COUNTER, '--every', String(every), '--max-snapshots', '5',
      '--sample-every', '250ms', '--out', join(dir, 'capture'), '--json', '--no-progress',
    ], { timeoutMs: CLI_TIMEOUT_MS });
    assert.ok(r.code === 0 || r.code === 1, `attach ran to the end (exit ${r.code}); stderr:\n${r.stderr}`);
    const out = JSON.parse(r.stdout) as AttachJson;
    const readings = out.snapshots.map((s) => s.counter ?? NaN);
    console.log(`# attach-agents: ${fixture} ${JSON.stringify(env)} at ${rate}/s: exit ${r.code}, verdict ${out.verdict}, requests ${readings.join(' → ')}, paused ${out.snapshots.map((s) => (s.durationMs / 1000).toFixed(1)).join(' s, ')} s; ${((Date.now() - started) / 1000).toFixed(1)} s in all`);
    // Paced by the work, whatever the machine's speed.
    assert.ok(out.capture.taken >= 3 && out.capture.taken <= 5, `3 snapshots, more while the verdict is unsettled: ${out.capture.taken}`);
    for (let i = 1; i < readings.length; i++) assert.ok(readings[i]! - readings[i - 1]! >= every, `≥ ${every} turns between snapshots: ${readings.join(' → ')}`);
    assert.deepEqual(out.capture.unitCount, { count: readings[readings.length - 1]! - readings[0]!, source: 'counter' });
    // Left as found.
    assert.equal(out.capture.inspector.inspectorClosed, true);
    // (A and D listen on a loopback port of their own: their in-process gRPC server.)
    assert.ok(!target.listeningPorts().includes(out.capture.inspector.port), `the inspector port ${out.capture.inspector.port} no longer listens; ports ${target.listeningPorts()}; stderr: ${target.stderr().slice(-1500)}`);
    await sleep(300);
    assert.ok(target.alive(), `the agent still runs; its stderr:\n${target.stderr().slice(-2000)}`);
    // Opened once: not again by the second of Node's two start requests for one SIGUSR1 (docs/inspector-close.md).
    assert.equal(target.stderr().match(/^Debugger listening on /gm)?.length, 1, `the inspector opened once; stderr: ${target.stderr().slice(-1500)}`);
    return { code: r.code, out, stderr: r.stderr };
  } finally {
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function summary(out: AttachJson): string {
  return `verdict ${out.verdict}: ${out.evidence.join(' | ')} | findings: ${out.findings.map((f) => `${f.kind} ${f.className} ×${f.count}`).join(', ')}`;
}

/** Each finding with its path, for a failure message. */
function details(out: AttachJson): string {
  return `${summary(out)}\n${out.findings.map((f) => `  ${f.kind} ${f.className}: ${f.signature ?? render(f.chain)}`).join('\n')}`;
}

function render(chain: readonly Hop[]): string {
  return chain.map((h) => `${h.node.className}${h.label ? ` [${h.label.kind}]` : ''}`).join(' ← ');
}

describe('attach on the agent stories, paced by the request counter', { concurrency: 1 }, () => {
  test('A, context capture: a leak through the AsyncLocalStorage store a grpc-js timer captured; fix: the client at process scope', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { code, out } = await attachStory('agents/context-capture', EVERY.A, RATE.A);
    assert.equal(out.verdict, 'leak', summary(out));
    assert.equal(code, 1, 'exit 1 for a leak');
    const top = out.findings[0]!;
    const labels = top.chain.map((h) => h.label?.kind);
    assert.ok(labels.includes('async-context'), `the top finding's chain names the ALS store: ${render(top.chain)}`);
    assert.ok(labels.includes('async-resource'), `and the resource that captured it: ${render(top.chain)}`);
    assert.match(top.fix, /at process scope/);
    assert.ok(top.perUnit !== undefined && top.perUnit > 0, 'a rate per turn');
  });

  test('B, checkpoint backlog under continuous load (durability "async"): a backlog, not drained yet', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { code, out } = await attachStory('agents/checkpoint-backlog', EVERY.B, RATE.B, { DURABILITY: 'async' });
    assert.equal(out.verdict, 'backlog', summary(out));
    assert.equal(code, 0, 'a backlog is not a leak: exit 0');
    assert.ok(!out.findings.some((f) => f.kind === 'leak'), `nothing called a leak: ${summary(out)}`);
    const backlog = out.findings.find((f) => f.kind === 'backlog');
    assert.ok(backlog, summary(out));
    assert.ok(backlog.chain.some((h) => h.label?.kind === 'pending-work'), `held by pending work: ${render(backlog.chain)}`);
    assert.match(backlog.fix, /durability "async"/, 'the fix names LangGraph\'s durability');
    assert.equal(backlog.drained, false, 'under continuous load nothing has drained yet');
  });

  test('C, callback retention: a leak into the handler\'s "pending" array', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { code, out } = await attachStory('agents/callback-retention', EVERY.C, RATE.C);
    assert.equal(out.verdict, 'leak', summary(out));
    assert.equal(code, 1);
    const top = out.findings[0]!;
    assert.match(top.className, /^\{runId/, `the kept updates lead: ${summary(out)}`);
    const pending = top.chain.find((h, i) => i > 0 && h.node.className === 'Array' && h.edge?.name === 'pending');
    assert.ok(pending && top.chain.some((h) => h.node.className === 'AuditTrailHandler'), `held by the handler's "pending" array: ${render(top.chain)}`);
    // The fix names the container that accumulates: that array, by its property and its id.
    assert.match(top.fix, new RegExp(`pushed into the array "pending" \\(Array @${pending.node.id}\\)`), `the fix names the handler's "pending" array: ${top.fix}; chain: ${render(top.chain)}`);
  });

  test('D, control (every fix applied): nothing grows', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { code, out } = await attachStory('agents/control', EVERY.D, RATE.D);
    assert.ok(out.verdict === 'none' || out.verdict === 'warm-up', details(out));
    assert.equal(code, 0, summary(out));
  });
});
