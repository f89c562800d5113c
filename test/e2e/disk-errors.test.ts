// Where the snapshots go, through the real binary against real targets: a full disk, a disk that fills
// during a snapshot, a read-only directory, a missing directory and files that already exist. Each is a
// one-line error and exit 2 (never 70), found before SIGUSR1 when the place alone says so, and the target
// left as it was found: alive, its inspector closed, no partial file.
// The small and read-only file systems are real tmpfs mounts (a real ENOSPC and EROFS, as root sees them:
// chmod does not stop root). Mounting needs root (CI's container runs as root); without it these tests
// fail saying so. Every mount is undone in after(), whatever the tests did. Targets open their inspector
// on a random port (--inspect-port=0), so this file can run beside the others.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, statfsSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startTarget, type LiveTarget } from '../helpers/live-target.js';

/** ~20 k small objects: a snapshot file of ~5 MB, a few hundred ms to take. */
const TARGET = `
globalThis.keep = [];
for (let i = 0; i < 20000; i++) keep.push({ id: i, name: 'item-' + i });
setInterval(() => keep.length, 1000);
`;

let base = '';
const mounts: string[] = [];
const targets: LiveTarget[] = [];

before(() => {
  base = mkdtempSync(join(tmpdir(), 'leakhunt-disk-'));
});

after(async () => {
  await Promise.all(targets.map((t) => t.stop()));
  const stuck: string[] = [];
  for (const dir of mounts.reverse()) {
    try {
      execFileSync('umount', [dir], { stdio: 'pipe' });
    } catch {
      try {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' }); // busy: detach it now, freed when unused
      } catch {
        stuck.push(dir);
      }
    }
  }
  rmSync(base, { recursive: true, force: true });
  assert.deepEqual(stuck, [], 'every tmpfs the tests mounted is unmounted');
});

