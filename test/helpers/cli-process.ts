// The built CLI as a running child process the test can talk to while it works: wait for a line on its
// stderr (e.g. "generating"), send it SIGINT, then collect its exit code and output. For one-shot runs
// `runCli` (cli.ts) is simpler.

import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, type CliResult } from './cli.js';

export interface CliProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr matches; rejects if the CLI exits first or the time runs out. */
  waitForStderr(pattern: RegExp, timeoutMs: number): Promise<void>;
  readonly done: Promise<CliResult & { signal: NodeJS.Signals | null }>;
}

export function spawnCli(args: readonly string[], options: { timeoutMs?: number } = {}): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const watchers: (() => void)[] = [];
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    for (const w of [...watchers]) w();
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  const done = new Promise<CliResult & { signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      for (const w of [...watchers]) w();
      resolve({ code, signal, stdout, stderr });
    });
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    done,
    waitForStderr(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`no ${pattern} on stderr within ${timeoutMs} ms; stderr:\n${stderr}`)), timeoutMs);
        const check = (): void => {
          if (pattern.test(stderr)) finish();
          else if (child.exitCode !== null || child.signalCode !== null) finish(new Error(`the CLI exited before ${pattern}; stderr:\n${stderr}`));
        };
        const finish = (err?: Error): void => {
          clearTimeout(timer);
          const i = watchers.indexOf(check);
          if (i >= 0) watchers.splice(i, 1);
          if (err) reject(err);
          else resolve();
        };
        watchers.push(check);
        check();
      });
    },
  };
}
