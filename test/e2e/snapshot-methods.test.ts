// The two ways a snapshot is taken (src/attach/capture.ts): written by the target itself
// (v8.writeHeapSnapshot through Runtime.evaluate) or streamed over the inspector. Both in one session
// of a real target: the same object has the same V8 id in both (diffs by id keep working whichever way
// each snapshot of a series was taken), both files are whole and 0600, nothing partial is left, the
// JSON says the method; a target that cannot write its own falls back to streaming and says why; and
// the CLI says the method in its plan.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureSnapshot } from '../../src/attach/capture.js';
import { openTarget } from '../../src/attach/open-target.js';
import { runCli } from '../helpers/cli.js';
import { startTarget, type LiveTarget } from '../helpers/live-target.js';

const MARKED = `
class PauseMarker { constructor() { this.n = 42; } }
globalThis.marker = new PauseMarker();
globalThis.keep = [];
for (let i = 0; i < 5000; i++) keep.push({ i });
setInterval(() => keep.length, 1000);
`;

const dirs: string[] = [];
const targets: LiveTarget[] = [];
after(async () => {
  await Promise.all(targets.map((t) => t.stop()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function privateDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'leakhunt-methods-')); // 0700
  dirs.push(d);
  return d;
}

async function target(code: string): Promise<LiveTarget> {
  const t = await startTarget({ code, nodeArgs: ['--inspect-port=0'], warmupMs: 200 });
  targets.push(t);
  return t;
}

/** The V8 ids of the objects of class `name` in a (small) snapshot file. */
function idsOf(file: string, name: string): number[] {
  const s = JSON.parse(readFileSync(file, 'utf8')) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[] };
  const fields = s.snapshot.meta.node_fields;
  const width = fields.length, typeAt = fields.indexOf('type'), nameAt = fields.indexOf('name'), idAt = fields.indexOf('id');
  const object = s.snapshot.meta.node_types[0].indexOf('object');
  const ids: number[] = [];
  for (let i = 0; i < s.nodes.length; i += width) {
    if (s.nodes[i + typeAt] === object && s.strings[s.nodes[i + nameAt]!] === name) ids.push(s.nodes[i + idAt]!);
  }
  return ids;
}

test('one session, one snapshot streamed and one written by the target: the same object has the same id; files whole, 0600, no partial', async () => {
  const t = await target(MARKED);
  const dir = privateDir();
  const { session } = await openTarget({ pid: t.pid, timeoutMs: 10_000 });
  try {
    const streamed = await captureSnapshot(session, join(dir, 'a.heapsnapshot'), 1, undefined, {}, undefined, t.pid, 'streamed');
    const wrote = await captureSnapshot(session, join(dir, 'b.heapsnapshot'), 2, undefined, {}, undefined, t.pid, 'target-wrote');
    const auto = await captureSnapshot(session, join(dir, 'c.heapsnapshot'), 3, undefined, {}, undefined, t.pid);
    assert.equal(streamed?.method, 'streamed');
    assert.equal(wrote?.method, 'target-wrote');
    assert.equal(auto?.method, 'target-wrote', 'a local target, same uid, a 0700 directory: the target writes');
    assert.equal(auto?.streamedBecause, undefined);
    const [a, b, c] = ['a', 'b', 'c'].map((n) => idsOf(join(dir, `${n}.heapsnapshot`), 'PauseMarker'));
    assert.equal(a!.length, 1, 'one PauseMarker in the streamed snapshot');
    assert.deepEqual(b, a, 'the same id in the snapshot the target wrote');
    assert.deepEqual(c, a);
    for (const n of ['a', 'b', 'c']) {
      assert.equal(statSync(join(dir, `${n}.heapsnapshot`)).mode & 0o777, 0o600, `${n}.heapsnapshot is 0600`);
      const meta = JSON.parse(readFileSync(join(dir, `${n}.json`), 'utf8')) as { method?: string };
      assert.equal(meta.method, n === 'a' ? 'streamed' : 'target-wrote', `${n}.json says the method`);
    }
    assert.equal(wrote!.bytes, statSync(join(dir, 'b.heapsnapshot')).size, 'bytes as on disk');
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.partial')), []);
  } finally {
    await session.detach();
  }
  assert.deepEqual(t.listeningPorts(), [], 'inspector closed');
  assert.ok(t.alive());
});

test('a target without v8 to be had falls back to streaming, says why in the JSON, and keeps streaming in that session', async () => {
  // process.getBuiltinModule answers something without writeHeapSnapshot: the expression finds no v8.
  const t = await target(`${MARKED}\nprocess.getBuiltinModule = () => ({});`);
  const dir = privateDir();
  const { session } = await openTarget({ pid: t.pid, timeoutMs: 10_000 });
  try {
    const first = await captureSnapshot(session, join(dir, 'a.heapsnapshot'), 1, undefined, {}, undefined, t.pid);
    const second = await captureSnapshot(session, join(dir, 'b.heapsnapshot'), 2, undefined, {}, undefined, t.pid);
    for (const s of [first, second]) {
      assert.equal(s?.method, 'streamed');
      assert.match(s?.streamedBecause ?? '', /neither process\.getBuiltinModule nor the inspector's require/);
    }
    assert.deepEqual(idsOf(join(dir, 'b.heapsnapshot'), 'PauseMarker'), idsOf(join(dir, 'a.heapsnapshot'), 'PauseMarker'));
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.partial')), []);
  } finally {
    await session.detach();
  }
  assert.ok(t.alive());
});

test('the CLI: the plan says the method; a directory others can write is streamed into, and says so', async () => {
  const t = await target(MARKED);
  const dir = privateDir();
  const r = await runCli(['snapshot', String(t.pid), '-o', join(dir, 'a.heapsnapshot'), '--progress']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /\n {2}method {5}written by the target itself \(v8\.writeHeapSnapshot\)\n/);
  const open = mkdtempSync(join(tmpdir(), 'leakhunt-methods-open-'));
  dirs.push(open);
  chmodSync(open, 0o777);
  const s = await runCli(['snapshot', String(t.pid), '-o', join(open, 'b.heapsnapshot'), '--json']);
  assert.equal(s.code, 0, s.stderr);
  assert.match(s.stderr.replace(/\n {5,}/g, ' '), /\n {2}method {5}streamed over the inspector \(.* is writable by others \(mode 777\): leakhunt writes there itself\)\n/);
  const out = JSON.parse(s.stdout) as { method?: string; streamedBecause?: string };
  assert.equal(out.method, 'streamed');
  assert.match(out.streamedBecause ?? '', /writable by others/);
  assert.deepEqual(t.listeningPorts(), []);
});
