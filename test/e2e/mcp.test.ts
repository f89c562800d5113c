// `leakhunt mcp` driven by the SDK's own Client over stdio, as a coding agent drives it: the tools are
// listed; plan_capture → capture against a leaking fixture (map-cache: one CacheEntry per request) and a
// fixed one (control) gives leak and no leak, each with its HTML report and the target left as found; a
// capture cancelled after its first snapshot leaves the target's inspector closed; bad arguments are tool
// errors with one clear line and the server keeps serving. Snapshots are paced by the fixtures' request
// counter so the captures are short; targets open their inspector on a random port (--inspect-port=0).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { sleep, startTarget, waitFor, type LiveTarget } from '../helpers/live-target.js';

const BIN = fileURLToPath(new URL('../../../bin/leakhunt.js', import.meta.url));
const COUNTER = 'globalThis.__leakhuntRequests';
const TOOLS = ['analyze_snapshot', 'capture', 'diff_snapshots', 'list_node_processes', 'plan_capture', 'profile', 'retainers', 'watch_memory'];

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

async function connect(): Promise<{ client: Client; stderr: () => string; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } as Record<string, string> });
  let log = '';
  transport.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const client = new Client({ name: 'leakhunt-test', version: '1' });
  await client.connect(transport);
  return { client, stderr: () => log, close: () => client.close() };
}

async function call(client: Client, name: string, args: Record<string, unknown>, options: Parameters<Client['callTool']>[2] = {}): Promise<ToolAnswer> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000, ...options })) as ToolAnswer;
}

const text = (a: ToolAnswer): string => a.content.map((c) => c.text).join('\n');

async function assertLeftAsFound(target: LiveTarget): Promise<void> {
  await waitFor(() => target.listeningPorts().length === 0, 5000, 'the inspector to close');
  await sleep(300);
  assert.ok(target.alive(), `the target still runs; its stderr:\n${target.stderr()}`);
}

