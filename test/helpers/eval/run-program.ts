// Runs one drawn program the way a user meets a process (docs/evaluation.md): the program free-running as
// its own child process on the chosen Node, `leakhunt attach <pid> --json` (the built CLI) from outside with
// the program's snapshot count and pacing, then SIGTERM (it must exit 0). Also the one-snapshot variant
// (`leakhunt snapshot` then `leakhunt analyze --json`) and the offline re-diagnosis of a kept capture
// (`leakhunt report <dir> --json`).

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../cli.js';
import { catchesSigusr1, processRunning, sleep, waitFor } from '../live-target.js';
import { writesLedger, type ProgramParams } from './draw.js';
import { isShapeKind } from './draw-shapes.js';

export const PROGRAM = fileURLToPath(new URL('../../../../fixtures/generator/program.cjs', import.meta.url));
export const LANGGRAPH_PROGRAM = fileURLToPath(new URL('../../../../fixtures/generator/langgraph-program.cjs', import.meta.url));
export const PENDING_PROGRAM = fileURLToPath(new URL('../../../../fixtures/generator/pending-program.cjs', import.meta.url));

/** The template that runs a program's params: LangGraph programs and the shapes (draw-shapes.ts) have their own. */
export function templateOf(p: ProgramParams): string {
  if (p.fault.kind === 'langgraph') return LANGGRAPH_PROGRAM;
  return isShapeKind(p.fault.kind) ? PENDING_PROGRAM : PROGRAM;
}
export const COUNTER = 'globalThis.__evalTurns';

/** What the answer of attach (or report) says, reduced to what the judge reads. */
export interface Answer {
  readonly verdict: string;
  readonly exitCode: number | null;
  readonly evidence: readonly string[];
  readonly findings: readonly { readonly kind: string; readonly className: string; readonly count: number; readonly perInterval?: number; readonly drained?: boolean }[];
  readonly taken: number;
  /** When each snapshot was asked for (epoch ms), from the answer's `snapshots[].takenAt`. */
  readonly snapshotTimes: readonly number[];
}

/** One line of the program's ledger ("eval-kept <epoch ms> <kept so far>", program.cjs). */
export interface LedgerPoint {
  readonly ms: number;
  readonly total: number;
}

/**
 * What the program really kept per interval between its first and last snapshot, from its ledger: a
 * bursty or Poisson leak keeps more or less than its drawn rate while leakhunt looks. The process is
 * frozen while a snapshot is written, so a keep falls before or after each snapshot; one asked for
 * (takenAt) a few milliseconds before the pause can count a keep of that gap on the earlier side.
 */
export function keptDuringCapture(ledger: readonly LedgerPoint[], snapshotTimes: readonly number[]): number | undefined {
  if (snapshotTimes.length < 2) return undefined;
  const totalBefore = (ms: number): number => {
    let total = 0;
    for (const point of ledger) if (point.ms < ms) total = Math.max(total, point.total);
    return total;
  };
  const first = snapshotTimes[0]!;
  const last = snapshotTimes[snapshotTimes.length - 1]!;
  return (totalBefore(last) - totalBefore(first)) / (snapshotTimes.length - 1);
}

export interface ProgramRun {
  readonly answer?: Answer;
  /** Why there is no answer, or what went wrong around it (the program did not exit cleanly…). */
  readonly problems: readonly string[];
  readonly durationMs: number;
  /** The exact attach command line (after `leakhunt`). */
  readonly attachArgs: readonly string[];
  /** Kept per interval during the capture, from the program's ledger (absent without one). */
  readonly keptObserved?: number;
}

/**
 * `keptDuringCapture` of a kept program directory (`--keep`); undefined for a fault that writes no ledger
 * and for a program kept before the ledger existed.
 */
export function keptObservedIn(dir: string, p: ProgramParams, snapshotTimes: readonly number[]): number | undefined {
  const file = join(dir, 'ledger.json');
  if (!writesLedger(p) || !existsSync(file)) return undefined;
  return keptDuringCapture(JSON.parse(readFileSync(file, 'utf8')) as LedgerPoint[], snapshotTimes);
}

interface Started {
  readonly pid: number;
  stderr(): string;
  ledger(): readonly LedgerPoint[];
  alive(): boolean;
  /** SIGTERM, then the exit code (null and a SIGKILL when it does not exit within 10 s). */
  terminate(): Promise<number | null>;
}

const running = new Set<Started>();

/** SIGTERM to every program still running (the eval was interrupted); their attaches then end on their own. */
export async function stopAllPrograms(): Promise<void> {
  await Promise.all([...running].map((s) => s.terminate()));
}

