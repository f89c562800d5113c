// Running target processes for the attach / snapshot / watch tests: a fixture in its free-running mode
// (spawned WITHOUT an IPC channel, so fixtures/lib/serve.cjs serves LEAKHUNT_FIXTURE_RATE requests a
// second until killed), an inline program, or any command (`sleep`). What the tests check about the
// target — alive, which ports it listens on — is read here from /proc independently of src/attach, so a
// bug there cannot hide itself.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { resolveFixture } from './take-snapshot.js';

export interface LiveTarget {
  readonly pid: number;
  readonly child: ChildProcess;
  /** What the target wrote to stderr so far (Node's "Debugger listening/attached/ending" lines land here). */
  stderr(): string;
  /** Running: not exited, not a zombie. */
  alive(): boolean;
  /** TCP ports the process itself listens on (its socket inodes ∩ LISTEN entries of its namespace). */
  listeningPorts(): number[];
  /** SIGKILL, then wait for the exit. Safe to call twice. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** A fixture under fixtures/ (standalone mode), or `code` for `node -e`, or `command` for anything else. */
  readonly fixture?: string;
  readonly code?: string;
  readonly command?: readonly string[];
  /** The node binary for `fixture`/`code` (default: the running one; see node-binaries.ts for other majors). */
  readonly node?: string;
  readonly nodeArgs?: readonly string[];
  /** Requests a second for fixtures (LEAKHUNT_FIXTURE_RATE). */
  readonly rate?: number;
  /** More environment for the target (e.g. DURABILITY, LEAKHUNT_FIXTURE_LOAD_MS); PATH and the rate are always set. */
  readonly env?: Readonly<Record<string, string>>;
  /** Wait until the process listens on a port (started with --inspect). */
  readonly waitForListen?: boolean;
  /**
   * A fixture that serves (fixtures/lib/serve.cjs): wait, up to a minute, for its one stderr line saying
   * it serves (LEAKHUNT_FIXTURE_ANNOUNCE), from when `globalThis.__leakhuntRequests` is a number. Story A
   * builds its graph and gRPC server first: on a loaded machine that took longer than any fixed warm-up,
   * and `--counter` read undefined (exit 2).
   */
  readonly serving?: boolean;
  /** Extra wall time after it is ready (to let a fixture warm up). */
  readonly warmupMs?: number;
}

const SIGUSR1_BIT = 0x200n;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

function statusField(pid: number, field: string): string | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
    return line?.slice(field.length + 1).trim();
  } catch {
    return undefined;
  }
}

export function processRunning(pid: number): boolean {
  const state = statusField(pid, 'State');
  return state !== undefined && !/^[ZX]/.test(state);
}

/** Node installs its SIGUSR1 handler a little after start; before that the signal would only be pending. */
export function catchesSigusr1(pid: number): boolean {
  const cgt = statusField(pid, 'SigCgt');
  return cgt !== undefined && (BigInt(`0x${cgt}`) & SIGUSR1_BIT) !== 0n;
}

export function listeningPortsOf(pid: number): number[] {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]!);
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    return [];
  }
  const ports: number[] = [];
  for (const table of ['tcp', 'tcp6']) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === '0A' && inodes.has(cols[9]!)) ports.push(parseInt(cols[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

export async function startTarget(options: StartOptions): Promise<LiveTarget> {
  const args = options.command
    ? options.command.slice(1)
    : [...(options.nodeArgs ?? []), ...(options.code !== undefined ? ['-e', options.code] : [resolveFixture(options.fixture!)])];
  const command = options.command ? options.command[0]! : options.node ?? process.execPath;
  const child = spawn(command, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    // A snapshot freezes the agent's gRPC server with it: a call in flight across a pause over its 5 s
    // deadline failed and ended story A's agent on a loaded machine (fixtures/agents/lib/search-service.cjs).
    env: { LEAKHUNT_SEARCH_DEADLINE_MS: '120000', ...(options.serving ? { LEAKHUNT_FIXTURE_ANNOUNCE: '1' } : {}), ...options.env, PATH: process.env.PATH ?? '', LEAKHUNT_FIXTURE_RATE: String(options.rate ?? 50) },
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-16384)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pid = child.pid!;
  const target: LiveTarget = {
    pid,
    child,
    stderr: () => stderr,
    alive: () => child.exitCode === null && child.signalCode === null && processRunning(pid),
    listeningPorts: () => listeningPortsOf(pid),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  try {
    if (!options.command) await waitFor(() => catchesSigusr1(pid) || !target.alive(), 10_000, `pid ${pid} to install its SIGUSR1 handler`);
    if (options.serving) await waitFor(() => /^leakhunt-fixture: serving/m.test(stderr) || !target.alive(), 60_000, `pid ${pid} to serve`);
    if (options.waitForListen) await waitFor(() => target.listeningPorts().length > 0 || !target.alive(), 10_000, `pid ${pid} to listen`);
    if (!target.alive()) throw new Error(`the target exited at start: ${stderr}`);
    if (options.warmupMs) await sleep(options.warmupMs);
  } catch (err) {
    await target.stop();
    throw err;
  }
  return target;
}
