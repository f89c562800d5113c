// Story A end to end the way a user meets it: `leakhunt attach <pid>` on a running LangGraph agent
// (real @langchain/langgraph, langsmith, grpc-js; not started with --inspect) whose graph node builds a
// grpc-js client per turn. The verdict is a leak, the top finding's chain names the AsyncLocalStorage
// store and the Timeout that captured it, and the fix says to build the client at process scope.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTarget } from '../helpers/live-target.js';
import { runCli } from '../helpers/cli.js';

test('attach diagnoses story A (context captured by a per-turn grpc-js client)', { timeout: 240_000 }, async () => {
  // Its own random inspector port (--inspect-port=0): the attach tests that hold 9229 may run beside it.
  const target = await startTarget({ fixture: 'agents/context-capture', nodeArgs: ['--inspect-port=0'], rate: 50, warmupMs: 2000 });
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-attach-agent-'));
  try {
    const r = await runCli(['attach', String(target.pid), '--snapshots', '3', '--interval', '4s', '--sample-every', '500ms', '--out', join(dir, 'capture'), '--json'], { timeoutMs: 200_000 });
    assert.equal(r.code, 1, `exit 1 for a leak; stderr:\n${r.stderr}`);
    const out = JSON.parse(r.stdout);
    assert.equal(out.verdict, 'leak', out.evidence.join(' | '));
    const top = out.findings[0];
    const labels = top.chain.map((h: { label?: { kind: string } }) => h.label?.kind);
    assert.ok(labels.includes('async-context'), `the top finding's chain names the ALS store: ${top.signature}`);
    assert.ok(labels.includes('async-resource'), 'and the resource that captured it');
    assert.match(top.fix, /at process scope/);
    // The turn's objects are in the findings: as a finding, held through one, or on a finding's chain.
    type F = { className: string; alsoHeld?: string[]; chain: { node: { className: string } }[] };
    const names = out.findings.flatMap((f: F) => [f.className, ...(f.alsoHeld ?? []), ...f.chain.map((h) => h.node.className)]).join(', ');
    assert.match(names, /RunTree|CompiledStateGraph|InternalChannel/, names);
    assert.equal(target.alive(), true, 'the agent still runs');
  } finally {
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
