// When the CLI starts itself again under huge pages: only for commands that read big snapshot files
// (or capture them), never when told not to or when already relaunched.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execveOf, RELAUNCH_MIN_BYTES, shouldRelaunch } from '../../src/cli/relaunch.js';

test('relaunch only for big snapshot files or a capture, never when disabled or already done', { skip: process.platform !== 'linux' ? 'huge pages through GLIBC_TUNABLES are Linux only' : false }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-relaunch-'));
  try {
    const small = join(dir, 'small.heapsnapshot');
    const big = join(dir, 'big.heapsnapshot');
    writeFileSync(small, '{}');
    writeFileSync(big, '');
    truncateSync(big, RELAUNCH_MIN_BYTES); // sparse: no disk used
    const argv = (...args: string[]) => ['node', 'leakhunt', ...args];
    const env = {};
    assert.equal(shouldRelaunch(argv('analyze', small), env), false, 'a small file: one process start is cheaper');
    assert.equal(shouldRelaunch(argv('analyze', big, '--json'), env), true);
    assert.equal(shouldRelaunch(argv('diff', small, big), env), true, 'the files together count');
    assert.equal(shouldRelaunch(argv('retainers', '--class', 'Foo', big), env), true);
    assert.equal(shouldRelaunch(argv('analyze', join(dir, 'missing')), env), false, 'a missing file is the command\'s error to report');
    assert.equal(shouldRelaunch(argv('attach', '4242'), env), execveOf() !== undefined, 'attach parses what it captures, in one process only');
    assert.equal(shouldRelaunch(argv('attach', '4242'), { LEAKHUNT_RELAUNCH: '1' }), true, 'two processes when asked for');
    assert.equal(shouldRelaunch(argv('snapshot', '4242'), env), false);
    assert.equal(shouldRelaunch(argv('--help'), env), false);
    assert.equal(shouldRelaunch(argv('analyze', big), { LEAKHUNT_NO_RELAUNCH: '1' }), false);
    assert.equal(shouldRelaunch(argv('analyze', big), { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' }), false, 'already relaunched');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
