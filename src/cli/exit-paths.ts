// Every way the leakhunt process ends, other than a command returning, first closes what it opened in
// other processes (src/attach/open-resources.ts: inspector sessions, per-target locks): a reader that
// went away (EPIPE), a failed write to stdout, an uncaught error or rejection; the process's 'exit'
// event undoes what needs no event loop. Signals are handled by the commands that touch a target
// (attach-common.ts) through the same registry. Installed once, by entry.ts.

import { ExitCode } from '../errors.js';
import { closeAllOpen, closeAllOpenSync } from '../attach/open-resources.js';

let ending = false;

/** Closes what is open, then exits with `code`; the first call wins. */
export function endWith(code: number): void {
  if (ending) return;
  ending = true;
  void closeAllOpen().finally(() => process.exit(code));
}

export function installExitPaths(): void {
  // A reader that stops early (`leakhunt … | head`) closes the pipe: that ends the output, quietly, once
  // what we opened is closed. Any other failed write of the result (a full disk behind `> file`) is said.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') return endWith(Number(process.exitCode ?? 0));
      if (stream !== process.stdout) return; // stderr lost (a closed terminal): the work and its result go on
      try {
        process.stderr.write(`leakhunt: cannot write the output to stdout: ${err.message}\n`);
      } catch {
        // stderr is gone too
      }
      endWith(ExitCode.usage); // a place that cannot take the output, as a full --out (README, exit codes)
    });
  }
  const crashed = (err: unknown): void => {
    if (ending) return;
    const e = err instanceof Error ? err : new Error(String(err));
    try {
      const debug = process.argv.includes('--debug');
      process.stderr.write(`leakhunt: internal error: ${e.message}${debug ? `\n${e.stack ?? ''}` : ' (run with --debug for the stack trace)'}\n`);
    } catch {
      // stderr is gone
    }
    endWith(ExitCode.internal);
  };
  process.on('uncaughtException', crashed);
  process.on('unhandledRejection', crashed);
  // The last resort, for what needs no event loop (lock files): an exit nothing above saw coming.
  process.on('exit', closeAllOpenSync);
}
