// The /proc readers behind the preflight, on hand-written /proc text and a fake /proc + cgroup tree:
// status fields and signal masks, the SIGUSR1 decision, LISTEN sockets (IPv4 and IPv6, host byte
// order), inspector flags from argv and NODE_OPTIONS, cgroup v1/v2 limits up the hierarchy, estimates.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseListenTable } from '../../src/attach/listening-sockets.js';
import { parseCgroupFile, readCgroupLimit, readMemoryRoom } from '../../src/attach/memory-limits.js';
import { parseHostPort, parseInspectorFlags } from '../../src/attach/node-flags.js';
import { describeSignal } from '../../src/attach/preflight.js';
import { looksLikeNode, parseProcStatus } from '../../src/attach/proc-status.js';
import { checkHeadroom, estimateSnapshot } from '../../src/attach/snapshot-cost.js';

const STATUS = `Name:\tMainThread
State:\tS (sleeping)
Uid:\t1000\t1000\t1000\t1000
NSpid:\t4242\t7
VmHWM:\t  60000 kB
VmRSS:\t  51200 kB
SigBlk:\t0000000000000000
SigIgn:\t0000000001001000
SigCgt:\t0000000100004602
`;

test('parseProcStatus reads uids, RSS in bytes, masks and nested pids', () => {
  const s = parseProcStatus(STATUS);
  assert.equal(s.name, 'MainThread');
  assert.deepEqual(s.uids, [1000, 1000, 1000, 1000]);
  assert.equal(s.rssBytes, 51200 * 1024);
  assert.equal(s.peakRssBytes, 60000 * 1024);
  assert.equal(s.sigCgt, 0x100004602n);
  assert.deepEqual(s.nsPids, [4242, 7]);
  assert.equal(s.exited, false);
  assert.equal(parseProcStatus('State:\tZ (zombie)\n').exited, true);
});

test('SIGUSR1: sent only when caught; the refusal says why otherwise', () => {
  const flags = parseInspectorFlags(['node', 'app.js']);
  const caught = parseProcStatus(STATUS);
  assert.equal(describeSignal(caught, [caught], flags).refusal, undefined);
  const uncaught = parseProcStatus(STATUS.replace('0000000100004602', '0000000000004002'));
  assert.match(describeSignal(uncaught, [uncaught], flags).refusal!, /not caught.*kills the process/);
  const blocked = parseProcStatus(STATUS.replace('0000000100004602', '0000000000004002').replace('SigBlk:\t0000000000000000', 'SigBlk:\t0000000000000200'));
  assert.match(describeSignal(blocked, [blocked, blocked], flags).refusal!, /every thread blocks SIGUSR1/);
  assert.match(describeSignal(blocked, [blocked], parseInspectorFlags(['node', '--disable-sigusr1', 'a.js'])).refusal!, /--disable-sigusr1/);
});

test('parseListenTable: LISTEN rows only, IPv4 and IPv6 addresses in host byte order', () => {
  const tcp = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:240D 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5151 1 0 100 0 0 10 0
   1: 0100007F:240D 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000     0        0 5152 1 0 20 4 30 10 -1
   2: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5153 1 0 100 0 0 10 0`;
  assert.deepEqual(parseListenTable(tcp, 4, true), [
    { address: '127.0.0.1', port: 9229, inode: '5151', family: 4 },
    { address: '0.0.0.0', port: 8080, inode: '5153', family: 4 },
  ]);
  const tcp6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:240D 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 6161 1 0 100 0 0 10 0
   1: 0000000000000000FFFF00000100007F:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 6162 1 0 100 0 0 10 0
   2: 00000000000000000000000000000000:0BB8 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 6163 1 0 100 0 0 10 0`;
  assert.deepEqual(parseListenTable(tcp6, 6, true).map((s) => `${s.address}:${s.port}`), ['::1:9229', '::ffff:127.0.0.1:8080', ':::3000']);
});

test('inspector flags: argv before the script and NODE_OPTIONS; app arguments do not count', () => {
  assert.deepEqual(parseInspectorFlags(['node', 'server.js', '--inspect=9999']), { inspectAtStart: false, host: '127.0.0.1', port: 9229, disableSigusr1: false });
  assert.deepEqual(parseInspectorFlags(['node', '--inspect=0.0.0.0:9333', 'server.js']), { inspectAtStart: true, host: '0.0.0.0', port: 9333, disableSigusr1: false });
  assert.equal(parseInspectorFlags(['node', '--inspect-port', '0', '-r', 'x', 'app.js']).port, 0);
  assert.equal(parseInspectorFlags(['node', 'app.js'], '--inspect-port=9300 --max-old-space-size=512').port, 9300);
  assert.equal(parseInspectorFlags(['node', '--inspect-brk', 'app.js']).inspectAtStart, true);
  assert.equal(parseInspectorFlags(['node', '-e', 'x', '--inspect']).inspectAtStart, false, 'after -e comes code, not options');
  assert.equal(parseInspectorFlags(['node', 'app.js'], '--disable-sigusr1').disableSigusr1, true);
  assert.deepEqual(parseHostPort('[::1]:9230'), { host: '::1', port: 9230 });
  assert.equal(parseHostPort('nope'), undefined);
});

