// One capture per target at a time: a lock file per target process, created with O_EXCL in leakhunt's
// runtime directory ($XDG_RUNTIME_DIR/leakhunt, else <tmpdir>/leakhunt-<uid>; 0700, ours, not a link).
// The file is named by the target's pid and start time (process-start.ts), so a reused pid is another
// target, and holds the holder's pid, start time, command line and since-when. A lock whose holder is
// gone (pid dead, or reused by another process) is stale and taken over; a live holder's lock makes
// the second attach fail with exit 4 naming the holder. Released by the session's detach, and through
// open-resources.ts on every other way leakhunt ends.
//
// The lock also records an inspector its holder opened with SIGUSR1 and has not closed yet. A holder that
// died without closing it (kill -9) leaves that record in its stale lock; the next leakhunt that takes
// the lock over knows the inspector listening there was opened by leakhunt, not by the app, and closes
// it when done (an inspector that was open before any leakhunt came still stays open).
//
// Taking over a stale lock: it is renamed to a name of our own first and checked to be the very file
// we read (same inode), so two leakhunts that find the same stale lock at once cannot both delete it and
// both create a new one: the second rename finds a different inode (or none) and starts over.

import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync, writeSync, linkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AttachError } from '../errors.js';
import { holdOpen } from './open-resources.js';
import { readProcessStart } from './process-start.js';
import { PROC_ROOT, processAlive } from './proc-status.js';

export interface LockHolder {
  readonly pid: number;
  /** The holder's own start ticks (pid reuse); absent when /proc could not tell. */
  readonly startTicks?: number;
  readonly command: string;
  /** ISO time the lock was taken. */
  readonly since: string;
  /** An inspector a leakhunt opened with SIGUSR1 and has not closed (yet). */
  readonly inspector?: LeftoverInspector;
}

/** An inspector a leakhunt that died had opened and not closed (from the stale lock taken over). */
export interface LeftoverInspector {
  readonly host: string;
  readonly port: number;
  /** The leakhunt pid that opened it. */
  readonly openedBy: number;
}

export interface TargetLock {
  readonly file: string;
  readonly leftover?: LeftoverInspector;
  /** Records (or, undefined, clears) the inspector this leakhunt opened, for whoever finds the lock stale. */
  noteInspector(inspector: { host: string; port: number } | undefined): void;
  /** Removes the lock file if it is still ours. Safe to call twice. */
  release(): void;
}

export interface LockOptions {
  /** The holder's command line, for the message a second attach prints. */
  readonly command: string;
  readonly runtimeDir?: string;
  readonly procRoot?: string;
}

/** $XDG_RUNTIME_DIR/leakhunt, or <tmpdir>/leakhunt-<uid>. */
export function defaultRuntimeDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env['XDG_RUNTIME_DIR'];
  return xdg ? join(xdg, 'leakhunt') : join(tmpdir(), `leakhunt-${process.getuid?.() ?? 0}`);
}

/** Creates the directory 0700, and refuses one that is a link, not a directory, or someone else's. */
function ensurePrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new AttachError(`cannot create leakhunt's lock directory ${dir}: ${(err as Error).message}`);
  }
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o077) !== 0) {
    throw new AttachError(`leakhunt's lock directory ${dir} is not a private directory of uid ${uid ?? '?'} (mode 0700): remove it or fix its owner and mode`);
  }
}

function readHolder(file: string): { holder?: LockHolder; ino?: number } {
  try {
    const ino = lstatSync(file).ino;
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockHolder>;
    if (typeof parsed.pid !== 'number') return { ino };
    return { ino, holder: parsed as LockHolder };
  } catch {
    return {}; // gone meanwhile (a lock is complete from the moment it exists: see writeNew)
  }
}

function holderAlive(holder: LockHolder, procRoot: string): boolean {
  if (!processAlive(holder.pid, procRoot)) return false;
  if (holder.startTicks === undefined) return true;
  return readProcessStart(holder.pid, procRoot)?.startTicks === holder.startTicks;
}

