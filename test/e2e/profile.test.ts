// `leakhunt profile` on real processes over the real inspector, as a user runs it: story A (a grpc-js
// client made per turn inside the graph node, fixtures/agents/context-capture.cjs) on Node 20, 22 and 24
// must name a growing allocation site under the fixture's line that creates the client (found in the
// fixture's text here, not written into the test); the control agent must get no site and no alarm.
// Every run must leave the target running with its inspector closed — after a normal end and after
// SIGINT — and bad options must be refused (exit 2) before any signal reaches the target.
// Sampling every 8 KiB for ~30 turns between readings: the client site then has ~25 sampled objects an
// interval, enough for the rules (docs/profile.md, "how many samples").

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { spawnCli } from '../helpers/cli-process.js';
import { sleep, startTarget, type LiveTarget } from '../helpers/live-target.js';
import { requireNodeBinary, type NodeMajor } from '../helpers/node-binaries.js';
import { resolveFixture } from '../helpers/take-snapshot.js';

interface Frame { function: string; url: string; line: number; column: number }
interface ProfileJson {
  verdict: string;
  evidence: string[];
  findings: { kind: string; site: string; allocation: { frames: Frame[]; share: number }; perUnit?: number; fix: string }[];
  topSites: { site: string; frames: Frame[]; checks: Record<string, boolean> }[];
  attachCommand: string;
  profile: { taken: number; samplingInterval: number; endedBy: string; readings: { counter?: number }[]; inspector: { port: number; openedByUs: boolean; inspectorClosed: boolean } };
}

const COUNTER = 'globalThis.__leakhuntRequests';
const PROFILE_ARGS = ['--interval', '3s', '--samples', '4', '--sampling-interval', '4KiB', '--counter', COUNTER, '--json'];
const RATE = 10;

