// Snapshot files on disk: chunks written synchronously, as they arrive, to `<file>.partial` (mode 0600:
// a heap holds every prompt and key of the process), renamed into place when complete and removed when
// not, so a `.heapsnapshot` file is always whole. Plus the small JSON written beside each snapshot (and
// the fields in it that name the process and the inspector session) and the private output directory (0700).
// A write the file system refuses (disk full, read-only, quota) is an OutputError naming the path and the
// bytes written, with the partial file already removed; the checks before any signal are output-place.ts.
// The same partial file can be handed over to the target to write itself (target-write.ts): created
// here (0600, exclusively: never a link someone planted), closed on our side, then renamed or removed
// here alike.

import { OutputError } from '../errors.js';
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { readProcessStart, type ProcessStart } from './process-start.js';
import type { TargetSession } from './session.js';
import { describeSystemError, systemErrorOf } from './system-error.js';

/** The error for a write to `path` the file system refused; anything else (a bug of ours) passes as it is. */
export function writeFailure(path: string, err: unknown, after?: { bytesWritten: number; removed: string }): unknown {
  const facts = systemErrorOf(err);
  if (!facts) return err;
  const progress = after ? ` after ${after.bytesWritten} bytes; the partial file ${after.removed} was removed` : '';
  return new OutputError(path, `cannot write ${path}: ${describeSystemError(facts)}${progress}`, {
    code: facts.code,
    ...(after ? { bytesWritten: after.bytesWritten } : {}),
  });
}

export class SnapshotFileWriter {
  readonly path: string;
  readonly partialPath: string;
  #fd: number | undefined;
  #bytes = 0;
  /** The partial file was handed to another writer (the target) and is neither committed nor discarded. */
  #handedOver = false;

  private constructor(path: string) {
    this.path = path;
    this.partialPath = `${path}.partial`;
    try {
      rmSync(this.partialPath, { force: true }); // a leftover of a killed run: never append to it
      this.#fd = openSync(this.partialPath, 'wx', 0o600);
    } catch (err) {
      throw writeFailure(this.partialPath, err);
    }
  }

  static create(path: string): SnapshotFileWriter {
    return new SnapshotFileWriter(path);
  }

  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Writes one chunk before returning: nothing is buffered in this process. When the file system refuses
   * (a full disk), the partial file is removed at once and an OutputError thrown; later chunks are dropped.
   */
  write(chunk: string): void {
    if (this.#fd === undefined) return; // discarded: the rest of the snapshot is dropped
    const buf = Buffer.from(chunk, 'utf8');
    let off = 0;
    try {
      while (off < buf.length) off += writeSync(this.#fd, buf, off, buf.length - off);
    } catch (err) {
      this.#bytes += off;
      this.discard();
      throw writeFailure(this.path, err, { bytesWritten: this.#bytes, removed: this.partialPath });
    }
    this.#bytes += buf.length;
  }

  /**
   * Closes our descriptor and leaves the empty partial file to another writer (the target, which
   * truncates and writes it by name); `commit` and `discard` then work as for chunks written here.
   */
  handOver(): string {
    if (this.#fd === undefined) throw new Error(`${this.partialPath} was discarded`);
    try {
      closeSync(this.#fd);
    } catch (err) {
      this.#fd = undefined;
      this.discard();
      throw writeFailure(this.path, err, { bytesWritten: 0, removed: this.partialPath });
    }
    this.#fd = undefined;
    this.#handedOver = true;
    return this.partialPath;
  }

  /** For a handed-over file: what the other writer wrote so far (the size on disk). */
  noteBytes(bytes: number): void {
    if (this.#handedOver) this.#bytes = bytes;
  }

  /** Closes the partial file and renames it into place (removed instead when either fails). */
  commit(): void {
    if (this.#fd === undefined && !this.#handedOver) throw new Error(`${this.partialPath} was discarded`);
    try {
      if (this.#fd !== undefined) closeSync(this.#fd); // a network file system reports a failed write as late as here
      this.#fd = undefined;
      this.#handedOver = false;
      renameSync(this.partialPath, this.path);
    } catch (err) {
      this.discard();
      throw writeFailure(this.path, err, { bytesWritten: this.#bytes, removed: this.partialPath });
    }
  }

  /** Drops an incomplete snapshot: closes and removes the partial file. Safe to call twice. */
  discard(): void {
    this.#handedOver = false;
    if (this.#fd !== undefined) {
      try {
        closeSync(this.#fd);
      } catch {
        // already closed
      }
      this.#fd = undefined;
    }
    rmSync(this.partialPath, { force: true });
  }
}

/** The fields of a snapshot's JSON that say which process and which inspector session it came from. */
export interface ProcessFields extends Partial<ProcessStart> {
  /** A random name per inspector session: V8 numbers objects afresh once a session ends. */
  readonly session: string;
}

const sessionNames = new WeakMap<TargetSession, string>();

/**
 * With `localPid` (the target's pid on this machine; not known behind a port-forward), when that
 * process started (process-start.ts): with the pid, which process this was for good. Read by
 * src/analysis/diff/snapshot-origin.ts, which decides from them how `leakhunt diff` compares a series.
 */
export function processFieldsOf(session: TargetSession, localPid?: number): ProcessFields {
  let name = sessionNames.get(session);
  if (name === undefined) sessionNames.set(session, (name = randomUUID()));
  const start = localPid === undefined ? undefined : readProcessStart(localPid);
  return { ...start, session: name };
}

/** Writes small JSON beside a snapshot, owner-only, through a temporary name. */
export function writePrivateJson(path: string, value: unknown): void {
  const tmp = `${path}.partial`;
  try {
    writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw writeFailure(path, err);
  }
}

/**
 * Creates the output directory with mode 0700. An existing directory is used as it is; the returned
 * warning says when others can read it.
 */
export function prepareOutputDir(dir: string): { created: boolean; warning?: string } {
  let created = false;
  try {
    created = mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined;
  } catch (err) {
    const facts = systemErrorOf(err);
    if (!facts) throw err;
    throw new OutputError(dir, `--out: cannot create ${facts.path ?? dir}: ${describeSystemError(facts)}`, { code: facts.code });
  }
  const mode = statSync(dir).mode & 0o777;
  if (!created && (mode & 0o077) !== 0) {
    return { created, warning: `${dir} is readable by others (mode ${mode.toString(8)}); heap snapshots hold every string of the process` };
  }
  return { created };
}
