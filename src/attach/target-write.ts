// Having the target write its own heap snapshot (`v8.writeHeapSnapshot`, run by a Runtime.evaluate)
// instead of streaming it over the inspector: the target then pauses about as long as V8's own call
// (the streamed snapshot escapes every chunk into a protocol message: ~1.25× longer, measured with
// fixtures/heap-size.cjs and scripts/bench-attach.js). Owns three things:
// - whether the target can write where leakhunt reads (`targetWriteRefusal`): a local pid, the same
//   root and mount namespace as ours (else the path names another file, or none), the same file-system
//   uid as ours (it must open the 0600 file we create; root writing for a non-root target would hand it
//   a file it cannot open), and a directory nobody else can write to (no one can swap the file we
//   created for a link while the target opens it by name);
// - the self-contained expression the target runs, and what its answer means;
// - how alive a writing target is: the file growing, or its CPU time advancing (the generation writes
//   nothing for a while, but burns CPU; a stopped or hung target does neither).

import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readlinkSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { PROC_ROOT, readProcStatus } from './proc-status.js';

export type SnapshotMethod = 'target-wrote' | 'streamed';

/**
 * Why the target cannot write files that leakhunt reads, whatever the directory: not a local process,
 * another root or mount namespace (a container, a pod's other container), another file-system uid.
 */
export function targetFilesystemRefusal(localPid: number | undefined, procRoot = PROC_ROOT): string | undefined {
  if (localPid === undefined) return 'the target is not a local process (--port / --ws): it cannot write where leakhunt reads';
  try {
    const theirs = statSync(`${procRoot}/${localPid}/root`);
    const ours = statSync('/');
    if (theirs.dev !== ours.dev || theirs.ino !== ours.ino) return `pid ${localPid} has another root directory (a container): its paths are not ours`;
    if (readlinkSync(`${procRoot}/${localPid}/ns/mnt`) !== readlinkSync(`${procRoot}/self/ns/mnt`)) {
      return `pid ${localPid} is in another mount namespace: its paths are not ours`;
    }
  } catch (err) {
    return `cannot compare pid ${localPid}'s file system with ours (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  const theirUid = readProcStatus(localPid, procRoot).uids[3];
  const ourUid = readProcStatus('self', procRoot).uids[3];
  if (theirUid === undefined || theirUid !== ourUid) return `pid ${localPid} writes files as uid ${theirUid ?? '?'}, leakhunt as uid ${ourUid ?? '?'}: it could not open the file leakhunt creates`;
  return undefined;
}

/** Why the target cannot write `file` itself (then the snapshot is streamed), or undefined when it can. */
export function targetWriteRefusal(localPid: number | undefined, file: string, procRoot = PROC_ROOT): string | undefined {
  const refusal = targetFilesystemRefusal(localPid, procRoot);
  if (refusal !== undefined) return refusal;
  const dir = dirname(file);
  const mode = statSync(dir).mode;
  if ((mode & 0o022) !== 0) return `${dir} is writable by others (mode ${(mode & 0o777).toString(8)}): leakhunt writes there itself`;
  return undefined;
}

/**
 * Statements of a target expression that set `let <name>` to Node's built-in module of that name, from
 * `process.getBuiltinModule` (Node ≥ 20.16 / 22.3) or else the inspector's command-line `require`;
 * undefined when neither gives it.
 */
export function builtinModule(name: 'v8' | 'fs'): string {
  return `let ${name};
  try {
    ${name} = typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule('node:${name}') : typeof require === 'function' ? require('${name}') : undefined;
  } catch (e) {}`;
}

/**
 * What the target runs: `v8.writeHeapSnapshot(path)` from `process.getBuiltinModule` (Node ≥ 20.16 / 22.3)
 * or else the inspector's command-line `require`; its answer is a plain object, returned by value. A
 * thrown system error comes back as its fields (code, errno, syscall), never its message. Nothing is
 * kept in the target: no global, no timer, no object group.
 */
export function writeSnapshotExpression(path: string): string {
  return `(() => {
  ${builtinModule('v8')}
  if (!v8 || typeof v8.writeHeapSnapshot !== 'function') return { written: false, missing: true };
  try {
    v8.writeHeapSnapshot(${JSON.stringify(path)});
    return { written: true };
  } catch (e) {
    return { written: false, code: String(e && e.code), errno: e && typeof e.errno === 'number' ? e.errno : undefined, syscall: e && typeof e.syscall === 'string' ? e.syscall : undefined };
  }
})()`;
}

/** The target's answer to writeSnapshotExpression. */
export type TargetWriteAnswer =
  | { readonly written: true }
  | { readonly written: false; readonly missing: true }
  | { readonly written: false; readonly code: string; readonly errno?: number; readonly syscall?: string };

/** The target's failure as a Node system error (for system-error.ts), or undefined when it was none. */
export function systemErrorOfAnswer(answer: TargetWriteAnswer, path: string): NodeJS.ErrnoException | undefined {
  if (answer.written || 'missing' in answer || !/^E[A-Z0-9]+$/.test(answer.code)) return undefined;
  return Object.assign(new Error(answer.code), {
    code: answer.code,
    path,
    ...(answer.errno === undefined ? {} : { errno: answer.errno }),
    ...(answer.syscall === undefined ? {} : { syscall: answer.syscall }),
  });
}

/** user + system CPU time of a process, in clock ticks (/proc/PID/stat fields 14 and 15); undefined when gone. */
export function cpuTicksOf(pid: number, procRoot = PROC_ROOT): number | undefined {
  try {
    const stat = readFileSync(`${procRoot}/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // after "pid (comm) ": field 3 onwards
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** Size of a file, 0 when it is not there. */
export function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** V8's JSON ends its `strings` array and the object: a file that does not end so was cut short. */
export function endsLikeSnapshot(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    if (size < 2) return false;
    const tail = Buffer.alloc(Math.min(16, size));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    return /\]\s*\}\s*$/.test(tail.toString('latin1'));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The target's descriptors open on `path` (by /proc/PID/fd links, read before the file is unlinked).
 * Node's writeHeapSnapshot leaks its descriptor when a write fails (a full disk; Node 20.20, 22.23 and
 * 24.22 checked here): the target would hold the file, and the space, until it exits.
 */
export function descriptorsOn(pid: number, path: string, procRoot = PROC_ROOT): number[] {
  const fds: number[] = [];
  try {
    for (const fd of readdirSync(`${procRoot}/${pid}/fd`)) {
      try {
        if (readlinkSync(`${procRoot}/${pid}/fd/${fd}`) === path) fds.push(Number(fd));
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    // gone, or not ours to read
  }
  return fds;
}

/**
 * Closes, in the target, those of `fds` that are still open on the file with this device and inode
 * (checked in the target, in the same evaluate: a descriptor number reused for anything else is left
 * alone). Answers how many it closed. Self-contained; keeps nothing.
 */
export function closeDescriptorsExpression(fds: readonly number[], dev: bigint, ino: bigint): string {
  return `(() => {
  ${builtinModule('fs')}
  if (!fs) return 0;
  let closed = 0;
  for (const fd of ${JSON.stringify(fds)}) {
    try {
      const s = fs.fstatSync(fd, { bigint: true });
      if (s.dev === ${dev}n && s.ino === ${ino}n) {
        fs.closeSync(fd);
        closed++;
      }
    } catch (e) {}
  }
  return closed;
})()`;
}
