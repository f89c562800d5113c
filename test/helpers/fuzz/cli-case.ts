// One fuzz case through the real CLI: `node bin/leakhunt.js <command> <file> …` as a user runs it
// (LEAKHUNT_NO_RELAUNCH=1: one process to measure), with a deadline and its peak RSS. The peak is the
// kernel's own high-water mark (VmHWM), written by a preload script as the process exits; a process
// that dies without running exit handlers (killed, V8 out of memory) leaves none, which is a failure.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN } from '../cli.js';

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** Peak RSS in bytes, undefined when the process did not say (killed or aborted). */
  readonly peakRssBytes: number | undefined;
  readonly ms: number;
}

const PRELOAD = `'use strict';
const fs = require('node:fs');
process.on('exit', () => {
  const m = /VmHWM:\\s+(\\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  if (m && process.env.LEAKHUNT_FUZZ_PEAK_FILE) fs.writeFileSync(process.env.LEAKHUNT_FUZZ_PEAK_FILE, String(Number(m[1]) * 1024));
});
`;

/** Writes the preload script into `dir` (once per run); returns its path. */
export function writePeakPreload(dir: string): string {
  const path = join(dir, 'peak-rss-preload.cjs');
  writeFileSync(path, PRELOAD, { mode: 0o600 });
  return path;
}

export function runCliCase(args: readonly string[], options: { preload: string; dir: string; timeoutMs: number }): Promise<CliRun> {
  const peakFile = join(options.dir, `peak-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', options.preload, BIN, ...args], {
      env: { ...process.env, NO_COLOR: '1', LEAKHUNT_NO_RELAUNCH: '1', LEAKHUNT_FUZZ_PEAK_FILE: peakFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const peakRssBytes = existsSync(peakFile) ? Number(readFileSync(peakFile, 'utf8')) : undefined;
      rmSync(peakFile, { force: true });
      resolve({ code, signal, stdout, stderr, timedOut, peakRssBytes, ms: Date.now() - started });
    });
  });
}

/**
 * What a user is owed from a CLI run (`args`) on a damaged file: exit 0 with its report (valid JSON with
 * --json), or exit 3 with one line
 * naming the file (retainers may also answer 2: no object of that class); never a stack, a hang, or a
 * peak over `maxRssBytes`. Returns the problem, or undefined.
 */
export function judgeCliRun(run: CliRun, file: string, args: readonly string[], maxRssBytes: number): string | undefined {
  const command = args[0];
  if (run.timedOut) return `no answer within the deadline (${run.ms} ms)`;
  if (run.signal) return `killed by ${run.signal}`;
  if (run.peakRssBytes === undefined) return `exited ${run.code} without its exit handlers (aborted?)`;
  if (run.peakRssBytes > maxRssBytes) return `peak RSS ${Math.round(run.peakRssBytes / 2 ** 20)} MiB over ${Math.round(maxRssBytes / 2 ** 20)} MiB`;
  if (/^\s+at /m.test(run.stderr)) return 'a stack trace on stderr';
  const allowed = command === 'retainers' ? [0, 2, 3] : [0, 3];
  if (!allowed.includes(run.code ?? -1)) return `exit ${run.code}`;
  if (run.code === 0) {
    if (!args.includes('--json')) return run.stdout === '' ? 'exit 0 with nothing on stdout' : undefined;
    try {
      JSON.parse(run.stdout);
    } catch {
      return 'exit 0 without a JSON document on stdout';
    }
    return undefined;
  }
  const lines = run.stderr.split('\n').filter((l) => l !== '');
  if (lines.length !== 1) return `exit ${run.code} with ${lines.length} lines on stderr`;
  if (!lines[0]!.startsWith(`leakhunt: ${file}: `)) return `exit ${run.code} with a message that does not name the file first`;
  if (run.code === 3 && !/ at byte \d+$/.test(lines[0]!)) return 'exit 3 without the byte offset';
  if (run.stdout !== '') return `exit ${run.code} with output on stdout`;
  return undefined;
}