/** Creates the lock with its content complete (written aside, then linked: link fails if it exists). */
function writeNew(file: string, holder: LockHolder): boolean {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(holder)}\n`);
    } finally {
      closeSync(fd);
    }
    linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new AttachError(`cannot create the lock file ${file}: ${(err as Error).message}`);
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // not created
    }
  }
}

/** Replaces the lock's content whole (written aside, renamed over): a reader sees the old or the new. */
function replaceWith(file: string, holder: LockHolder): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

/** Renames the stale lock away if it is still the file we read; true when it is gone. */
function removeStale(file: string, ino: number | undefined): boolean {
  const aside = `${file}.stale-${process.pid}`;
  try {
    renameSync(file, aside);
  } catch {
    return true; // already gone: try to create it again
  }
  if (ino !== undefined && lstatSync(aside).ino !== ino) {
    // someone took it over between our read and our rename: put theirs back (unless a third made one)
    try {
      linkSync(aside, file);
    } catch {
      // a newer one exists: ours to drop
    }
  }
  unlinkSync(aside);
  return true;
}

/** Takes the lock on `pid` or throws AttachError (exit 4) naming the live holder. */
export function lockTarget(pid: number, options: LockOptions): TargetLock | undefined {
  const procRoot = options.procRoot ?? PROC_ROOT;
  const start = readProcessStart(pid, procRoot);
  if (!start) return undefined; // not a local Linux process we can name: no lock to key
  const dir = options.runtimeDir ?? defaultRuntimeDir();
  ensurePrivateDir(dir);
  const file = join(dir, `target-${start.bootId.slice(0, 8)}-${pid}-${start.startTicks}.lock`);
  const ownStart = readProcessStart(process.pid, procRoot)?.startTicks;
  const me: LockHolder = { pid: process.pid, ...(ownStart === undefined ? {} : { startTicks: ownStart }), command: options.command, since: new Date().toISOString() };
  let leftover: LeftoverInspector | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (writeNew(file, me)) return heldLock(file, me, leftover);
    const { holder, ino } = readHolder(file);
    if (holder && holder.pid > 0 && holder.pid !== process.pid && holderAlive(holder, procRoot)) {
      throw new AttachError(
        `pid ${pid} is already being captured by leakhunt pid ${holder.pid} (since ${holder.since}: ${holder.command}); ` +
          'one capture at a time per process: wait for it to end, or stop it',
      );
    }
    if (holder?.inspector) leftover = holder.inspector;
    removeStale(file, ino);
  }
  throw new AttachError(`cannot take the lock on pid ${pid} (${file}): it keeps changing hands`);
}

function heldLock(file: string, me: LockHolder, leftover: LeftoverInspector | undefined): TargetLock {
  let released = false;
  let current = me;
  const noteInspector = (inspector: { host: string; port: number } | undefined): void => {
    if (released) return;
    const { inspector: _old, ...rest } = current;
    current = inspector ? { ...rest, inspector: { host: inspector.host, port: inspector.port, openedBy: process.pid } } : rest;
    replaceWith(file, current);
  };
  const release = (): void => {
    if (released) return;
    released = true;
    unregister();
    const { holder } = readHolder(file);
    if (holder?.pid !== me.pid || holder.since !== me.since) return; // not ours any more
    if (current.inspector) {
      // An inspector we could not close: the lock stays as a record of it, held by nobody (pid 0 is never
      // alive), so the next leakhunt takes it over and knows that inspector is leakhunt's to close.
      replaceWith(file, { pid: 0, command: current.command, since: current.since, inspector: current.inspector });
      return;
    }
    try {
      unlinkSync(file);
    } catch {
      // gone already
    }
  };
  const unregister = holdOpen({ what: `the lock ${file}`, close: async () => release(), closeSync: release });
  return { file, ...(leftover ? { leftover } : {}), noteInspector, release };
}
