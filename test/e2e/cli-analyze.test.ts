// `leakhunt analyze` through the built binary: the JSON contract, text output, and every class of bad
// input with its exit code and exactly one line on stderr.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { buildSampleGraph } from '../helpers/sample-graphs.js';

const dir = mkdtempSync(join(tmpdir(), 'leakhunt-cli-'));
const good = join(dir, 'good.heapsnapshot');
buildSampleGraph().writeFile(good);
const text = readFileSync(good, 'utf8');

test.after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

test('analyze --json follows the schemaVersion 1 contract', async () => {
  const r = await runCli(['analyze', good, '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '', 'nothing on stderr with --json');
  const out = JSON.parse(r.stdout);
  assert.equal(out.schemaVersion, 1);
  assert.deepEqual(Object.keys(out.snapshot).sort(), ['edgeCount', 'nodeCount', 'totalSize']);
  assert.equal(out.snapshot.nodeCount, 11);
  assert.ok(out.snapshot.totalSize > 5 * 2 ** 32, 'sizes above 2^32 reach the report');
  for (const c of out.classes) assert.deepEqual(Object.keys(c).sort(), ['count', 'name', 'retainedSize', 'selfSize']);
  for (const d of out.dominators) assert.deepEqual(Object.keys(d).sort(), ['className', 'id', 'name', 'retainedSize', 'selfSize']);
  assert.equal(out.classes[0].name, 'global', 'global retains everything else');
  const blob = out.classes.find((c: { name: string }) => c.name === 'BigBlob');
  assert.equal(blob.retainedSize, 5 * 2 ** 32);
  assert.doesNotMatch(r.stdout, /secret prompt/, 'string contents are never printed');
});

test('analyze text: tables, no colour codes under NO_COLOR, no string contents', async () => {
  const r = await runCli(['analyze', good, '--top', '3']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Top 3 of \d+ classes by retained size/);
  assert.match(r.stdout, /BigBlob @\d+/);
  assert.match(r.stdout, /20\.0 GiB/);
  assert.doesNotMatch(r.stdout, /\u001b\[/);
  assert.doesNotMatch(r.stdout, /secret prompt/);
});

test('--sort and --top all are honoured', async () => {
  const r = await runCli(['analyze', good, '--json', '--top', 'all', '--sort', 'count']);
  const out = JSON.parse(r.stdout);
  assert.equal(out.classes.length, out.classCount);
  const counts = out.classes.map((c: { count: number }) => c.count);
  assert.deepEqual(counts, [...counts].sort((a: number, b: number) => b - a));
});

const truncated = text.slice(0, Math.floor(text.length * 0.6));
const badInputs: [string, () => string, RegExp][] = [
  ['missing file', () => join(dir, 'nope.heapsnapshot'), /nope\.heapsnapshot: no such file$/],
  ['a directory', () => (mkdirSync(join(dir, 'a-dir'), { recursive: true }), join(dir, 'a-dir')), /a-dir: is a directory/],
  ['empty file', () => file('empty.heapsnapshot', ''), /empty\.heapsnapshot: empty file at byte 0$/],
  ['not JSON', () => file('notjson.heapsnapshot', 'hello world'), /expected '\{', found 'h' at byte 0$/],
  ['JSON that is not a snapshot', () => file('other.json', '{"name":"x","version":"1"}'), /not a heap snapshot: first key is "name".* at byte \d+$/],
  ['truncated file', () => file('truncated.heapsnapshot', truncated), new RegExp(`file ends early .* at byte ${Buffer.byteLength(truncated)}$`)],
  ['wrong field counts', () => file('fields.heapsnapshot', text.replace(/"node_count":\d+/, '"node_count":10')), /"nodes" has more values than node_count 10 × 7 fields at byte \d+$/],
  ['edge outside the nodes', () => file('edge.heapsnapshot', text.replace(/"edges":\[(\d+),(\d+),(\d+)/, '"edges":[$1,$2,7777')), /points to node offset 7777, outside the 11 nodes at byte \d+$/],
];

for (const [name, make, message] of badInputs) {
  test(`bad input (${name}) → exit 3 and one line`, async () => {
    const r = await runCli(['analyze', make()]);
    assert.equal(r.code, 3, r.stderr);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, `one line, got:\n${r.stderr}`);
    assert.match(lines[0]!, /^leakhunt: /);
    assert.match(lines[0]!, message);
  });
}

test('--debug adds the stack trace', async () => {
  const r = await runCli(['--debug', 'analyze', join(dir, 'nope.heapsnapshot')]);
  assert.equal(r.code, 3);
  assert.match(r.stderr, /SnapshotFormatError/);
});

const usage: [string, string[]][] = [
  ['no file', ['analyze']],
  ['bad --top', ['analyze', 'x.heapsnapshot', '--top', 'zero']],
  ['bad --sort', ['analyze', 'x.heapsnapshot', '--sort', 'size']],
  ['unknown flag', ['analyze', 'x.heapsnapshot', '--frobnicate']],
  ['unknown command', ['frobnicate']],
];

for (const [name, args] of usage) {
  test(`usage error (${name}) → exit 2 and one line`, async () => {
    const r = await runCli(args);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^leakhunt: /);
  });
}

test('--help lists each command with an example; --version prints the version', async () => {
  const help = await runCli(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /analyze/);
  assert.match(help.stdout, /\$ leakhunt analyze \S+/);
  const version = await runCli(['--version']);
  assert.equal(version.code, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
});
