// Which process a snapshot came from: the start time read from /proc (src/attach/process-start.ts),
// what diff reads beside a snapshot or in its name, and the decision on a series
// (src/analysis/diff/snapshot-origin.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseStartTicks, readProcessStart } from '../../src/attach/process-start.js';
import {
  compareOrigins, decideProcess, originFromFileName, originFromMetadata, readSnapshotOrigin, separateSessions, type SnapshotOrigin,
} from '../../src/analysis/diff/snapshot-origin.js';

const BOOT = '0f3c8a52-7d0e-4a4b-9a61-2d5c3b1e9f00';

function statLine(comm: string, startTicks: number): string {
  // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime
  // priority nice threads itrealvalue starttime vsize …
  return `4242 (${comm}) S 1 4242 4242 0 -1 4194304 100 0 0 0 5 3 0 0 20 0 7 0 ${startTicks} 1189441536 20820\n`;
}

test('parseStartTicks reads field 22, counting after the last parenthesis of the command name', () => {
  assert.equal(parseStartTicks(statLine('node', 47530)), 47530);
  assert.equal(parseStartTicks(statLine('my (odd) name) S 9 9', 123456)), 123456, 'a name with spaces and parentheses');
  assert.equal(parseStartTicks('4242 (node) S 1 2 3'), undefined, 'too short');
  assert.equal(parseStartTicks('garbage'), undefined);
});

