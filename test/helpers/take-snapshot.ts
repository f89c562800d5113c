// Real heap snapshots of the fixture programs, taken at test time: spawn a fixture under the chosen Node,
// drive it through the snapshot protocol of fixtures/lib/serve.cjs (IPC messages; see fixtures/README.md)
// and get back the path of a `.heapsnapshot` written with `v8.writeHeapSnapshot()` (file 0600, in a 0700
// temp dir the caller removes with `removeSnapshots`). The child never outlives the call.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { nodeBinaryInfo, type NodeMajor } from './node-binaries.js';

export interface TakeSnapshotOptions {
  /** Node major to run the fixture with; default the running node. */
  readonly node?: NodeMajor;
  /** Arguments for the fixture program. */
  readonly args?: readonly string[];
  /** Flags for node itself, e.g. `['--no-async-context-frame']`. */
  readonly nodeArgs?: readonly string[];
  /** Added to a minimal environment (PATH, HOME, LANG); NODE_OPTIONS is not inherited. */
  readonly env?: NodeJS.ProcessEnv;
  /** Wall-clock wait after the fixture is ready, before the first snapshot is asked for. */
  readonly warmupMs?: number;
  /** Requests the fixture serves before the (first) snapshot. Default 100. */
  readonly requests?: number;
  /** Directory for the snapshot files; default a fresh private temp dir. */
  readonly dir?: string;
  /** Whole-run limit; the child is killed and the promise rejects after it. Default 60 s. */
  readonly timeoutMs?: number;
}

export interface SnapshotSeriesOptions extends TakeSnapshotOptions {
  /** Requests served between consecutive snapshots. Default: `requests` (default 100). */
  readonly requestsBetween?: number;
}

export interface SnapshotWritten {
  readonly path: string;
  /** Requests the fixture had served when it wrote the snapshot. */
  readonly requests: number;
  readonly memoryUsage: NodeJS.MemoryUsage;
}

export interface FixtureProcess {
  readonly pid: number;
  /** `process.version` of the child. */
  readonly version: string;
  readonly child: ChildProcess;
  /** Serves requests until `afterRequests` in total have been served, then writes the heap to `path`. */
  snapshot(path: string, afterRequests: number): Promise<SnapshotWritten>;
  /** Asks the child to exit; kills it if it has not within a second. Safe to call twice. */
  stop(): Promise<void>;
  /** What the child wrote to stderr so far (for failure messages). */
  stderr(): string;
}

const DEFAULT_REQUESTS = 100;
const DEFAULT_TIMEOUT_MS = 60_000;

/** One snapshot of `fixture` (a file name under fixtures/, with or without `.cjs`, or a path). */
export async function takeSnapshot(fixture: string, options: TakeSnapshotOptions = {}): Promise<string> {
  const [path] = await takeSnapshotSeries(fixture, 1, options);
  return path!;
}

/**
 * `count` snapshots from ONE process: after `requests`, `requests + requestsBetween`, … requests, so V8
 * ids line up across the series (as `leakhunt diff` needs).
 */
export async function takeSnapshotSeries(
  fixture: string,
  count: number,
  options: SnapshotSeriesOptions = {},
): Promise<string[]> {
  const written = await takeSnapshotSeriesDetailed(fixture, count, options);
  return written.map((w) => w.path);
}

