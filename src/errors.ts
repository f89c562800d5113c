// Typed errors with the exit code each one maps to; the CLI catches them in one place.
// Exit codes: 0 clean, 1 leak / threshold crossed, 2 usage (an output path that cannot take what we write
// included), 3 bad snapshot, 4 cannot attach, 70 internal bug.

export const ExitCode = {
  ok: 0,
  leak: 1,
  usage: 2,
  badSnapshot: 3,
  cannotAttach: 4,
  internal: 70,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export class LeakhuntError extends Error {
  readonly exitCode: ExitCodeValue;
  constructor(message: string, exitCode: ExitCodeValue) {
    super(message);
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

/** A command line that cannot be acted on (unknown flag value, missing argument). */
export class UsageError extends LeakhuntError {
  constructor(message: string) {
    super(message, ExitCode.usage);
  }
}

/**
 * A file that is not a readable, complete heap snapshot. `byteOffset` is where reading
 * stopped making sense (the end of the file for truncation); it is part of the message.
 */
export class SnapshotFormatError extends LeakhuntError {
  readonly file: string;
  readonly byteOffset: number | undefined;
  readonly reason: string;
  constructor(file: string, reason: string, byteOffset?: number) {
    super(
      byteOffset === undefined ? `${file}: ${reason}` : `${file}: ${reason} at byte ${byteOffset}`,
      ExitCode.badSnapshot,
    );
    this.file = file;
    this.reason = reason;
    this.byteOffset = byteOffset;
  }
}

/** The target process cannot be attached to safely (missing pid, not node, no SIGUSR1 handler, ...). */
export class AttachError extends LeakhuntError {
  constructor(message: string) {
    super(message, ExitCode.cannotAttach);
  }
}

/**
 * Where leakhunt was told (or defaults) to write cannot take it: a missing or read-only directory, a file
 * that exists (without --force), too little free space, or the disk filling up while writing. Exit 2, as
 * a usage error: the answer is another `-o` / `--out` (or freeing space), never a bug of ours.
 * `bytesWritten` is set when a write failed part way (the partial file is gone by then).
 */
export class OutputError extends LeakhuntError {
  readonly path: string;
  /** The system error code (ENOSPC, EROFS, EACCES, ...), when a system call refused. */
  readonly code: string | undefined;
  readonly bytesWritten: number | undefined;
  constructor(path: string, message: string, details: { code?: string; bytesWritten?: number } = {}) {
    super(message, ExitCode.usage);
    this.path = path;
    this.code = details.code;
    this.bytesWritten = details.bytesWritten;
  }
}