test('readProcessStart: start ticks and boot id from a /proc tree; undefined when the pid is gone', () => {
  const root = mkdtempSync(join(tmpdir(), 'leakhunt-proc-'));
  try {
    mkdirSync(join(root, '4242'));
    mkdirSync(join(root, 'sys/kernel/random'), { recursive: true });
    writeFileSync(join(root, '4242/stat'), statLine('MainThread', 987654));
    writeFileSync(join(root, 'sys/kernel/random/boot_id'), `${BOOT}\n`);
    assert.deepEqual(readProcessStart(4242, root), { startTicks: 987654, bootId: BOOT });
    assert.equal(readProcessStart(4243, root), undefined);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('readProcessStart on this very process agrees with /proc/self/stat', () => {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const expected = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  const start = readProcessStart(process.pid);
  assert.ok(start);
  assert.equal(start.startTicks, expected);
  assert.match(start.bootId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
});

test('originFromMetadata takes what it can check and nothing else', () => {
  const full = originFromMetadata(JSON.stringify({ pid: 7, nodeVersion: 'v22.1.0', startTicks: 100, bootId: BOOT, session: 's1', takenAt: '2025-01-02T03:04:05.000Z', index: 1 }));
  assert.deepEqual(full, { source: 'metadata', pid: 7, startTicks: 100, bootId: BOOT, session: 's1', nodeVersion: 'v22.1.0', takenAt: '2025-01-02T03:04:05.000Z' });
  // Older leakhunt JSON: the pid only.
  assert.deepEqual(originFromMetadata(JSON.stringify({ pid: 7, nodeVersion: 'v20.0.0' })), { source: 'metadata', pid: 7, nodeVersion: 'v20.0.0' });
  // A start without its boot id says nothing: ticks count from a boot.
  assert.equal(originFromMetadata(JSON.stringify({ pid: 7, startTicks: 100 }))?.startTicks, undefined);
  assert.equal(originFromMetadata(JSON.stringify({ pid: '7' })), undefined);
  assert.equal(originFromMetadata(JSON.stringify({ file: 'x' })), undefined);
  assert.equal(originFromMetadata('{not json'), undefined);
  assert.equal(originFromMetadata('null'), undefined);
});

test('originFromFileName reads the names Node gives --heapsnapshot-signal and writeHeapSnapshot files', () => {
  assert.deepEqual(originFromFileName('/tmp/x/Heap.20250102.030405.4242.0.003.heapsnapshot'), { source: 'file-name', pid: 4242, takenAt: '20250102030405', sequence: 3 });
  assert.equal(originFromFileName('/tmp/x/before.heapsnapshot'), undefined);
  assert.equal(originFromFileName('/tmp/x/Heap.2025.030405.4242.0.003.heapsnapshot'), undefined);
});

test('readSnapshotOrigin: the JSON beside the file first, else its name, else nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-origin-'));
  try {
    const named = join(dir, 'Heap.20250102.030405.4242.0.001.heapsnapshot');
    assert.equal(readSnapshotOrigin(named)?.source, 'file-name');
    writeFileSync(named.replace(/\.heapsnapshot$/, '.json'), JSON.stringify({ pid: 99, startTicks: 5, bootId: BOOT }));
    assert.deepEqual(readSnapshotOrigin(named), { source: 'metadata', pid: 99, startTicks: 5, bootId: BOOT });
    assert.equal(readSnapshotOrigin(join(dir, 'plain.heapsnapshot')), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const meta = (pid: number, startTicks?: number, bootId = BOOT, session?: string): SnapshotOrigin => ({
  source: 'metadata', pid, ...(startTicks === undefined ? {} : { startTicks, bootId }), ...(session ? { session } : {}),
});
const named = (pid: number, time: string, sequence: number): SnapshotOrigin => ({ source: 'file-name', pid, takenAt: time, sequence });

test('compareOrigins: one process by (pid, start, boot), by pid, by Node names; different when any of them differs', () => {
  assert.deepEqual(compareOrigins([meta(7, 100), meta(7, 100), meta(7, 100)]), { same: true, by: 'metadata' });
  assert.deepEqual(compareOrigins([meta(7, 100), meta(7, 101)]), { same: false, by: 'metadata' }, 'a reused pid: another start');
  assert.deepEqual(compareOrigins([meta(7, 100), meta(7, 100, 'another-boot')]), { same: false, by: 'metadata' }, 'after a reboot');
  assert.deepEqual(compareOrigins([meta(7, 100), meta(8, 100)]), { same: false, by: 'metadata' });
  assert.deepEqual(compareOrigins([meta(7), meta(7)]), { same: true, by: 'metadata' }, 'older JSON: the pid alone');
  assert.deepEqual(compareOrigins([{ ...meta(7), nodeVersion: 'v20.1.0' }, { ...meta(7), nodeVersion: 'v22.1.0' }]), { same: false, by: 'metadata' });
  assert.deepEqual(compareOrigins([named(1, '20250102030405', 1), named(1, '20250102040405', 2)]), { same: true, by: 'file-names' });
  assert.deepEqual(compareOrigins([named(1, '20250102030405', 3), named(1, '20250102040405', 1)]), { same: false, by: 'file-names' }, 'pid 1 again, counting from 1 again: a restarted container');
  assert.deepEqual(compareOrigins([named(1, '20250102030405', 1), named(2, '20250102040405', 2)]), { same: false, by: 'file-names' });
  assert.deepEqual(compareOrigins([meta(7, 100), named(7, '20250102040405', 2)]), { same: true, by: 'file-names' }, 'mixed: the pid alone');
  assert.equal(compareOrigins([meta(7, 100), null]), undefined, 'a file without any: cannot tell');
  assert.equal(compareOrigins([meta(7, 100)]), undefined);
});

test('decideProcess: ids that line up decide unless the origins show two processes; otherwise the origins; otherwise none', () => {
  assert.deepEqual(pick(decideProcess([null, null], true)), { same: true, by: 'ids' });
  assert.deepEqual(pick(decideProcess([meta(7, 100), meta(7, 100)], true)), { same: true, by: 'ids' });
  assert.deepEqual(pick(decideProcess([meta(7, 100), meta(7, 100)], false)), { same: true, by: 'metadata' }, 'one process across sessions');
  assert.deepEqual(pick(decideProcess([meta(7, 100), meta(7, 200)], true)), { same: false, by: 'metadata' }, 'two runs numbering their objects alike');
  assert.deepEqual(pick(decideProcess([named(1, '20250102030405', 1), named(1, '20250102040405', 2)], false)), { same: true, by: 'file-names' });
  assert.deepEqual(pick(decideProcess([null, null], false)), { same: false, by: 'none' });
  assert.deepEqual(pick(decideProcess([meta(7, 100), null], false)), { same: false, by: 'none' });
  const d = decideProcess([meta(7, 100), meta(7, 100)], false);
  assert.equal(d.idsLineUp, false);
  assert.equal(d.origins.length, 2);
});

test('separateSessions: known before reading that the ids cannot line up', () => {
  assert.equal(separateSessions([meta(7, 100, BOOT, 'a'), meta(7, 100, BOOT, 'b')]), true);
  assert.equal(separateSessions([meta(7, 100, BOOT, 'a'), meta(7, 100, BOOT, 'a')]), false, 'one attach session');
  assert.equal(separateSessions([meta(7, 100, BOOT, 'a'), meta(7, 100)]), false, 'a session unknown');
  assert.equal(separateSessions([meta(7, 100, BOOT, 'a'), meta(8, 100, BOOT, 'b')]), false, 'two processes');
});

function pick(d: { same: boolean; by: string }): { same: boolean; by: string } {
  return { same: d.same, by: d.by };
}
