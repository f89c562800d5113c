// Holder reads on a real target (src/attach/holder-reads.ts): after a snapshot, the member counts of
// objects it named are read by their V8 ids over the inspector, paced like the snapshots, with no
// snapshot: a Map that grows reads growing, an array at a fixed size reads flat, a proxy is refused
// (its traps could run code) and gives no reads, and released handles no longer reach their objects.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureSnapshot } from '../../src/attach/capture.js';
import { readHolders } from '../../src/attach/holder-reads.js';
import { openTarget } from '../../src/attach/open-target.js';
import { holderTrend } from '../../src/diagnose/holder-reads.js';
import { startTarget, type LiveTarget } from '../helpers/live-target.js';

const PROGRAM = `
class Kept { constructor(i) { this.i = i; } }
globalThis.growing = new Map();
globalThis.fixed = Array.from({ length: 300 }, (_, i) => ({ i }));
globalThis.trapped = new Proxy([1, 2, 3], { get(t, k) { globalThis.trapsRun = (globalThis.trapsRun ?? 0) + 1; return t[k]; } });
let n = 0;
setInterval(() => { for (let k = 0; k < 20; k++) growing.set(n, new Kept(n++)); }, 100);
`;

const dirs: string[] = [];
const targets: LiveTarget[] = [];
after(async () => {
  await Promise.all(targets.map((t) => t.stop()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The V8 id of the object a global property names, from a (small) snapshot file. */
function idOfGlobal(file: string, property: string): number {
  const s = JSON.parse(readFileSync(file, 'utf8')) as { snapshot: { meta: { node_fields: string[]; edge_fields: string[] } }; nodes: number[]; edges: number[]; strings: string[] };
  const nf = s.snapshot.meta.node_fields.length, ef = s.snapshot.meta.edge_fields.length;
  const idAt = s.snapshot.meta.node_fields.indexOf('id'), countAt = s.snapshot.meta.node_fields.indexOf('edge_count');
  let e = 0;
  for (let i = 0; i < s.nodes.length; i += nf) {
    for (let k = 0; k < s.nodes[i + countAt]!; k++, e += ef) {
      if (s.strings[s.edges[e + 1]!] === property) return s.nodes[s.edges[e + 2]! + idAt]!;
    }
  }
  throw new Error(`no edge named ${property}`);
}

test('reads by heap id: a growing Map grows, a fixed array stays flat, a proxy is refused; handles released', async () => {
  const t = await startTarget({ code: PROGRAM, nodeArgs: ['--inspect-port=0'], warmupMs: 300 });
  targets.push(t);
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-holders-'));
  dirs.push(dir);
  const { session } = await openTarget({ pid: t.pid, timeoutMs: 10_000 });
  try {
    const first = await captureSnapshot(session, join(dir, 'a.heapsnapshot'), 1, undefined, {}, undefined, t.pid);
    const ids = Object.fromEntries(['growing', 'fixed', 'trapped'].map((p) => [p, idOfGlobal(first!.file, p)]));
    const reads = await readHolders({
      session,
      holders: Object.entries(ids).map(([className, holderId]) => ({ holderId, className })),
      intervals: 2,
      intervalMs: 1000,
      readEveryMs: 200,
    });
    const byName = new Map(reads.map((r) => [r.className, r]));
    const growing = holderTrend(byName.get('growing')!.reads)!;
    assert.equal(growing.floors.length, 3, 'the start and two intervals');
    // The gain runs from the first interval's floor to the second's: one 1 s interval at 200 a second.
    assert.ok(growing.gain >= 150, `the Map gained ${growing.gain} members over one 1 s interval at 200 a second`);
    assert.ok(growing.z >= 10, `z ${growing.z}`);
    const fixed = holderTrend(byName.get('fixed')!.reads)!;
    assert.deepEqual([...new Set(fixed.floors)], [300]);
    assert.equal(byName.has('trapped'), false, 'no read of a proxy');
    const traps = await session.evaluatePure('globalThis.trapsRun ?? 0', 1000);
    assert.deepEqual('value' in traps ? traps.value.value : traps, 0, 'no proxy trap ran');
    // Nothing readable: no interval is waited for (two 2 s intervals would be 4 s).
    const started = Date.now();
    assert.deepEqual(await readHolders({ session, holders: [{ holderId: ids.trapped!, className: 'trapped' }], intervals: 2, intervalMs: 2000, readEveryMs: 200 }), []);
    assert.ok(Date.now() - started < 2000, `returned after ${Date.now() - started} ms`);
    // Released: a handle is good until the release, and gone after it.
    const handle = await session.holderHandle(ids.fixed!);
    assert.equal(await session.memberCount(handle!), 300);
    await session.releaseHolders();
    assert.equal(await session.memberCount(handle!), undefined);
  } finally {
    await session.detach();
  }
});