test('mcp: tools listed; plan_capture → capture finds the leak of map-cache and none in control; bad arguments are tool errors', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-mcp-'));
  const { client, stderr, close } = await connect();
  const leaking = await startTarget({ fixture: 'map-cache', nodeArgs: ['--inspect-port=0'], rate: 50, warmupMs: 300 });
  const fixed = await startTarget({ fixture: 'control', nodeArgs: ['--inspect-port=0'], rate: 50, warmupMs: 300 });
  const sleeper = await startTarget({ command: ['sleep', '60'] });
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
    for (const t of tools) assert.ok(t.inputSchema && t.description, `${t.name} has a schema and a description`);

    const listed = await call(client, 'list_node_processes', {});
    const processes = listed.structuredContent!['processes'] as { pid: number; sigusr1Caught: boolean; inspectorOpen: boolean }[];
    const mine = processes.find((p) => p.pid === leaking.pid);
    assert.ok(mine, `the leaking fixture is listed: ${text(listed)}`);
    assert.equal(mine.sigusr1Caught, true);
    assert.equal(mine.inspectorOpen, false);
    assert.ok(!processes.some((p) => p.pid === sleeper.pid), 'sleep is not listed');

    for (const [target, name, expectLeak] of [[leaking, 'leaking', true], [fixed, 'fixed', false]] as const) {
      const planned = await call(client, 'plan_capture', { pid: target.pid });
      assert.ok(!planned.isError, text(planned));
      const { planId, plan } = planned.structuredContent as { planId: string; plan: { decision: string; snapshotTransfer: { method: string } } };
      assert.equal(plan.decision, 'proceed');
      assert.equal(target.listeningPorts().length, 0, 'plan_capture sent no signal: no inspector open');
      const progress: string[] = [];
      const captured = await call(client, 'capture', { planId, confirm: true, snapshots: 3, counter: COUNTER, every: 40, outDir: join(dir, name) }, {
        onprogress: (p) => void progress.push(p.message ?? String(p.progress)),
        resetTimeoutOnProgress: true,
      });
      assert.ok(!captured.isError, text(captured));
      const out = captured.structuredContent as { verdict: string; findings: { className: string }[]; htmlReport: string; capture: { inspector: { inspectorClosed: boolean } } };
      if (expectLeak) {
        assert.equal(out.verdict, 'leak', text(captured));
        assert.equal(out.findings[0]!.className, 'CacheEntry');
        assert.match(text(captured), /^LEAK: /);
      } else {
        assert.ok(out.verdict === 'none' || out.verdict === 'warm-up', `control: ${out.verdict} ${text(captured)}`);
      }
      assert.ok(existsSync(out.htmlReport), `the HTML report is written: ${out.htmlReport}`);
      assert.match(text(captured), new RegExp(`HTML report: ${out.htmlReport.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
      assert.equal(out.capture.inspector.inspectorClosed, true);
      assert.ok(progress.filter((m) => /^snapshot \d of 3/.test(m)).length === 3, `a progress notification per snapshot: ${progress.join(' | ')}`);
      await assertLeftAsFound(target);
    }

    // Bad arguments: each a tool error with one line; the server answers the next call.
    const notNode = await call(client, 'plan_capture', { pid: sleeper.pid });
    const refusedPlan = notNode.structuredContent as { planId: string; plan: { decision: string } };
    assert.equal(refusedPlan.plan.decision, 'refuse');
    const refused = await call(client, 'capture', { planId: refusedPlan.planId, confirm: true });
    assert.equal(refused.isError, true);
    assert.match(text(refused), /refused the capture: pid \d+ is not node/);
    assert.ok(sleeper.alive(), 'the process that is not node was not signalled');
    const noConfirm = await call(client, 'capture', { planId: (await call(client, 'plan_capture', { pid: leaking.pid })).structuredContent!['planId'] });
    assert.equal(noConfirm.isError, true);
    assert.match(text(noConfirm), /^capture needs confirm: true/);
    const missing = await call(client, 'analyze_snapshot', { file: join(dir, 'missing.heapsnapshot') });
    assert.equal(missing.isError, true);
    assert.match(text(missing), /missing\.heapsnapshot/);
    assert.doesNotMatch(text(missing), /\n\s+at /, 'no stack trace');
    const noPid = await call(client, 'plan_capture', { pid: 999_999_999 });
    assert.equal(noPid.isError, true);
    assert.match(text(noPid), /no process with pid 999999999/);
    const still = await call(client, 'list_node_processes', {});
    assert.ok(!still.isError, 'the server still serves');
  } finally {
    await close();
    await Promise.all([leaking.stop(), fixed.stop(), sleeper.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
  assert.doesNotMatch(stderr(), /internal error/);
});

test('mcp: a capture cancelled after its first snapshot detaches: the inspector is closed, the target runs, the server serves', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-mcp-cancel-'));
  const { client, close } = await connect();
  const target = await startTarget({ fixture: 'map-cache', nodeArgs: ['--inspect-port=0'], rate: 50, warmupMs: 300 });
  try {
    const { planId } = (await call(client, 'plan_capture', { pid: target.pid })).structuredContent as { planId: string };
    const controller = new AbortController();
    const cancelled = call(client, 'capture', { planId, confirm: true, snapshots: 3, interval: '60s', outDir: join(dir, 'c') }, {
      signal: controller.signal,
      onprogress: (p) => {
        if (/^snapshot 1 of 3/.test(p.message ?? '')) controller.abort('enough');
      },
    });
    await assert.rejects(cancelled, /enough|abort/i, 'the client sees its own cancellation');
    await assertLeftAsFound(target);
    assert.ok(!existsSync(join(dir, 'c', `${target.pid}-2.heapsnapshot`)), 'no second snapshot');
    const again = await call(client, 'list_node_processes', {});
    assert.ok(!again.isError, 'the server still serves');
  } finally {
    await close();
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
