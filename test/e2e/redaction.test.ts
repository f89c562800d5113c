// Nothing secret leaves the heap (issue 13, defect 6): fixtures/secrets.cjs plants API keys as string
// values, as dictionary keys, e-mail addresses, session ids, UUIDs and identifier-like tokens as keys,
// RegExp sources, Map keys, a symbol description, property names that become a `{a, b}` class name and
// a computed function name. Every command's text, --json and --markdown output and its stderr is
// grepped for every planted marker: none may appear. The one rule (src/analysis/redact.ts) must still
// show what reads as code (`byToken`, `sessionsById`, `grantsByKey`), so the chains stay traceable.
//
// Coverage (command × format × kind): analyze, analyze --top all, diff, retainers --class Session /
// Grant / RegExp / the `{…}` shape class, retainers --id of a RegExp, attach (3 snapshots), attach
// --counter cfg.apiKey (the error), watch --heap, snapshot, each in text, --json and --markdown where the
// command has them (watch: text and JSON lines; snapshot: text and JSON), stdout and stderr; and an
// assertNoLeak failure (message and data) whose leaked objects sit under session-id keys.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliResult } from '../helpers/cli.js';
import { removeSnapshots, takeSnapshotSeries } from '../helpers/take-snapshot.js';
import { startTarget } from '../helpers/live-target.js';
import { assertNoLeak } from '../../src/testing/index.js';

/** The markers of fixtures/secrets.cjs: each planted secret contains one. */
const MARKERS = ['sk-live-', 'PROPNAME9996', 'alice.secret', 'example.com', 'sess_9f', 'REGEXP', 'MAPKEY', 'SYMBOL9996', 'SHAPE9996', 'FNNAME9996', 'tok4eC39Hq', '1b9d6bcd', 'VALUE4a7f'];

const dir = mkdtempSync(join(tmpdir(), 'leakhunt-redaction-'));
const snapshots = await takeSnapshotSeries('secrets.cjs', 3, { requests: 100, requestsBetween: 100 });
test.after(() => {
  removeSnapshots(snapshots);
  rmSync(dir, { recursive: true, force: true });
});

const coverage: string[] = [];

function assertClean(what: string, r: CliResult): void {
  for (const [stream, text] of [['stdout', r.stdout], ['stderr', r.stderr]] as const) {
    for (const marker of MARKERS) {
      const at = text.indexOf(marker);
      assert.equal(at, -1, `${what} ${stream} prints the planted secret "${marker}": …${text.slice(Math.max(0, at - 120), at + 80)}…`);
    }
  }
  coverage.push(what);
}

async function everyFormat(args: readonly string[], expectCode = 0): Promise<CliResult[]> {
  const results: CliResult[] = [];
  for (const format of [[], ['--json'], ['--markdown']]) {
    const r = await runCli([...args, ...format], { timeoutMs: 120_000 });
    assert.equal(r.code, expectCode, `${args.join(' ')} ${format.join(' ')}: ${r.stderr}`);
    assertClean(`${args[0]} ${args.slice(2).join(' ')} ${format.join(' ') || 'text'}`, r);
    results.push(r);
  }
  return results;
}

