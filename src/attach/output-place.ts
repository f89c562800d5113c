// Where snapshots will go, checked before any signal is sent: the directory exists (or can be created),
// takes files (not read-only, not refused by permissions), how much space is free on it, and which of
// the files we would write already exist. Hard refusals throw OutputError (exit 2); what --force may
// override (existing files, too little space) is returned as data for the CLI to decide on.

import { accessSync, constants, lstatSync, statfsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { OutputError } from '../errors.js';
import { describeSystemError, systemErrorOf } from './system-error.js';

/**
 * No heap snapshot of a Node process is smaller than this: an idle `node -e` writes 4.0 MB on Node 20.20,
 * 5.2 MB on 22.23 and 5.0 MB on 24.22 (v8.writeHeapSnapshot, measured here). Less free space than this is
 * refused before any signal.
 */
export const MIN_SNAPSHOT_FILE_BYTES = 2 * 1024 * 1024;

export interface OutputPlace {
  /** The directory the files go into (for `--out`, the nearest one that exists when it is still to be created). */
  readonly dir: string;
  /** Free space for an unprivileged writer on its file system; undefined when statfs fails. */
  readonly freeBytes: number | undefined;
  /** Which of the files we would write are there already. */
  readonly existing: readonly string[];
}

function refusal(path: string, err: unknown, what: string): unknown {
  const facts = systemErrorOf(err);
  return facts ? new OutputError(path, `${what}: ${describeSystemError(facts)}`, { code: facts.code }) : err;
}

function freeBytesOf(dir: string): number | undefined {
  try {
    const fs = statfsSync(dir);
    return fs.bavail * fs.bsize;
  } catch {
    return undefined;
  }
}

/** A directory we can create files in, or an OutputError saying why not. */
function assertWritableDir(dir: string, what: string): void {
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (err) {
    const facts = systemErrorOf(err);
    if (facts?.code === 'ENOENT') throw new OutputError(dir, `${what}: directory ${dir} does not exist`, { code: facts.code });
    throw refusal(dir, err, `${what}: cannot use ${dir}`);
  }
  if (!isDir) throw new OutputError(dir, `${what}: ${dir} is not a directory`, { code: 'ENOTDIR' });
  try {
    // access() answers EROFS for a read-only mount even to root, and EACCES by the permission bits.
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (err) {
    throw refusal(dir, err, `${what}: cannot write in ${dir}`);
  }
}

function existingOf(paths: readonly string[]): string[] {
  return paths.filter((p) => {
    try {
      lstatSync(p);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * `snapshot -o FILE`: FILE's directory must exist and take files, FILE must not be a directory.
 * `alsoWrites`: files written beside it (its JSON), reported in `existing` like FILE itself.
 */
export function checkOutputFile(file: string, alsoWrites: readonly string[], what = '-o'): OutputPlace {
  const path = resolve(file);
  try {
    if (lstatSync(path).isDirectory()) throw new OutputError(path, `${what}: ${path} is a directory; give a file name`, { code: 'EISDIR' });
  } catch (err) {
    if (err instanceof OutputError) throw err;
    // absent: the usual case; anything else shows again below
  }
  const dir = dirname(path);
  assertWritableDir(dir, what);
  return { dir, freeBytes: freeBytesOf(dir), existing: existingOf([path, ...alsoWrites]) };
}

/**
 * `attach --out DIR`: DIR must be a directory that takes files, or not exist yet with its nearest
 * existing ancestor taking directories (it is created later, 0700, with any missing parents).
 */
export function checkOutputDir(outDir: string, files: readonly string[], what = '--out'): OutputPlace {
  const dir = resolve(outDir);
  let existing = dir;
  for (;;) {
    try {
      statSync(existing);
      break;
    } catch (err) {
      const facts = systemErrorOf(err);
      if (facts?.code !== 'ENOENT') throw refusal(existing, err, `${what}: cannot use ${existing}`);
      const parent = dirname(existing);
      if (parent === existing) break;
      existing = parent;
    }
  }
  assertWritableDir(existing, existing === dir ? what : `${what}: cannot create ${dir}`);
  return { dir: existing, freeBytes: freeBytesOf(existing), existing: existing === dir ? existingOf(files) : [] };
}