export async function takeSnapshotSeriesDetailed(
  fixture: string,
  count: number,
  options: SnapshotSeriesOptions = {},
): Promise<SnapshotWritten[]> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const first = options.requests ?? DEFAULT_REQUESTS;
  const between = options.requestsBetween ?? first;
  const dir = options.dir ?? makePrivateDir();
  const fixturePath = resolveFixture(fixture);
  const stem = basename(fixturePath, extname(fixturePath));
  const proc = await startFixture(fixturePath, options);
  const tag = `${stem}-node${proc.version.replace(/^v/, '')}-${proc.pid}`;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${stem}: no snapshot within ${timeoutMs} ms; stderr:\n${proc.stderr()}`));
    }, timeoutMs);
  });
  timedOut.catch(() => {}); // observed by the races below; cleared on the way out
  try {
    if (options.warmupMs) await Promise.race([delay(options.warmupMs), timedOut]);
    const out: SnapshotWritten[] = [];
    for (let i = 0; i < count; i++) {
      const path = join(dir, `${tag}-${i + 1}.heapsnapshot`);
      out.push(await Promise.race([proc.snapshot(path, first + i * between), timedOut]));
    }
    return out;
  } finally {
    clearTimeout(timer);
    await proc.stop();
  }
}

/** Spawns a fixture in controlled mode and waits for its `ready` message. */
export async function startFixture(fixture: string, options: TakeSnapshotOptions = {}): Promise<FixtureProcess> {
  const fixturePath = resolveFixture(fixture);
  const major = options.node;
  let execPath = process.execPath;
  if (major !== undefined) {
    const info = nodeBinaryInfo(major);
    if (info.path === undefined) throw new Error(`no Node ${major} binary: ${info.reason}`);
    execPath = info.path;
  }
  const child = spawn(execPath, [...(options.nodeArgs ?? []), fixturePath, ...(options.args ?? [])], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'json',
    env: childEnv(options.env),
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-8192);
  });
  child.stdout!.resume();
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(`${basename(fixturePath)} exited (${signal ?? code})`));
    child.once('error', (err) => resolve(`${basename(fixturePath)} could not start: ${err.message}`));
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      if (child.connected) child.send({ type: 'exit' }, () => {});
      const killer = setTimeout(() => child.kill('SIGKILL'), 1000);
      await exited;
      clearTimeout(killer);
    }
  };
  const failOnExit = exited.then((why) => {
    throw new Error(`${why}; stderr:\n${stderr}`);
  });
  failOnExit.catch(() => {}); // observed by the races below

  try {
    const ready = await Promise.race([nextMessage(child, 'ready'), failOnExit]);
    return {
      pid: child.pid!,
      version: String(ready.version),
      child,
      stop,
      stderr: () => stderr,
      async snapshot(path: string, afterRequests: number): Promise<SnapshotWritten> {
        const reply = nextMessage(child, 'snapshot-written');
        child.send({ type: 'snapshot', path, afterRequests });
        const msg = await Promise.race([reply, failOnExit]);
        return {
          path: String(msg.path),
          requests: Number(msg.requests),
          memoryUsage: msg.memoryUsage as NodeJS.MemoryUsage,
        };
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * A stored snapshot from fixtures/snapshots/ (e.g. `chrome-blank.heapsnapshot.gz`), unpacked when gzipped,
 * as a file in a private temp dir (remove it with `removeSnapshots`).
 */
export function storedSnapshot(name: string): string {
  const source = join(repoRoot(), 'fixtures', 'snapshots', name);
  const target = join(makePrivateDir(), basename(name).replace(/\.gz$/, ''));
  const bytes = readFileSync(source);
  writeFileSync(target, name.endsWith('.gz') ? gunzipSync(bytes) : bytes, { mode: 0o600 });
  return target;
}

/** Removes snapshot files and the private directories `takeSnapshot*` made for them. */
export function removeSnapshots(paths: Iterable<string>): void {
  const dirs = new Set<string>();
  for (const p of paths) {
    rmSync(p, { force: true });
    dirs.add(dirname(p));
  }
  for (const d of dirs) {
    if (basename(d).startsWith('leakhunt-snap-')) rmSync(d, { recursive: true, force: true });
  }
}

/** The repository root: the nearest ancestor of this file that has `fixtures/lib/serve.cjs`. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'fixtures', 'lib', 'serve.cjs'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the repository root (fixtures/lib/serve.cjs) above the test helpers');
    dir = up;
  }
}

export function resolveFixture(fixture: string): string {
  if (isAbsolute(fixture)) return fixture;
  const withExt = extname(fixture) === '' ? `${fixture}.cjs` : fixture;
  const path = join(repoRoot(), 'fixtures', withExt);
  if (!existsSync(path)) throw new Error(`no fixture ${path}`);
  return path;
}

function makePrivateDir(): string {
  // mkdtemp creates the directory with mode 0700.
  return mkdtempSync(join(tmpdir(), 'leakhunt-snap-'));
}

function childEnv(extra: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ['PATH', 'HOME', 'LANG', 'TMPDIR', 'TZ']) {
    const v = process.env[key];
    if (v !== undefined) env[key] = v;
  }
  return { ...env, ...extra };
}

function nextMessage(child: ChildProcess, type: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (msg: unknown) => {
      if (msg !== null && typeof msg === 'object' && (msg as { type?: unknown }).type === type) {
        child.off('message', onMessage);
        resolve(msg as Record<string, unknown>);
      }
    };
    child.on('message', onMessage);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
