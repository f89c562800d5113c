// Containers and Kubernetes pods, with Linux namespaces as the stand-in (docs/kubernetes.md): the target
// is pid 1 of its own PID namespace (`unshare --pid --mount --fork --mount-proc`), in its own mount
// namespace with a read-only bind mount of / as its root, running as uid 1000; leakhunt runs outside it,
// as root, in the shared network namespace (as the containers of a pod share one), and names the target
// by its pid as seen from here. The inspector port is random (--inspect-port=0): the network namespace
// is this machine's, shared with other tests. attach, snapshot, watch --heap, profile and report work;
// the plan and each snapshot's JSON say the snapshot was streamed; the target is left as found. On
// Node 20 and 24.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.js';
import { catchesSigusr1, processRunning, sleep, waitFor } from '../helpers/live-target.js';
import { requireNodeBinary, type NodeMajor } from '../helpers/node-binaries.js';

const FIXTURE = fileURLToPath(new URL('../../../fixtures/zoo/map-cache.cjs', import.meta.url));
const COUNTER = 'globalThis.__leakhuntRequests';
const POD_UID = 1000;

interface PodTarget {
  /** The target's pid as seen from here (it is 1 in its own namespace). */
  readonly pid: number;
  listeningPorts(): number[];
  stop(): Promise<void>;
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** TCP ports the process listens on, read from /proc here (independently of src/attach). */
function listening(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const ports: number[] = [];
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[3] === '0A' && inodes.has(f[9]!)) ports.push(parseInt(f[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}


async function startPodTarget(major: NodeMajor, dir: string): Promise<PodTarget> {
  // The node binary where uid 1000 can run it (the fetched ones live under root's home).
  const node = join(dir, 'node');
  copyFileSync(requireNodeBinary(major).path, node);
  chmodSync(dir, 0o755);
  chmodSync(node, 0o755);
  const root = join(dir, 'root');
  const script = [
    `mkdir -p ${root}`,
    `mount --rbind / ${root}`,
    `mount -o remount,bind,ro ${root}`,
    `cd ${root}`,
    `exec chroot ${root} setpriv --reuid ${POD_UID} --regid ${POD_UID} --clear-groups env LEAKHUNT_FIXTURE_RATE=100 LEAKHUNT_FIXTURE_ANNOUNCE=1 ${node} --inspect-port=0 ${FIXTURE}`,
  ].join(' && ');
  const unshare: ChildProcess = spawn('unshare', ['--pid', '--mount', '--fork', '--mount-proc', '--propagation', 'private', 'sh', '-c', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  unshare.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => unshare.once('exit', () => resolve()));
  let pid = 0;
  await waitFor(() => {
    pid = childrenOf(unshare.pid!)[0] ?? 0;
    return pid > 0 && stderr.includes('serving') && catchesSigusr1(pid);
  }, 20_000, `the pod target to serve (stderr: ${stderr})`);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  assert.match(status, new RegExp(`^NSpid:\\s+${pid}\\s+1$`, 'm'), 'the target is pid 1 in its own PID namespace');
  assert.match(status, new RegExp(`^Uid:\\s+${POD_UID}\\s`, 'm'), `the target runs as uid ${POD_UID}`);
  assert.notEqual(readlinkSync(`/proc/${pid}/ns/mnt`), readlinkSync('/proc/self/ns/mnt'), 'its own mount namespace');
  assert.equal(readlinkSync(`/proc/${pid}/ns/net`), readlinkSync('/proc/self/ns/net'), 'the network namespace is shared');
  return {
    pid,
    listeningPorts: () => listening(pid),
    stop: async () => {
      try {
        process.kill(pid, 'SIGKILL'); // pid 1 of the namespace: the namespace ends with it
      } catch {
        // gone already
      }
      await exited;
    },
  };
}

async function assertLeftAsFound(target: PodTarget, what: string): Promise<void> {
  await waitFor(() => target.listeningPorts().length === 0, 5000, `the inspector to close after ${what}`);
  await sleep(200);
  assert.ok(processRunning(target.pid), `the target still runs after ${what}`);
}

for (const major of [20, 24] as const) {
  test(`pod stand-in on Node ${major}: attach, snapshot, watch --heap, profile and report on pid 1 of another PID and mount namespace, uid ${POD_UID}, read-only root`, { timeout: 240_000 }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'leakhunt-pod-'));
    const target = await startPodTarget(major, dir);
    try {
      const out = join(dir, 'out');
      const attach = await runCli(['attach', String(target.pid), '--snapshots', '3', '--counter', COUNTER, '--every', '100', '--out', out, '--json', '--no-progress'], { timeoutMs: 120_000 });
      assert.equal(attach.code, 1, `a leak; stderr:\n${attach.stderr}`);
      const j = JSON.parse(attach.stdout) as { verdict: string; findings: { className: string }[]; snapshots: { method: string; streamedBecause?: string }[]; target: { pid: number } };
      assert.equal(j.verdict, 'leak');
      assert.equal(j.findings[0]!.className, 'CachedResponse');
      assert.equal(j.target.pid, target.pid, 'the result names the pid as seen from here');
      assert.match(attach.stderr.replace(/\s+/g, ' '), /snapshots streamed over the inspector \(pid \d+ is in another mount namespace/, 'the plan says how snapshots travel');
      for (const s of j.snapshots) {
        assert.equal(s.method, 'streamed');
        assert.match(s.streamedBecause ?? '', /another mount namespace/);
      }
      t.diagnostic(attach.stderr.split('\n').filter((l) => /plan for|work|streamed|inspector:/.test(l)).join(' | '));
      await assertLeftAsFound(target, 'attach');

      const file = join(dir, 'one.heapsnapshot');
      const snap = await runCli(['snapshot', String(target.pid), '-o', file], { timeoutMs: 60_000 });
      assert.equal(snap.code, 0, snap.stderr);
      assert.ok(existsSync(file));
      assert.match(snap.stderr.replace(/\s+/g, ' '), /snapshots streamed over the inspector/);
      await assertLeftAsFound(target, 'snapshot');

      const watch = await runCli(['watch', String(target.pid), '--heap', '--every', '300ms', '--for', '1500ms', '--json'], { timeoutMs: 60_000 });
      assert.equal(watch.code, 0, watch.stderr);
      const lines = watch.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; heapUsed?: number });
      assert.ok(lines.filter((l) => l.type === 'memory_sample' && typeof l.heapUsed === 'number').length >= 3, watch.stdout);
      await assertLeftAsFound(target, 'watch --heap');

      const profile = await runCli(['profile', String(target.pid), '--interval', '1s', '--samples', '3', '--json'], { timeoutMs: 60_000 });
      assert.ok(profile.code === 0 || profile.code === 1, profile.stderr);
      const p = JSON.parse(profile.stdout) as { profile: { taken: number }; target: { pid: number } };
      assert.equal(p.profile.taken, 3);
      assert.equal(p.target.pid, target.pid);
      await assertLeftAsFound(target, 'profile');

      const report = await runCli(['report', out, '--no-progress'], { timeoutMs: 60_000 });
      assert.equal(report.code, 0, report.stderr);
      assert.ok(existsSync(join(out, 'report.html')));
    } finally {
      await target.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
