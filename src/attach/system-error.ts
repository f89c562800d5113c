// What a failed system call says, read from the error's own fields (code, errno, syscall, path), never
// from its message: the refusals that mean "this place cannot take the file" (a full disk, a read-only
// file system, no permission, no such directory) as opposed to a bug of ours.

import { getSystemErrorMap } from 'node:util';

export interface SystemErrorFacts {
  /** ENOSPC, EROFS, ... */
  readonly code: string;
  /** The system's own description, e.g. "no space left on device". */
  readonly description: string;
  readonly syscall?: string;
  readonly path?: string;
}

/** Codes a write gets only from the place it writes to, whatever call failed. */
const WRITE_ONLY_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EROFS']);
/** Codes that mean the same when a call that creates, replaces or writes a file gets them. */
const PLACE_CODES = new Set(['EACCES', 'EPERM', 'ENOENT', 'ENOTDIR', 'EISDIR', 'EEXIST', 'ENAMETOOLONG', 'ELOOP', 'EIO']);
const WRITING_CALLS = new Set(['open', 'write', 'close', 'fsync', 'rename', 'mkdir', 'unlink', 'rmdir', 'link', 'copyfile', 'access', 'ftruncate']);

/** The facts of a Node system error, or undefined when `err` is not one. */
export function systemErrorOf(err: unknown): SystemErrorFacts | undefined {
  if (!(err instanceof Error)) return undefined;
  const e = err as NodeJS.ErrnoException;
  if (typeof e.code !== 'string' || !/^E[A-Z0-9]+$/.test(e.code)) return undefined;
  const described = typeof e.errno === 'number' ? getSystemErrorMap().get(e.errno) : undefined;
  return {
    code: e.code,
    description: described?.[1] ?? e.code,
    ...(typeof e.syscall === 'string' ? { syscall: e.syscall } : {}),
    ...(typeof e.path === 'string' ? { path: e.path } : {}),
  };
}

/** Is this a refusal by the file system of a place we write to (not a bug of ours)? */
export function isPlaceRefusal(facts: SystemErrorFacts): boolean {
  return WRITE_ONLY_CODES.has(facts.code) || (PLACE_CODES.has(facts.code) && facts.syscall !== undefined && WRITING_CALLS.has(facts.syscall));
}

/** "no space left on device (ENOSPC)". */
export function describeSystemError(facts: SystemErrorFacts): string {
  return `${facts.description} (${facts.code})`;
}
