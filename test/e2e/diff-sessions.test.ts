// `leakhunt diff` when the object ids cannot line up (docs/diff-modes.md), on real V8 snapshots:
// - one free-running process snapshotted by three separate `leakhunt snapshot` runs (three inspector
//   sessions: V8 numbers objects afresh in each) is recognised as one process by what the snapshot JSON
//   records (pid, /proc start ticks, boot id), compared by retainer-path signature, and its growing path
//   is found with its chain, the mode and what the mode cannot tell;
// - two processes of the same leaking fixture, compared with --across-processes;
// - two processes of different programs, without the flag: still "different processes", classes only.
// The target opens its inspector on SIGUSR1 at a port of its own choosing (--inspect-port=0), so this
// file does not compete with attach.test.ts for 127.0.0.1:9229.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DiffResult } from '../../src/analysis/diff/diff-series.js';
import type { Candidate, Finding } from '../../src/diagnose/finding.js';

import { runCli } from '../helpers/cli.js';
import { sleep, startTarget } from '../helpers/live-target.js';
import { removeSnapshots, takeSnapshot } from '../helpers/take-snapshot.js';

// Cut at the module scope, the first holder shared with other objects (signature-keys.ts), and said so.
const CACHE_PATH = /^CacheEntry ← \(array\)\[\] ← Map\.table ← system \/ Context\.responseCache ← …$/;

function privateDir(): string {
  return mkdtempSync(join(tmpdir(), 'leakhunt-sessions-'));
}

/** /proc/PID/stat field 22, read here without src/attach. */
function startTicksOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

type DiffJson = DiffResult & { verdict: string; evidence: string[]; findings: Finding[]; candidates?: Candidate[] };

async function diffJson(args: string[]): Promise<{ out: DiffJson; stderr: string }> {
  const r = await runCli(['diff', ...args, '--json', '--no-progress'], { timeoutMs: 120_000 });
  assert.ok(r.code === 0 || r.code === 1, `diff exited ${r.code}: ${r.stderr}`);
  return { out: JSON.parse(r.stdout) as DiffJson, stderr: r.stderr };
}