async function startProgram(p: ProgramParams, node: string): Promise<Started> {
  // Old space sized for the ballast, what the fault keeps, and the snapshot's own growth.
  const oldSpaceMB = Math.max(512, p.heap.targetMB * 3 + 256);
  // --inspect-port=0: SIGUSR1 opens the inspector on a free port (9229 is often taken by another target).
  // --expose-gc: the program settles its start-up garbage before it says it serves (program.cjs).
  const child = spawn(node, [`--max-old-space-size=${oldSpaceMB}`, '--inspect-port=0', '--expose-gc', templateOf(p)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH ?? '', LEAKHUNT_EVAL_PARAMS: JSON.stringify(p) },
  });
  let stderr = '';
  let partial = '';
  const ledger: LedgerPoint[] = [];
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    const lines = (partial + d).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      const kept = /^eval-kept (\d+) (\d+)$/.exec(line);
      if (kept) ledger.push({ ms: Number(kept[1]), total: Number(kept[2]) });
      else stderr = `${stderr}${line}\n`.slice(-8192);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const pid = child.pid!;
  const alive = () => child.exitCode === null && child.signalCode === null && processRunning(pid);
  const started: Started = {
    pid,
    stderr: () => stderr + partial,
    ledger: () => ledger,
    alive,
    terminate: async () => {
      running.delete(started);
      if (!alive()) return child.exitCode;
      child.kill('SIGTERM');
      const code = await Promise.race([exited, sleep(10_000).then(() => 'timeout' as const)]);
      if (code !== 'timeout') return code;
      child.kill('SIGKILL');
      await exited;
      return null;
    },
  };
  running.add(started);
  try {
    await waitFor(() => catchesSigusr1(pid) || !alive(), 20_000, `program ${p.index} to install its SIGUSR1 handler`);
    // Ballast of 500 MB takes a while to build on a busy machine.
    await waitFor(() => /^eval-program: serving/m.test(stderr) || !alive(), 180_000, `program ${p.index} to serve`);
    if (!alive()) throw new Error(`program ${p.index} exited at start: ${stderr.slice(-400)}`);
  } catch (err) {
    await started.terminate();
    throw err;
  }
  return started;
}

export function attachArgsOf(p: ProgramParams, pid: number | string, outDir: string): string[] {
  const pacing = p.pacing.kind === 'time'
    ? ['--interval', `${p.pacing.intervalMs}ms`]
    : ['--counter', COUNTER, '--every', String(p.pacing.every), '--interval', '60s'];
  // The product's default capture (3 snapshots, more while the verdict is inconclusive), with the
  // drawn count as its budget.
  return ['attach', String(pid), '--max-snapshots', String(p.snapshots), ...pacing, '--sample-every', '250ms', '--json', '--no-progress', '--out', outDir];
}

/** Generous: every snapshot of a 500 MB heap pauses ~10 s here, and the analysis reads them all. */
function timeoutMsOf(p: ProgramParams): number {
  const intervalMs = p.pacing.kind === 'time' ? p.pacing.intervalMs : p.pacing.every * p.turnMs * 3;
  return 120_000 + p.snapshots * (intervalMs + 1000 + p.heap.targetMB * 200);
}

export function answerOf(stdout: string, exitCode: number | null): Answer | undefined {
  try {
    const out = JSON.parse(stdout) as {
      verdict: string; evidence?: string[]; capture?: { taken?: number }; snapshots?: { takenAt?: string }[];
      findings?: { kind: string; className: string; count: number; perInterval?: number; drained?: boolean }[];
    };
    return {
      verdict: out.verdict,
      exitCode,
      evidence: out.evidence ?? [],
      findings: (out.findings ?? []).map((f) => ({ kind: f.kind, className: f.className, count: f.count, ...(f.perInterval === undefined ? {} : { perInterval: f.perInterval }), ...(f.drained === undefined ? {} : { drained: f.drained }) })),
      taken: out.capture?.taken ?? 0,
      snapshotTimes: (out.snapshots ?? []).map((x) => Date.parse(x.takenAt ?? '')).filter((ms) => Number.isFinite(ms)),
    };
  } catch {
    return undefined;
  }
}

/**
 * Runs program `p` on `node` and attaches to it. With `keepDir`, the capture (attach --out), the params
 * and attach's JSON stay in `keepDir` (for `--replay` and `leakhunt report`); otherwise all is removed.
 */
