// No heap string leaves `leakhunt mcp` either (issue 22: "never a heap string, the same redaction rule
// as the CLI"). The tools build their answers from the commands' functions, but an answer is also a
// short text, a structuredContent object and an HTML report the tool writes, so each is checked here:
// every answer of analyze_snapshot, diff_snapshots, retainers (on snapshots of fixtures/secrets.cjs),
// plan_capture, capture (also with a counter that names a secret: a tool error), watch_memory and
// profile (on a live secrets.cjs), and every HTML report they name, is grepped for the markers the
// fixture plants (the list of test/e2e/redaction.test.ts, which does the same for the CLI).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { removeSnapshots, takeSnapshotSeries } from '../helpers/take-snapshot.js';
import { startTarget } from '../helpers/live-target.js';

const BIN = fileURLToPath(new URL('../../../bin/leakhunt.js', import.meta.url));
/** The markers of fixtures/secrets.cjs: each planted secret contains one. */
const MARKERS = ['sk-live-', 'PROPNAME9996', 'alice.secret', 'example.com', 'sess_9f', 'REGEXP', 'MAPKEY', 'SYMBOL9996', 'SHAPE9996', 'FNNAME9996', 'tok4eC39Hq', '1b9d6bcd', 'VALUE4a7f'];

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

function assertClean(what: string, text: string): void {
  for (const marker of MARKERS) {
    const at = text.indexOf(marker);
    assert.equal(at, -1, `${what} holds the planted secret "${marker}": …${text.slice(Math.max(0, at - 120), at + 80)}…`);
  }
}

test('mcp: no planted secret in any tool answer (text or structured) or the HTML reports the tools write', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-mcp-redaction-'));
  const snapshots = await takeSnapshotSeries('secrets.cjs', 3, { requests: 100, requestsBetween: 100 });
  // The server's cwd is the temporary directory: profile writes its report there by default.
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: dir, stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } as Record<string, string> });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'leakhunt-redaction-test', version: '1' });
  await client.connect(transport);
  const target = await startTarget({ fixture: 'secrets.cjs', nodeArgs: ['--inspect-port=0'], rate: 100, warmupMs: 500 });
  const checked: string[] = [];
  const call = async (name: string, args: Record<string, unknown>, expectError = false): Promise<ToolAnswer> => {
    const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: 180_000, resetTimeoutOnProgress: true, onprogress: (p) => assertClean(`${name} progress`, p.message ?? '') })) as ToolAnswer;
    const what = `${name} ${JSON.stringify(args)}`;
    assert.equal(r.isError === true, expectError, `${what}: ${r.content.map((c) => c.text).join('\n')}`);
    assertClean(what, JSON.stringify(r));
    const html = r.structuredContent?.['htmlReport'];
    if (typeof html === 'string') assertClean(`${what}: ${html}`, readFileSync(html, 'utf8'));
    checked.push(`${name}${typeof html === 'string' ? ' (+html)' : ''}`);
    return r;
  };
  try {
    const [first, , last] = snapshots as [string, string, string];
    await call('analyze_snapshot', { file: last, top: 1000, html: join(dir, 'analyze.html') });
    await call('diff_snapshots', { files: snapshots, html: join(dir, 'diff.html') });
    await call('diff_snapshots', { files: [first, last], html: false });
    for (const className of ['Session', 'Grant', 'RegExp']) await call('retainers', { file: last, className, paths: 50 });

    const capturePlan = await call('plan_capture', { pid: target.pid });
    const captured = await call('capture', { planId: capturePlan.structuredContent!['planId'], confirm: true, snapshots: 3, counter: 'globalThis.__leakhuntRequests', every: 100, outDir: join(dir, 'capture') });
    // On failure the answer (already checked clean above) says why.
    assert.equal(captured.structuredContent!['verdict'], 'leak', `the fixture leaks Sessions: the answer has chains to check; it said:\n${captured.content.map((c) => c.text).join('\n')}`);
    const counterPlan = await call('plan_capture', { pid: target.pid });
    const counter = await call('capture', { planId: counterPlan.structuredContent!['planId'], confirm: true, snapshots: 2, counter: 'globalThis.cfg.apiKey', every: 10, outDir: join(dir, 'counter') }, true);
    assert.match(counter.content[0]!.text, /returned a string \(27 chars\), not a finite number/);
    await call('watch_memory', { pid: target.pid, seconds: 2, interval: '500ms' });
    const profilePlan = await call('plan_capture', { pid: target.pid });
    await call('profile', { planId: profilePlan.structuredContent!['planId'], confirm: true, interval: '1s', samples: 3 });
  } finally {
    await client.close();
    await target.stop();
    removeSnapshots(snapshots);
    rmSync(dir, { recursive: true, force: true });
  }
  assertClean('the server\'s stderr', stderr);
  console.log(`mcp redaction coverage (${checked.length} answers): ${checked.join('; ')}`);
});