test('one process, three `leakhunt snapshot` sessions: one process by its recorded start, compared by signature, the growing path found', async () => {
  const target = await startTarget({ fixture: 'map-cache', nodeArgs: ['--inspect-port=0'], rate: 100, warmupMs: 300 });
  const dir = privateDir();
  try {
    const files: string[] = [];
    for (let i = 1; i <= 3; i++) {
      if (i > 1) await sleep(1500);
      const file = join(dir, `s${i}.heapsnapshot`);
      const r = await runCli(['snapshot', String(target.pid), '-o', file, '--no-progress'], { timeoutMs: 60_000 });
      assert.equal(r.code, 0, r.stderr);
      files.push(file);
    }
    assert.ok(target.alive(), 'the target lives on');
    // What the JSON beside each snapshot records: the process's start, the same every time; a new session each time.
    const metas = files.map((f) => JSON.parse(readFileSync(f.replace(/\.heapsnapshot$/, '.json'), 'utf8')) as Record<string, unknown>);
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    for (const m of metas) {
      assert.equal(m.pid, target.pid);
      assert.equal(m.startTicks, startTicksOf(target.pid));
      assert.equal(m.bootId, bootId);
    }
    assert.equal(new Set(metas.map((m) => m.session)).size, 3, 'three inspector sessions');

    const { out, stderr } = await diffJson(files);
    assert.equal(out.mode, 'signatures');
    assert.equal(out.sameProcess, false, 'the ids do not line up');
    assert.equal(out.process.same, true);
    assert.equal(out.process.by, 'metadata');
    assert.equal(out.process.idsLineUp, false);
    assert.deepEqual(out.limitations.map((l) => l.code), ['no-object-identity', 'no-births-deaths']);
    assert.match(stderr, /warning: one process .* whose object ids do not line up across inspector sessions: compared by retainer path/);
    assert.equal(out.survivors, null);
    assert.ok(out.signatures, 'signature rows');
    const group = out.signatures.groups.find((g) => CACHE_PATH.test(g.signature));
    assert.ok(group, `a CacheEntry path group; groups: ${out.signatures.groups.slice(0, 5).map((g) => g.signature).join(' | ')}`);
    assert.equal(out.signatures.groups[0], group, 'the top growing path is the cache');
    assert.equal(group.className, 'CacheEntry');
    assert.equal(group.grewEveryInterval, true);
    assert.ok(group.counts[1]! - group.counts[0]! >= 50 && group.counts[2]! - group.counts[1]! >= 50, `grows by ~150 a snapshot: ${group.counts.join(' → ')}`);
    // The class table agrees: one CacheEntry per request, all on this path.
    const row = out.classes.find((c) => c.name === 'CacheEntry')!;
    assert.deepEqual(group.counts, row.counts);
    assert.equal(group.chain[0]!.node.className, 'CacheEntry');
    assert.ok(group.chain.some((hop) => hop.node.className === 'Map' && hop.edge?.name === 'responseCache'), 'the chain names the Map responseCache');
    assert.equal(group.chain[group.chain.length - 1]!.node.className, '(root)');
    assert.ok(group.retainedSize >= group.counts[2]! * 100, `the entries retain their bodies: ${group.retainedSize}`);
    // The finding the diagnosis gets from it, with the body objects listed under it.
    const findings = out.findings.filter((f) => f.kind === 'leak');
    assert.equal(out.verdict, 'leak', out.evidence.join(' | '));
    assert.equal(findings[0]?.className, 'CacheEntry');
    assert.equal(findings[0]!.signature, group.signature);
    assert.equal(findings[0]!.count, group.countDelta);
    assert.match(findings[0]!.fix, /responseCache/);
    assert.ok(findings[0]!.alsoHeld?.some((h) => /× \{payload\}$/.test(h)), `the payloads are held with it: ${findings[0]!.alsoHeld?.join(', ')}`);
    assert.equal(findings.length, 1, `one leak: ${findings.map((f) => f.signature).join(' | ')}`);

    // The text report says how it compared and shows the path.
    const run = await runCli(['diff', ...files, '--no-progress']);
    const text = { stdout: run.stdout.replace(/\n {2,}/g, ' ') }; // lines wrapped at 100 columns, read whole
    assert.match(text.stdout, /^snapshots +3, one process \(by what was recorded beside each file\) across inspector sessions, compared by retainer path and class/m);
    assert.match(text.stdout, /^1\. CacheEntry: [\d,]+ → [\d,]+ → [\d,]+ alive \(\+[\d,]+, .*grew in every interval/m);

    // JSON of an older leakhunt (the pid only): the ids show the need once all are read, and the series
    // is read again for its signatures; the answer is the same.
    files.forEach((f, i) => writeFileSync(f.replace(/\.heapsnapshot$/, '.json'), JSON.stringify({ pid: metas[i]!.pid, nodeVersion: metas[i]!.nodeVersion })));
    const again = (await diffJson(files)).out;
    assert.equal(again.mode, 'signatures');
    assert.deepEqual({ same: again.process.same, by: again.process.by }, { same: true, by: 'metadata' });
    assert.deepEqual(again.signatures!.groups[0]!.counts, group.counts);
    assert.equal(again.signatures!.groups[0]!.signature, group.signature);
  } finally {
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('two processes of one leaking program, --across-processes: compared by signature, the path that holds more is the candidate (two points: inconclusive)', async () => {
  const healthy = await takeSnapshot('map-cache', { requests: 100 });
  const leaking = await takeSnapshot('map-cache', { requests: 400 });
  try {
    const { out, stderr } = await diffJson([healthy, leaking, '--across-processes']);
    assert.equal(out.mode, 'signatures');
    assert.equal(out.process.same, false);
    assert.equal(out.process.by, 'none', 'nothing recorded beside these files, ids of two processes');
    assert.ok(out.limitations.some((l) => l.code === 'different-processes'));
    assert.match(stderr, /warning: compared as instances of one service, not one process/);
    const group = out.signatures!.groups.find((g) => CACHE_PATH.test(g.signature));
    assert.ok(group, 'the cache path');
    assert.equal(group.countDelta, 300);
    assert.equal(group.grewEveryInterval, null, 'two snapshots: no trend');
    // Two points cannot tell a leak from a cache filled once between them: the verdict says so.
    assert.equal(out.verdict, 'inconclusive', out.evidence.join(' | '));
    assert.deepEqual(out.findings.filter((f) => f.kind === 'leak'), []);
    const seen = (out.candidates ?? []).map((c) => `${c.signature} +${c.count} ${c.retainedSize} B`).join(' | ');
    assert.equal(out.candidates?.[0]?.className, 'CacheEntry', `candidates: ${seen}; groups: ${out.signatures!.groups.slice(0, 8).map((g) => `${g.signature} ${g.counts.join('→')} ${g.retainedSize} B`).join(' | ')}`);
  } finally {
    removeSnapshots([healthy, leaking]);
  }
});

test('two processes of different programs without the flag: different processes, classes only', async () => {
  const a = await takeSnapshot('map-cache', { requests: 100 });
  const b = await takeSnapshot('listener', { requests: 100 });
  try {
    const { out, stderr } = await diffJson([a, b]);
    assert.equal(out.mode, 'classes');
    assert.equal(out.sameProcess, false);
    assert.deepEqual({ same: out.process.same, by: out.process.by, idsLineUp: out.process.idsLineUp }, { same: false, by: 'none', idsLineUp: false });
    assert.equal(out.signatures, null);
    assert.equal(out.survivors, null);
    assert.ok(out.limitations.some((l) => l.code === 'classes-only'));
    assert.match(stderr, /do not come from one process/);
    assert.match(stderr, /--across-processes/, 'a hint for instances of one service');
    assert.deepEqual(out.findings, []);
    assert.equal(out.verdict, 'none');
  } finally {
    removeSnapshots([a, b]);
  }
});