/** A real tmpfs of `size` (e.g. "2m") under the test's directory; `ro` mounts it read-only. */
function mountTmpfs(name: string, size: string, ro = false): string {
  const dir = join(base, name);
  mkdirSync(dir);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `${ro ? 'ro,' : ''}size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    const uid = process.getuid?.();
    throw new Error(`these tests mount a small tmpfs for a real full disk and a real read-only directory, which needs root (uid ${uid}): ${(err as Error).message}`);
  }
  mounts.push(dir);
  return dir;
}

/** Writes into `dir` until its file system answers ENOSPC: a disk with 0 bytes free. */
function fillUp(dir: string): void {
  const fd = openSync(join(dir, 'filler'), 'w');
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch (err) {
    assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    closeSync(fd);
  }
  const fs = statfsSync(dir);
  assert.equal(fs.bavail * fs.bsize, 0, 'the disk is full');
}

async function target(): Promise<LiveTarget> {
  const t = await startTarget({ code: TARGET, nodeArgs: ['--inspect-port=0'], warmupMs: 200 });
  targets.push(t);
  return t;
}

const debuggerOpenings = (t: LiveTarget): number => (t.stderr().match(/Debugger listening on/g) ?? []).length;

/**
 * The answer a user must get: `code`, one `leakhunt:` line matching `message` as the last line of stderr,
 * no stack trace, no "internal error"; the target alive with nothing listening; no partial file in `dirs`.
 * `signalled` says whether SIGUSR1 was sent (the target's inspector opened once more) or not at all.
 */
function assertClearError(r: CliResult, t: LiveTarget, openingsBefore: number, expect: { code: number; message: RegExp; signalled: boolean; dirs: string[] }): void {
  assert.equal(r.code, expect.code, `exit ${expect.code}; stderr:\n${r.stderr}`);
  const lines = r.stderr.trimEnd().split('\n');
  assert.match(lines[lines.length - 1]!, expect.message);
  assert.match(lines[lines.length - 1]!, /^leakhunt: /);
  assert.doesNotMatch(r.stderr, /internal error|^\s+at /m, 'no internal error, no stack trace');
  assert.equal(r.stdout, '', 'nothing on stdout');
  assert.ok(t.alive(), 'the target still runs');
  assert.deepEqual(t.listeningPorts(), [], 'the target listens on nothing: an inspector leakhunt opened is closed');
  assert.equal(debuggerOpenings(t) - openingsBefore, expect.signalled ? 1 : 0, expect.signalled ? 'SIGUSR1 was sent once' : 'refused before any SIGUSR1');
  for (const d of expect.dirs) assert.deepEqual(readdirSync(d).filter((f) => f.endsWith('.partial')), [], `no partial file in ${d}`);
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('a full disk: snapshot -o and attach --out refuse before SIGUSR1, exit 2 naming the directory', async () => {
  const t = await target();
  const disk = mountTmpfs('full', '2m');
  fillUp(disk);
  let before = debuggerOpenings(t);
  const r = await runCli(['snapshot', String(t.pid), '-o', join(disk, 'a.heapsnapshot')]);
  assertClearError(r, t, before, { code: 2, message: new RegExp(`${escape(disk)} has 0 B free, less than the smallest heap snapshot`), signalled: false, dirs: [disk] });
  before = debuggerOpenings(t);
  const a = await runCli(['attach', String(t.pid), '--out', join(disk, 'capture'), '--interval', '1s']);
  assertClearError(a, t, before, { code: 2, message: new RegExp(`${escape(disk)} has 0 B free`), signalled: false, dirs: [disk] });
  assert.deepEqual(readdirSync(disk), ['filler'], 'nothing created on the full disk');
});

test('free space below the plan\'s estimate: refused after the heap is known but before any snapshot, exit 2, inspector closed', async () => {
  const t = await target();
  const disk = mountTmpfs('small', '3m');
  const file = join(disk, 'a.heapsnapshot');
  const before = debuggerOpenings(t);
  const r = await runCli(['snapshot', String(t.pid), '-o', file]);
  assertClearError(r, t, before, {
    code: 2,
    message: new RegExp(`not enough disk space in ${escape(disk)} for the heap snapshot: ~[\\d.]+ MiB needed, 3\\.00 MiB free; .*--force`),
    signalled: true,
    dirs: [disk],
  });
  assert.match(r.stderr, /\n {2}disk {7}3\.00 MiB free in .* against ~[\d.]+ MiB: NOT ENOUGH\n/, 'the plan shows the disk line');
  assert.deepEqual(readdirSync(disk), [], 'no snapshot was started');
});

test('the disk fills during a snapshot (--force past the estimate): exit 2 with the path and the bytes written, partial removed, target as found', async () => {
  const t = await target();
  const disk = mountTmpfs('fills', '2m');
  const file = join(disk, 'a.heapsnapshot');
  const before = debuggerOpenings(t);
  const r = await runCli(['snapshot', String(t.pid), '-o', file, '--force']);
  assertClearError(r, t, before, {
    code: 2,
    message: new RegExp(`^leakhunt: cannot write ${escape(file)}: no space left on device \\(ENOSPC\\) after (\\d+) bytes; the partial file ${escape(file)}\\.partial was removed$`),
    signalled: true,
    dirs: [disk],
  });
  const written = Number(/after (\d+) bytes/.exec(r.stderr)![1]);
  assert.ok(written > 1024 * 1024 && written <= 2 * 1024 * 1024, `about the 2 MiB the disk held were written (${written})`);
  assert.match(r.stderr, /warning: not enough disk space .* going ahead \(--force\)/);
  assert.deepEqual(readdirSync(disk), [], 'no partial file, no JSON');
  assert.equal(statfsSync(disk).bfree, statfsSync(disk).blocks, 'the disk is empty again');
  assert.deepEqual(filesOpenIn(t.pid, disk), [], 'the target holds no file on that disk (a snapshot it wrote itself included)');
});

/** What `pid` holds open under `dir` (its /proc/PID/fd links). */
function filesOpenIn(pid: number, dir: string): string[] {
  return readdirSync(`/proc/${pid}/fd`).map((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      return '';
    }
  }).filter((l) => l.startsWith(`${dir}/`));
}

test('attach: the disk fills at the second snapshot: exit 2, the first snapshot kept whole, the second removed, target as found', async () => {
  const t = await target();
  // The size of one snapshot of this target, measured, then a disk for one and a half of them.
  const probe = join(base, 'probe.heapsnapshot');
  const p = await runCli(['snapshot', String(t.pid), '-o', probe]);
  assert.equal(p.code, 0, p.stderr);
  const size = statSync(probe).size;
  const disk = mountTmpfs('series', `${Math.ceil((size * 1.5) / 1024)}k`);
  const out = join(disk, 'capture');
  const before = debuggerOpenings(t);
  const r = await runCli(['attach', String(t.pid), '--snapshots', '3', '--interval', '1s', '--out', out, '--force'], { timeoutMs: 90_000 });
  const second = join(out, `${t.pid}-2.heapsnapshot`);
  assertClearError(r, t, before, {
    code: 2,
    message: new RegExp(`cannot write ${escape(second)}: no space left on device \\(ENOSPC\\) after \\d+ bytes; the partial file ${escape(second)}\\.partial was removed; 1 complete snapshot\\(s\\) of 3 kept in ${escape(out)}$`),
    signalled: true,
    dirs: [out],
  });
  assert.deepEqual(readdirSync(out).sort(), [`${t.pid}-1.heapsnapshot`, `${t.pid}-1.json`]);
  const first = readFileSync(join(out, `${t.pid}-1.heapsnapshot`), 'utf8');
  assert.ok(first.startsWith('{"snapshot":') && first.trimEnd().endsWith('}'), 'the first snapshot is whole');
});

test('a read-only directory (a read-only mount; root ignores chmod): exit 2 with EROFS before SIGUSR1', async () => {
  const t = await target();
  const ro = mountTmpfs('readonly', '4m', true);
  let before = debuggerOpenings(t);
  const r = await runCli(['snapshot', String(t.pid), '-o', join(ro, 'a.heapsnapshot')]);
  assertClearError(r, t, before, { code: 2, message: new RegExp(`^leakhunt: -o: cannot write in ${escape(ro)}: read-only file system \\(EROFS\\)$`), signalled: false, dirs: [ro] });
  before = debuggerOpenings(t);
  const a = await runCli(['attach', String(t.pid), '--out', join(ro, 'capture')]);
  assertClearError(a, t, before, {
    code: 2,
    message: new RegExp(`^leakhunt: --out: cannot create ${escape(join(ro, 'capture'))}: cannot write in ${escape(ro)}: read-only file system \\(EROFS\\)$`),
    signalled: false,
    dirs: [ro],
  });
  assert.deepEqual(readdirSync(ro), []);
});

test('a missing directory for -o, a file where --out needs a directory: exit 2 before SIGUSR1, nothing created', async () => {
  const t = await target();
  const missing = join(base, 'missing', 'deeper');
  let before = debuggerOpenings(t);
  const r = await runCli(['snapshot', String(t.pid), '-o', join(missing, 'a.heapsnapshot')]);
  assertClearError(r, t, before, { code: 2, message: new RegExp(`^leakhunt: -o: directory ${escape(missing)} does not exist$`), signalled: false, dirs: [] });
  assert.throws(() => statSync(join(base, 'missing')), /ENOENT/, 'no directory was created');
  const plain = join(base, 'plain-file');
  writeFileSync(plain, 'not a directory\n');
  before = debuggerOpenings(t);
  const a = await runCli(['attach', String(t.pid), '--out', join(plain, 'capture')]);
  assertClearError(a, t, before, { code: 2, message: new RegExp(`^leakhunt: --out: cannot use ${escape(join(plain, 'capture'))}: not a directory \\(ENOTDIR\\)$`), signalled: false, dirs: [] });
});

test('existing files are never replaced without --force: snapshot -o FILE, its JSON, attach --out holding this pid\'s series', async () => {
  const t = await target();
  const dir = join(base, 'existing');
  mkdirSync(dir);
  const file = join(dir, 'keep.heapsnapshot');
  writeFileSync(file, 'precious\n');
  let before = debuggerOpenings(t);
  const r = await runCli(['snapshot', String(t.pid), '-o', file]);
  assertClearError(r, t, before, { code: 2, message: new RegExp(`^leakhunt: ${escape(file)} already exists: leakhunt never replaces a file without --force; choose another -o$`), signalled: false, dirs: [dir] });
  assert.equal(readFileSync(file, 'utf8'), 'precious\n');
  // The JSON written beside the snapshot counts too: `-o package.heapsnapshot` must not replace package.json.
  const json = join(dir, 'package.json');
  writeFileSync(json, '{"name":"precious"}\n');
  before = debuggerOpenings(t);
  const j = await runCli(['snapshot', String(t.pid), '-o', join(dir, 'package.heapsnapshot')]);
  assertClearError(j, t, before, { code: 2, message: new RegExp(`^leakhunt: ${escape(json)} already exists: `), signalled: false, dirs: [dir] });
  assert.equal(readFileSync(json, 'utf8'), '{"name":"precious"}\n');
  // attach --out into a directory that already holds this pid's series.
  const out = join(dir, 'capture');
  mkdirSync(out, { mode: 0o700 });
  const earlier = join(out, `${t.pid}-1.heapsnapshot`);
  writeFileSync(earlier, 'an earlier run\n');
  before = debuggerOpenings(t);
  const a = await runCli(['attach', String(t.pid), '--out', out, '--interval', '1s']);
  assertClearError(a, t, before, { code: 2, message: new RegExp(`^leakhunt: ${escape(earlier)} already exists: .*choose another --out$`), signalled: false, dirs: [out] });
  assert.equal(readFileSync(earlier, 'utf8'), 'an earlier run\n');
  // --force replaces the file, says so, and leaves the target as it was found.
  before = debuggerOpenings(t);
  const f = await runCli(['snapshot', String(t.pid), '-o', file, '--force']);
  assert.equal(f.code, 0, f.stderr);
  assert.match(f.stderr, new RegExp(`warning: ${escape(file)} already exists and will be replaced; going ahead \\(--force\\)`));
  assert.ok(readFileSync(file, 'utf8').startsWith('{"snapshot":'), 'replaced by the snapshot');
  assert.equal(debuggerOpenings(t) - before, 1);
  assert.ok(t.alive());
  assert.deepEqual(t.listeningPorts(), []);
});