test('analyze, analyze --top all, diff, retainers: no planted secret in any format, chains stay traceable', async () => {
  const [first, , last] = snapshots as [string, string, string];
  await everyFormat(['analyze', last]);
  const [, topAllJson] = await everyFormat(['analyze', last, '--top', 'all', '--objects', 'all']);
  const analyzed = JSON.parse(topAllJson!.stdout) as { classes: { name: string }[]; dominators: { name: string; className: string }[] };
  const shape = analyzed.classes.find((c) => /^\{<key, 17 chars>, <key, 28 chars>\}$/.test(c.name));
  assert.ok(shape, 'the plain objects keyed by secrets are classed by their property names, shown by length');
  assert.ok(analyzed.dominators.some((d) => d.className === 'RegExp' && d.name === '<regexp, 21 chars>'), 'a RegExp is named by its length only');

  await everyFormat(['diff', first, last, '--top', 'all', '--groups', '50']);
  const [sessionsText, sessionsJson] = await everyFormat(['retainers', last, '--class', 'Session', '--paths', '50']);
  assert.match(sessionsText!.stdout, /← \[<key, \d+ chars>\] \(property\) in Object @\d+/, 'the dictionary key is shown by its length');
  assert.match(sessionsText!.stdout, /\.sessionsById \(context\)/, 'names that read as code stay');
  assert.match(sessionsText!.stdout, /\.byToken \(property\) in global/);
  const chainEdges = (JSON.parse(sessionsJson!.stdout) as { paths: { chain: { edge: { name: string; redacted?: boolean } | null }[] }[] }).paths
    .flatMap((p) => p.chain.map((h) => h.edge).filter((e) => e !== null));
  assert.ok(chainEdges.some((e) => e.redacted === true && /^<key, \d+ chars>$/.test(e.name)), 'JSON marks a redacted key');
  await everyFormat(['retainers', last, '--class', 'Grant', '--paths', '50']);
  await everyFormat(['retainers', last, '--class', shape.name]);
  const [, regexpJson] = await everyFormat(['retainers', last, '--class', 'RegExp', '--paths', '100']);
  const regexpIds = (JSON.parse(regexpJson!.stdout) as { paths: { chain: { node: { id: number; type: string } }[] }[] }).paths
    .map((p) => p.chain[0]!.node).filter((n) => n.type === 'regexp').map((n) => n.id);
  assert.ok(regexpIds.length > 0);
  await everyFormat(['retainers', last, '--id', String(regexpIds[0])]);
});

test('attach, attach --counter on a secret, watch --heap, snapshot: no planted secret on stdout or stderr', async () => {
  const target = await startTarget({ fixture: 'secrets.cjs', rate: 100, warmupMs: 500 });
  try {
    const pid = String(target.pid);
    let n = 0;
    for (const format of [[], ['--json'], ['--markdown']]) {
      const r = await runCli(['attach', pid, '--snapshots', '3', '--interval', '1s', '--sample-every', '250ms', '--out', join(dir, `attach-${n++}`), '--groups', '50', ...format], { timeoutMs: 180_000 });
      assert.ok(r.code === 0 || r.code === 1, `attach ${format.join(' ')}: exit ${r.code}\n${r.stderr}`);
      assertClean(`attach ${format.join(' ') || 'text'}`, r);
    }
    const counter = await runCli(['attach', pid, '--counter', 'cfg.apiKey', '--snapshots', '2', '--interval', '1s', '--out', join(dir, 'counter')], { timeoutMs: 120_000 });
    assert.equal(counter.code, 2, counter.stderr);
    assert.match(counter.stderr, /--counter "cfg\.apiKey" returned a string \(27 chars\), not a finite number/);
    assertClean('attach --counter cfg.apiKey (error)', counter);
    for (const format of [[], ['--json']]) {
      const w = await runCli(['watch', pid, '--heap', '--every', '250ms', '--for', '1500ms', ...format], { timeoutMs: 60_000 });
      assert.equal(w.code, 0, w.stderr);
      assertClean(`watch --heap ${format.join(' ') || 'text'}`, w);
    }
    for (const format of [[], ['--json']]) {
      const s = await runCli(['snapshot', pid, '-o', join(dir, `one-${format.length}.heapsnapshot`), ...format], { timeoutMs: 120_000 });
      assert.equal(s.code, 0, s.stderr);
      assertClean(`snapshot ${format.join(' ') || 'text'}`, s);
    }
  } finally {
    await target.stop();
  }
});

test('assertNoLeak: a leak under session-id keys is explained without the keys', async () => {
  const sessions: Record<string, { i: number; token: string }> = {};
  const pattern = /alice\.secret[0-9]+@example\.com/;
  let failure: unknown;
  try {
    await assertNoLeak((i) => {
      sessions[`sess_9f${(0x9f8a7b6c5d4e + i * 7919).toString(16)}`] = { i, token: `sk-live-VALUE4a7f${i}` };
      return pattern.test(String(i));
    }, { iterations: 20, warmup: 3 });
  } catch (err) {
    failure = err;
  }
  assert.ok(failure instanceof Error, 'the leak is found');
  const message = failure.message;
  const data = JSON.stringify((failure as { leaks?: unknown }).leaks);
  assert.match(message, /<key, \d+ chars>/, `the key is shown by its length:\n${message}`);
  assertClean('assertNoLeak (message and data)', { code: 0, stdout: message, stderr: data });
  console.log(`redaction coverage (${coverage.length} outputs, each stdout and stderr): ${coverage.join('; ')}`);
});
