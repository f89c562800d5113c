// Running under transparent huge pages. Fresh memory is the main cost of reading a big snapshot on
// machines that fault pages in slowly (measured on a 2-core VM: 512 MiB touched in 4.4 s with 4 KiB
// pages, 0.4–3 s with huge pages), and glibc only uses huge pages for malloc when
// GLIBC_TUNABLES=glibc.malloc.hugetlb=1 is set before the process starts. So on Linux the CLI starts
// itself once more with the tunable, forwards signals to the child and exits with its code.
// The child also gets a 1 MiB young generation (--max-semi-space-size=1): what the engine allocates on
// the JS heap is short strings and small objects, and V8's default 16 MiB semi-spaces only add RSS
// (measured on a 306 MB snapshot: peak RSS −31 MiB, no slower). And one malloc arena
// (glibc.malloc.arena_max=1): the engine's second threads (parallel-edges.ts, parallel-dominators.ts)
// would otherwise each get an arena whose freed memory the main thread cannot reuse (306 MB snapshot:
// peak RSS 424-432 MiB instead of 434-441, no slower). And a fixed mmap threshold
// (glibc.malloc.mmap_threshold=131072, glibc's own starting value): glibc otherwise raises the threshold
// to the size of each mmapped block freed (up to 32 MiB), after which blocks of that size come from the
// arena instead and what is freed there stays resident; with it fixed, every block from 128 KiB up is
// mapped and unmapped on its own (8 alternating runs each: 306 MB snapshot peak RSS 409-418 MiB instead
// of 415-432; 1.1 GB 1315 MiB instead of 1400; no slower).
// And `gc` exposed (--expose-gc): `diff` collects a snapshot's graph as soon as it has reduced it, and
// its per-snapshot id tables right before its peak (the newest graph's signatures and paths), rather
// than whenever V8 next would (during the next parse, or after the peak).
// Only commands that read snapshot files relaunch, and only when those files are big enough for page
// faults to matter: a second Node start costs ~0.1–0.3 s, more than huge pages save on a small file.
// LEAKHUNT_NO_RELAUNCH=1 turns this off; LEAKHUNT_RELAUNCH=1 relaunches `attach` even where it takes two
// processes.
// `attach` relaunches only where it can replace itself (execve, below): its capture must stay small
// (issue 13: ≤ 100 MB of leakhunt RSS counting every process), and a parent Node waiting beside the
// child is ~40 MiB of it (measured: 109 MiB for both on Node 20, one snapshot streaming). On older Node
// the capture and the analysis after it run in the one process, without huge pages.
// How (issue 13, defect 3: a `kill -9` of the leakhunt pid must stop a capture):
// - Where Node has `process.execve` (22.15+, 23.11+) the process replaces itself: one process, one pid,
//   so every signal (SIGKILL too) reaches the process that does the work, and a terminal's Ctrl-C
//   reaches it once, as for any command.
// - On older Node a child is spawned in its own process group (so Ctrl-C reaches it once, forwarded by
//   the parent, not twice) with a pipe on fd 3 that only the parent holds open. A child cannot ask the
//   kernel for a signal when its parent dies from Node (no PR_SET_PDEATHSIG), so it watches that pipe:
//   end of file means the parent is gone, whatever killed it, and the child sends itself SIGHUP (the
//   parent's terminal or owner is gone: the commands' hang-up path stops the work, detaches, exits).

import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { Socket } from 'node:net';

const TUNABLE = 'glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1:glibc.malloc.mmap_threshold=131072';
const CHILD_V8_FLAGS = ['--max-semi-space-size=1', '--expose-gc'];
/** Commands that parse snapshots: files named on the command line (analyze, diff, retainers) or captured (attach). */
const READS_FILES = new Set(['analyze', 'diff', 'retainers']);
const CAPTURES = new Set(['attach']);
/** Below this many bytes of snapshot files, a second process start costs more than huge pages save. */
export const RELAUNCH_MIN_BYTES = 128 * 1024 * 1024;

function fileBytes(args: readonly string[]): number {
  let total = 0;
  for (const a of args) {
    if (a.startsWith('-')) continue;
    try {
      const st = statSync(a);
      if (st.isFile()) total += st.size;
    } catch { /* not a file: an option value or a missing file (reported by the command itself) */ }
  }
  return total;
}