test('looksLikeNode goes by the executable, not the thread name', () => {
  assert.ok(looksLikeNode('/usr/bin/node', ['node']));
  assert.ok(looksLikeNode('/opt/node-v22/bin/node22', ['x']));
  assert.ok(looksLikeNode(undefined, ['/usr/local/bin/node', 'app.js']));
  assert.ok(!looksLikeNode('/usr/bin/sleep', ['sleep', '60']));
  assert.ok(!looksLikeNode('/usr/bin/python3', ['node']), 'argv[0] does not count when exe is known');
});

function fakeTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'leakhunt-fakeproc-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test('cgroup v2: the tightest limit on the path binds; MemAvailable caps the headroom', () => {
  const root = fakeTree({
    'proc/123/cgroup': '0::/app/worker\n',
    'proc/meminfo': 'MemTotal:       8000000 kB\nMemAvailable:   4000000 kB\n',
    'sys/cgroup.controllers': 'memory',
    'sys/memory.max': 'max\n',
    'sys/memory.current': '9000000000\n',
    'sys/app/memory.max': '1000000000\n',
    'sys/app/memory.current': '400000000\n',
    'sys/app/worker/memory.max': 'max\n',
    'sys/app/worker/memory.current': '300000000\n',
  });
  try {
    assert.deepEqual(parseCgroupFile('0::/app/worker\n'), { version: 2, path: '/app/worker' });
    const limit = readCgroupLimit(123, join(root, 'proc'), join(root, 'sys'));
    assert.equal(limit?.path, join(root, 'sys', 'app'));
    assert.equal(limit?.limitBytes, 1e9);
    assert.equal(limit?.usageBytes, 4e8);
    const room = readMemoryRoom(123, join(root, 'proc'), join(root, 'sys'));
    assert.equal(room.headroomBytes, 6e8, 'limit − usage, below MemAvailable');
    assert.equal(room.limitBytes, 1e9);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('cgroup v1: memory.limit_in_bytes; "no limit" falls back to MemAvailable', () => {
  const root = fakeTree({
    'proc/7/cgroup': '5:cpu,cpuacct:/x\n4:memory:/docker/abc\n0::/\n',
    'proc/8/cgroup': '4:memory:/free\n',
    'proc/meminfo': 'MemTotal:       8000000 kB\nMemAvailable:   4000000 kB\n',
    'sys/memory/docker/abc/memory.limit_in_bytes': '2147483648\n',
    'sys/memory/docker/abc/memory.usage_in_bytes': '1073741824\n',
    'sys/memory/free/memory.limit_in_bytes': '9223372036854771712\n',
    'sys/memory/free/memory.usage_in_bytes': '1000\n',
  });
  try {
    const room = readMemoryRoom(7, join(root, 'proc'), join(root, 'sys'));
    assert.equal(room.cgroup?.version, 1);
    assert.equal(room.headroomBytes, 1073741824);
    const free = readMemoryRoom(8, join(root, 'proc'), join(root, 'sys'));
    assert.equal(free.cgroup, undefined);
    assert.equal(free.headroomBytes, 4000000 * 1024);
    assert.equal(free.limitBytes, 8000000 * 1024, 'watch projects towards the machine when there is no cgroup limit');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('snapshot estimates scale with the heap; the headroom check compares with the peak cost', () => {
  const e = estimateSnapshot(40_000_000);
  assert.equal(e.heapNodes, 1_000_000);
  assert.equal(e.pauseMs, 3000);
  assert.deepEqual(e.pauseRangeMs, [1000, 7000]);
  assert.equal(e.nativeBytes, 520_000_000);
  assert.equal(e.keptBytes, 400_000_000, 'what stays resident after the first snapshot is less than the peak');
  assert.ok(estimateSnapshot(1000).nativeBytes >= 32 * 1024 * 1024, 'a floor for tiny heaps');
  assert.equal(checkHeadroom(600_000_000, e).ok, true);
  assert.equal(checkHeadroom(400_000_000, e).ok, false);
  assert.equal(checkHeadroom(undefined, e).ok, true, 'unknown room does not refuse');
});