export async function runProgram(p: ProgramParams, node: string, keepDir?: string): Promise<ProgramRun> {
  const started = Date.now();
  const problems: string[] = [];
  const dir = keepDir ?? mkdtempSync(join(tmpdir(), 'leakhunt-eval-'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'params.json'), `${JSON.stringify(p, null, 2)}\n`);
  let attachArgs: string[] = attachArgsOf(p, '<pid>', join(dir, 'capture'));
  let answer: Answer | undefined;
  let ledger: readonly LedgerPoint[] = [];
  try {
    const target = await startProgram(p, node);
    try {
      attachArgs = attachArgsOf(p, target.pid, join(dir, 'capture'));
      const r = await runCli(attachArgs, { timeoutMs: timeoutMsOf(p) });
      if (keepDir !== undefined) writeFileSync(join(dir, 'attach.json'), r.stdout);
      if (r.code !== 0 && r.code !== 1) problems.push(`attach exit ${r.code}: ${r.stderr.trim().split('\n').slice(-2).join(' | ')}`);
      else {
        answer = answerOf(r.stdout, r.code);
        if (!answer) problems.push(`attach printed no JSON: ${r.stdout.slice(0, 200)}`);
        else if (answer.taken < Math.min(3, p.snapshots) || answer.taken > p.snapshots) problems.push(`${answer.taken} snapshots taken, not 3 to ${p.snapshots}`);
      }
      if (!target.alive()) problems.push(`the program died during the attach: ${target.stderr().slice(-300)}`);
    } finally {
      const code = await target.terminate();
      if (code !== 0) problems.push(`the program did not exit 0 on SIGTERM (${code})`);
      ledger = target.ledger();
      if (keepDir !== undefined) writeFileSync(join(dir, 'ledger.json'), `${JSON.stringify(ledger)}\n`);
    }
  } catch (err) {
    problems.push(err instanceof Error ? err.message : String(err));
  } finally {
    if (keepDir === undefined) rmSync(dir, { recursive: true, force: true });
  }
  const keptObserved = answer && writesLedger(p) ? keptDuringCapture(ledger, answer.snapshotTimes) : undefined;
  return { ...(answer ? { answer } : {}), problems, durationMs: Date.now() - started, attachArgs, ...(keptObserved === undefined ? {} : { keptObserved }) };
}

/** `leakhunt report <capture> --json` on a kept program directory: today's diagnosis of yesterday's capture. */
export async function replayProgram(dir: string, p: ProgramParams): Promise<ProgramRun> {
  const started = Date.now();
  const args = ['report', join(dir, 'capture'), '--json', '--no-progress'];
  const r = await runCli(args, { timeoutMs: 600_000 });
  const problems: string[] = [];
  // report exits 0 whatever the verdict: its exit code says nothing to judge, so none is passed on.
  const answer = r.code === 0 ? answerOf(r.stdout, null) : undefined;
  if (r.code !== 0) problems.push(`report exit ${r.code}: ${r.stderr.trim().split('\n').slice(-2).join(' | ')}`);
  else if (!answer) problems.push(`report printed no JSON: ${r.stdout.slice(0, 200)}`);
  const keptObserved = answer ? keptObservedIn(dir, p, answer.snapshotTimes) : undefined;
  return { ...(answer ? { answer } : {}), problems, durationMs: Date.now() - started, attachArgs: args, ...(keptObserved === undefined ? {} : { keptObserved }) };
}

export interface OneSnapshotRun {
  readonly verdict?: string;
  readonly suspects: readonly { readonly className: string; readonly count: number; readonly evidence: string }[];
  readonly problems: readonly string[];
  readonly durationMs: number;
}

/** Point 7 of issue 21: one snapshot of a healthy program (`leakhunt snapshot`), then `leakhunt analyze --json`. */
export async function runOneSnapshot(p: ProgramParams, node: string, keepDir?: string): Promise<OneSnapshotRun> {
  const started = Date.now();
  const problems: string[] = [];
  const dir = keepDir ?? mkdtempSync(join(tmpdir(), 'leakhunt-eval1-'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'params.json'), `${JSON.stringify(p, null, 2)}\n`);
  let verdict: string | undefined;
  let suspects: OneSnapshotRun['suspects'] = [];
  try {
    const target = await startProgram(p, node);
    const file = join(dir, 'one.heapsnapshot');
    try {
      const snap = await runCli(['snapshot', String(target.pid), '-o', file, '--json', '--no-progress'], { timeoutMs: 120_000 + p.heap.targetMB * 1000 });
      if (snap.code !== 0) problems.push(`snapshot exit ${snap.code}: ${snap.stderr.trim().split('\n').slice(-2).join(' | ')}`);
    } finally {
      const code = await target.terminate();
      if (code !== 0) problems.push(`the program did not exit 0 on SIGTERM (${code})`);
    }
    if (problems.length === 0) {
      const r = await runCli(['analyze', file, '--json', '--no-progress'], { timeoutMs: 600_000 });
      if (r.code !== 0) problems.push(`analyze exit ${r.code}: ${r.stderr.trim().split('\n').slice(-2).join(' | ')}`);
      else {
        const out = JSON.parse(r.stdout) as { verdict: string; findings?: { kind: string; className: string; count: number; evidence?: string[] }[] };
        verdict = out.verdict;
        suspects = (out.findings ?? []).map((f) => ({ className: f.className, count: f.count, evidence: f.evidence?.[0] ?? '' }));
      }
    }
  } catch (err) {
    problems.push(err instanceof Error ? err.message : String(err));
  } finally {
    if (keepDir === undefined) rmSync(dir, { recursive: true, force: true });
  }
  return { ...(verdict === undefined ? {} : { verdict }), suspects, problems, durationMs: Date.now() - started };
}