/** The fixture's line that creates the grpc-js client (1-based), found in its text. */
function clientLine(): number {
  const lines = readFileSync(resolveFixture('agents/context-capture'), 'utf8').split('\n');
  const i = lines.findIndex((l) => /new SearchClient\(/.test(l));
  assert.ok(i >= 0, 'the fixture creates a SearchClient');
  return i + 1;
}

async function startAgent(fixture: string, node?: string): Promise<LiveTarget> {
  const target = await startTarget({ fixture, ...(node ? { node } : {}), nodeArgs: ['--inspect-port=0'], rate: RATE, serving: true });
  assert.ok(target.alive(), `${fixture} runs: ${target.stderr()}`);
  return target;
}

/** `leakhunt profile --json` on a running agent; checks it was left running with its inspector closed. */
async function profileAgent(fixture: string, node?: string, extra: readonly string[] = []): Promise<{ code: number | null; out: ProfileJson }> {
  const target = await startAgent(fixture, node);
  try {
    const r = await runCli(['profile', String(target.pid), ...PROFILE_ARGS, ...extra], { timeoutMs: 90_000 });
    assert.ok(r.code === 0 || r.code === 1, `profile ran to the end (exit ${r.code}); stderr:\n${r.stderr}`);
    const out = JSON.parse(r.stdout) as ProfileJson;
    console.log(`# profile ${fixture} on ${node ?? process.version}: exit ${r.code}, verdict ${out.verdict}, requests ${out.profile.readings.map((x) => x.counter).join(' → ')}; ${out.findings.map((f) => f.site).join(' | ')}`);
    assert.equal(out.profile.taken, 4);
    assert.equal(out.profile.endedBy, 'complete');
    assert.equal(out.profile.inspector.openedByUs, true);
    assert.equal(out.profile.inspector.inspectorClosed, true);
    assert.ok(!target.listeningPorts().includes(out.profile.inspector.port), 'the inspector port no longer listens');
    await sleep(300);
    assert.ok(target.alive(), `the agent still runs; its stderr:\n${target.stderr().slice(-2000)}`);
    return { code: r.code, out };
  } finally {
    await target.stop();
  }
}

describe('leakhunt profile on the agent stories', { concurrency: 1 }, () => {
  for (const major of [20, 22, 24] as NodeMajor[]) {
    test(`story A on Node ${major}: a growing allocation site under the fixture's line that creates the client`, { timeout: 120_000 }, async () => {
      const node = requireNodeBinary(major);
      // On Node 20 the HTML page too.
      const dir = major === 20 ? mkdtempSync(join(tmpdir(), 'leakhunt-profile-')) : undefined;
      try {
        const html = dir === undefined ? undefined : join(dir, 'profile.html');
        const { code, out } = await profileAgent('agents/context-capture', node.path, html === undefined ? [] : ['--html', html]);
        assert.equal(out.verdict, 'leak', out.evidence.join('\n'));
        assert.equal(code, 1, 'exit 1 for a leak site');
        const line = clientLine();
        const site = out.findings.find((f) => f.allocation.frames[0]!.url.endsWith('fixtures/agents/context-capture.cjs') && f.allocation.frames[0]!.line === line);
        assert.ok(site, `a leak site at context-capture.cjs:${line}; found: ${out.findings.map((f) => f.site).join(' | ')}; top sites: ${out.topSites.slice(0, 6).map((s) => `${s.site} ${JSON.stringify(s.checks)}`).join(' | ')}`);
        // The library frame the line called is grpc-js's.
        assert.match(site.allocation.frames[1]?.url ?? '', /node_modules\/@grpc\/grpc-js\//);
        assert.ok(site.allocation.share > 0 && site.allocation.share <= 1);
        assert.ok(site.perUnit !== undefined && site.perUnit > 0, 'bytes per turn');
        // From sampling: no chain, and the attach command that would get it.
        assert.match(out.evidence.join('\n'), /sampl/);
        assert.ok(out.evidence.some((e) => e.includes('leakhunt attach ') && e.includes(`--counter ${COUNTER} --every `)), out.evidence.join('\n'));
        if (html !== undefined) {
          // Self-contained, names the line, charts its live bytes.
          const page = readFileSync(html, 'utf8');
          assert.match(page, /^<!doctype html>/);
          assert.doesNotMatch(page, /<script src|<link /);
          assert.ok(page.includes(`context-capture.cjs:${line}:`), 'the page names the line');
          assert.match(page, /<svg class="chart"/);
        }
      } finally {
        if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  test('the control agent: no leak site, no alarm', { timeout: 120_000 }, async () => {
    const { code, out } = await profileAgent('agents/control');
    assert.equal(out.verdict, 'none', `${out.evidence.join('\n')}\n${out.findings.map((f) => f.site).join('\n')}`);
    assert.deepEqual(out.findings, []);
    assert.equal(code, 0);
  });
});

test('SIGINT while profiling: exit 130, the profiler stopped, the inspector closed, the target still running', { timeout: 60_000 }, async () => {
  const target = await startTarget({ fixture: 'map-cache', nodeArgs: ['--inspect-port=0'], rate: 100, warmupMs: 200 });
  try {
    const cli = spawnCli(['profile', String(target.pid), '--interval', '1s', '--samples', '20']);
    await cli.waitForStderr(/reading 2\/20/, 30_000);
    cli.child.kill('SIGINT');
    const r = await cli.done;
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /SIGINT: stopping the profile/);
    assert.match(r.stderr, /inspector: closed/);
    assert.match(r.stderr, /stopped by SIGINT after 2 reading\(s\); the profiler was stopped/);
    assert.deepEqual(target.listeningPorts(), [], 'its inspector is closed');
    await sleep(300);
    assert.ok(target.alive(), `the target is still running; its stderr:\n${target.stderr()}`);
  } finally {
    await target.stop();
  }
});

test('bad options: exit 2 with one line naming the flag, before any signal reaches the target', { timeout: 60_000 }, async () => {
  const target = await startTarget({ code: 'setInterval(() => {}, 1000);', warmupMs: 200 });
  try {
    const cases: [string[], RegExp][] = [
      [['--samples', '2'], /--samples must be an integer from 3/],
      [['--samples', 'many'], /--samples must be an integer/],
      [['--interval', '10ms'], /--interval must be at least 100ms/],
      [['--interval', 'soon'], /--interval must be a duration/],
      [['--sampling-interval', '100'], /--sampling-interval must be from 512 bytes/],
      [['--sampling-interval', 'lots'], /--sampling-interval must be a size/],
      [['--counter', ' '], /--counter needs a JavaScript expression/],
      [['--json', '--markdown'], /cannot be used with/],
      [['--html', '/nonexistent-dir/x.html'], /--html/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['profile', String(target.pid), ...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: exit 2; stderr: ${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
      assert.equal(r.stdout, '');
    }
    assert.doesNotMatch(target.stderr(), /Debugger listening/, 'no inspector was opened');
    assert.deepEqual(target.listeningPorts(), []);
    assert.ok(target.alive());
  } finally {
    await target.stop();
  }
});

test('a counter with a side effect: exit 2 once the inspector shows it, and the inspector closed again', { timeout: 60_000 }, async () => {
  const target = await startTarget({ code: 'globalThis.n = 0; setInterval(() => { n++; }, 10);', nodeArgs: ['--inspect-port=0'], warmupMs: 200 });
  try {
    const r = await runCli(['profile', String(target.pid), '--counter', 'globalThis.n++', '--interval', '1s', '--samples', '3']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--counter "globalThis.n\+\+" was refused/);
    assert.match(r.stderr, /inspector: closed/);
    assert.deepEqual(target.listeningPorts(), []);
    assert.ok(target.alive());
  } finally {
    await target.stop();
  }
});

test('--help shows real examples', async () => {
  const r = await runCli(['profile', '--help']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /Examples:/);
  assert.match(r.stdout, /\$ leakhunt profile 4242 --interval 10s --samples 9 --counter 'globalThis\.turns'/);
  assert.match(r.stdout, /--sampling-interval <bytes>/);
  const top = await runCli(['--help']);
  assert.match(top.stdout, /leakhunt profile 4242/);
});