/** `argv` as process.argv: [node, script, command, ...]. */
export function shouldRelaunch(argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env): boolean {
  if (process.platform !== 'linux' || env['LEAKHUNT_NO_RELAUNCH'] === '1') return false;
  if ((env['GLIBC_TUNABLES'] ?? '').includes('glibc.malloc.hugetlb')) return false;
  const command = argv[2] ?? '';
  if (CAPTURES.has(command)) return execveOf() !== undefined || env['LEAKHUNT_RELAUNCH'] === '1';
  return READS_FILES.has(command) && fileBytes(argv.slice(3)) >= RELAUNCH_MIN_BYTES;
}

/** The environment variable that tells a relaunched child which fd is its parent's pipe. */
const PARENT_PIPE_ENV = 'LEAKHUNT_PARENT_PIPE_FD';
const PARENT_PIPE_FD = 3;

type Execve = (file: string, args: readonly string[], env: NodeJS.ProcessEnv) => never;

/** `process.execve` where this Node has it (typed here: @types/node 20 does not know it). */
export function execveOf(proc: NodeJS.Process = process): Execve | undefined {
  const fn = (proc as unknown as { execve?: unknown }).execve;
  return typeof fn === 'function' ? (fn.bind(proc) as Execve) : undefined;
}

function tunedEnv(): NodeJS.ProcessEnv {
  const tunables = process.env['GLIBC_TUNABLES'];
  return { ...process.env, GLIBC_TUNABLES: tunables ? `${tunables}:${TUNABLE}` : TUNABLE };
}

/**
 * Runs this CLI again with the tunable set: in place where Node can (never returns), else as a child
 * that dies with this process; resolves with the exit code to use.
 */
export function relaunch(): Promise<number> {
  const env = tunedEnv();
  const args = [...CHILD_V8_FLAGS, ...process.execArgv, ...process.argv.slice(1)];
  const execve = execveOf();
  if (execve !== undefined) {
    delete env[PARENT_PIPE_ENV];
    execve(process.execPath, [process.execPath, ...args], env);
  }
  env[PARENT_PIPE_ENV] = String(PARENT_PIPE_FD);
  // Its own process group: a terminal's Ctrl-C reaches the child once, through the parent, not twice.
  // fd 3: a pipe the child reads until end of file, which comes when this process is gone (watchParent).
  const child = spawn(process.execPath, args, { stdio: ['inherit', 'inherit', 'inherit', 'pipe'], env, detached: true });
  const forward = (signal: NodeJS.Signals) => () => {
    if (child.exitCode === null) child.kill(signal);
  };
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((s) => [s, forward(s)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  return new Promise((resolve) => {
    child.on('error', () => resolve(70));
    child.on('exit', (code, signal) => {
      for (const [s, handler] of handlers) process.off(s, handler);
      resolve(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : signal === 'SIGHUP' ? 129 : 70));
    });
  });
}

/**
 * In a child started by `relaunch()` on a Node without execve: when the parent's pipe reaches its end
 * (the parent exited or was killed, SIGKILL included), stop as on a hang-up. Does nothing elsewhere.
 * The pipe does not keep the process alive on its own.
 */
export function watchParent(env: NodeJS.ProcessEnv = process.env): void {
  const fd = Number(env[PARENT_PIPE_ENV]);
  if (!Number.isInteger(fd) || fd < 3) return;
  delete env[PARENT_PIPE_ENV]; // not inherited by anything this process starts
  let pipe: Socket;
  try {
    pipe = new Socket({ fd, readable: true, writable: false });
  } catch {
    return; // no such fd: started by hand with the variable set
  }
  const parentGone = (): void => {
    pipe.destroy();
    process.stderr.write('leakhunt: the leakhunt process that started this one is gone: stopping\n');
    process.kill(process.pid, 'SIGHUP');
  };
  pipe.on('data', () => {}); // the parent never writes; reading lets the end of file arrive
  pipe.once('end', parentGone);
  pipe.once('error', parentGone);
  pipe.unref();
}
