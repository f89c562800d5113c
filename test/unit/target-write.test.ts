// When the target may write its own snapshot (src/attach/target-write.ts), on a fake /proc tree: only a
// local process with our root, our mount namespace and our file-system uid, into a directory nobody
// else can write; each refusal says why. And what the target's answers mean.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuTicksOf, endsLikeSnapshot, systemErrorOfAnswer, targetWriteRefusal } from '../../src/attach/target-write.js';

function fakeProc(opts: { root?: string; mnt?: string; fsUid?: number } = {}): { proc: string; out: string; done: () => void } {
  const base = mkdtempSync(join(tmpdir(), 'leakhunt-tw-'));
  const proc = join(base, 'proc');
  const status = (uid: number): string => `Name:\tnode\nUid:\t${uid}\t${uid}\t${uid}\t${uid}\nVmRSS:\t1000 kB\n`;
  for (const [pid, uid, mnt, root] of [['self', 1000, 'mnt:[4026531841]', '/'], ['42', opts.fsUid ?? 1000, opts.mnt ?? 'mnt:[4026531841]', opts.root ?? '/']] as const) {
    mkdirSync(join(proc, pid, 'ns'), { recursive: true });
    writeFileSync(join(proc, pid, 'status'), status(uid));
    symlinkSync(mnt, join(proc, pid, 'ns', 'mnt'));
    symlinkSync(root, join(proc, pid, 'root'));
  }
  writeFileSync(join(proc, '42', 'stat'), '42 (node (x)) S 1 42 42 0 -1 4194560 100 0 0 0 250 31 0 0 20 0 11 0 100 0 0\n');
  const out = join(base, 'out');
  mkdirSync(out, { mode: 0o700 });
  return { proc, out, done: () => rmSync(base, { recursive: true, force: true }) };
}

test('a local target with our root, mount namespace and uid, into a 0700 directory: it writes', () => {
  const f = fakeProc();
  try {
    assert.equal(targetWriteRefusal(42, join(f.out, 'a.heapsnapshot'), f.proc), undefined);
  } finally {
    f.done();
  }
});

test('each reason to stream instead, said', () => {
  assert.match(targetWriteRefusal(undefined, '/x/a.heapsnapshot') ?? '', /not a local process \(--port \/ --ws\)/);
  const other = mkdtempSync(join(tmpdir(), 'leakhunt-tw-root-'));
  const cases: [Parameters<typeof fakeProc>[0], RegExp][] = [
    [{ root: other }, /pid 42 has another root directory \(a container\)/],
    [{ mnt: 'mnt:[4026532999]' }, /pid 42 is in another mount namespace/],
    [{ fsUid: 1001 }, /pid 42 writes files as uid 1001, leakhunt as uid 1000/],
  ];
  try {
    for (const [opts, why] of cases) {
      const f = fakeProc(opts);
      try {
        assert.match(targetWriteRefusal(42, join(f.out, 'a.heapsnapshot'), f.proc) ?? '', why);
      } finally {
        f.done();
      }
    }
    const f = fakeProc();
    try {
      chmodSync(f.out, 0o775);
      assert.match(targetWriteRefusal(42, join(f.out, 'a.heapsnapshot'), f.proc) ?? '', /is writable by others \(mode 775\)/);
      assert.match(targetWriteRefusal(43, join(f.out, 'a.heapsnapshot'), f.proc) ?? '', /cannot compare pid 43's file system with ours \(ENOENT\)/);
    } finally {
      f.done();
    }
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
});

test('the target\'s answers: a system error by its fields; CPU ticks from /proc/PID/stat (a comm with spaces and parentheses); a cut file', () => {
  const err = systemErrorOfAnswer({ written: false, code: 'ENOSPC', errno: -28, syscall: 'write' }, '/o/a.heapsnapshot');
  assert.deepEqual({ code: err?.code, errno: err?.errno, syscall: err?.syscall, path: err?.path }, { code: 'ENOSPC', errno: -28, syscall: 'write', path: '/o/a.heapsnapshot' });
  assert.equal(systemErrorOfAnswer({ written: false, code: 'ERR_ACCESS_DENIED' }, '/o/a'), undefined, 'not a system error');
  const f = fakeProc();
  try {
    assert.equal(cpuTicksOf(42, f.proc), 281);
    assert.equal(cpuTicksOf(43, f.proc), undefined);
    const whole = join(f.out, 'whole'), cut = join(f.out, 'cut');
    writeFileSync(whole, '{"snapshot":{},"strings":["a","b"]}');
    writeFileSync(cut, '{"snapshot":{},"strings":["a","b');
    assert.equal(endsLikeSnapshot(whole), true);
    assert.equal(endsLikeSnapshot(cut), false);
  } finally {
    f.done();
  }
});
