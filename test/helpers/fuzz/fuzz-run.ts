// A seeded fuzz run over snapshot mutations: takes a real snapshot of a fixture program, cuts it into
// small bases, and for each case mutates one base (mutations.ts), runs it in-process on a worker thread
// (run-case.ts: analyze, retainers, diff, or one-vs-two parse threads) under a deadline and an RSS cap,
// and every `cliEvery`-th case also through the real CLI (cli-case.ts). Used by test/e2e/fuzz.test.ts
// (a few hundred cases) and scripts/fuzz.js (`npm run fuzz`, ten thousand and more).
// Case k of seed s always gets the same input from the same real snapshot: `--seed s --from k --cases 1
// --snapshot <the run's base>` replays it (the base is kept beside failing inputs).

import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadBases, writeFixtureSnapshot, type BaseSnapshot } from './base-snapshots.js';
import { judgeCliRun, runCliCase, writePeakPreload } from './cli-case.js';
import { layoutOf, mutate, type BaseLayout } from './mutations.js';
import { Random } from './prng.js';
import type { CaseCommand, CaseOutcome, CaseRequest } from './run-case.js';

export interface FuzzOptions {
  readonly seed: number;
  readonly cases: number;
  /** First case number (to replay one case: its number and `cases: 1`). */
  readonly from?: number;
  /** Every n-th case also runs through the real CLI (0: never). */
  readonly cliEvery: number;
  /** Deadline per case, in-process and through the CLI. */
  readonly timeoutMs?: number;
  /** Peak RSS allowed to a CLI run on a case (all bases are under 5 MB). */
  readonly maxCliRssBytes?: number;
  /** Peak RSS allowed to this process during an in-process case. */
  readonly maxInProcessRssBytes?: number;
  /** A real snapshot to cut the bases from, instead of taking one now. */
  readonly realSnapshot?: string;
  /** Where failing inputs are copied (none when undefined). */
  readonly keepDir?: string;
  readonly onProgress?: (done: number, report: FuzzReport) => void;
}

export interface FuzzFailure {
  readonly caseNumber: number;
  readonly base: string;
  readonly mutation: string;
  readonly command: string;
  readonly via: 'in-process' | 'cli';
  readonly problem: string;
  readonly detail: string;
  readonly savedAs?: string;
}

export interface FuzzReport {
  readonly seed: number;
  cases: number;
  cliCases: number;
  /** answered / refused / not-found counts, in-process. */
  readonly outcomes: Record<string, number>;
  readonly mutations: Record<string, number>;
  /** In-process time spent per command and first mutation ("analyze/flip"), in ms: where the run's time goes. */
  readonly msByCase: Record<string, number>;
  readonly failures: FuzzFailure[];
  /** The real snapshot the bases were cut from, kept in keepDir once a case fails (for replays). */
  baseSnapshot?: string;
  maxCaseMs: number;
  /** The slowest in-process case: its number, command and mutation. */
  slowestCase: string;
  maxCliPeakRssBytes: number;
  ms: number;
}

const CLASSES = ['Object', 'CacheEntry', 'Map', 'Array', '(closure)', 'system / Context', 'BigBlob'];
const MiB = 2 ** 20;

/** The seeded random numbers of case `k`: independent of the cases before it. */
export function caseRandom(seed: number, k: number): Random {
  return new Random((seed ^ Math.imul(k + 1, 0x9e3779b1)) >>> 0);
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-fuzz-'));
  const timeoutMs = options.timeoutMs ?? 20_000;
  const maxCliRss = options.maxCliRssBytes ?? 256 * MiB;
  const maxInProcessRss = options.maxInProcessRssBytes ?? 768 * MiB;
  const report: FuzzReport = {
    seed: options.seed, cases: 0, cliCases: 0, outcomes: {}, mutations: {}, msByCase: {}, failures: [], maxCaseMs: 0, slowestCase: '', maxCliPeakRssBytes: 0, ms: 0,
  };
  const runner = new CaseRunner();
  try {
    const real = options.realSnapshot ?? writeFixtureSnapshot(dir);
    const bases = loadBases(real);
    const prepared = [...bases.small, bases.full].map((b) => prepareBase(dir, b));
    const small = prepared.slice(0, -1);
    const full = prepared[prepared.length - 1]!;
    const preload = writePeakPreload(dir);
    const casePath = join(dir, 'case.heapsnapshot');
    const from = options.from ?? 0;
    for (let k = from; k < from + options.cases; k++) {
      const r = caseRandom(options.seed, k);
      const base = r.chance(1 / 40) ? full : r.pick(small);
      const mutated = mutate(r, base.layout);
      const command = r.pick<CaseCommand>(['analyze', 'analyze', 'analyze', 'analyze', 'analyze', 'retainers', 'diff', 'threads']);
      const className = r.pick(CLASSES);
      writeFileSync(casePath, mutated.bytes, { mode: 0o600 });
      report.mutations[mutated.kind] = (report.mutations[mutated.kind] ?? 0) + 1;
      const fail = (via: FuzzFailure['via'], problem: string, detail: string): void => {
        let savedAs: string | undefined;
        if (options.keepDir) {
          // The bases are cut from this run's own snapshot: a replay needs it (--snapshot).
          report.baseSnapshot ??= join(options.keepDir, `fuzz-${options.seed}-base.heapsnapshot`);
          if (!existsSync(report.baseSnapshot)) copyFileSync(real, report.baseSnapshot);
          savedAs = join(options.keepDir, `fuzz-${options.seed}-${k}.heapsnapshot`);
          writeFileSync(savedAs, mutated.bytes, { mode: 0o600 });
        }
        report.failures.push({ caseNumber: k, base: base.name, mutation: mutated.kind, command, via, problem, detail, ...(savedAs ? { savedAs } : {}) });
      };

      const req: CaseRequest = { command, path: casePath, basePath: base.path, className };
      const result = await runner.run(req, timeoutMs);
      if (result.ms > report.maxCaseMs) {
        report.maxCaseMs = result.ms;
        report.slowestCase = `case ${k} (${command}, base ${base.name}, ${mutated.kind})`;
      }
      const slot = `${command}/${mutated.kind.split('+')[0]}`;
      report.msByCase[slot] = (report.msByCase[slot] ?? 0) + result.ms;
      if (result.timedOut) fail('in-process', 'no answer within the deadline', `${timeoutMs} ms`);
      else {
        const o = result.outcome!;
        report.outcomes[o.outcome] = (report.outcomes[o.outcome] ?? 0) + 1;
        if (o.outcome === 'failed') fail('in-process', o.problem, o.detail);
        else if (result.peakRssBytes! > maxInProcessRss) {
          fail('in-process', 'peak RSS over the cap', `${Math.round(result.peakRssBytes! / MiB)} MiB > ${Math.round(maxInProcessRss / MiB)} MiB`);
        }
      }

      if (options.cliEvery > 0 && k % options.cliEvery === 0) {
        const cliCommand = command === 'threads' ? 'analyze' : command;
        const args = cliCommand === 'diff'
          ? ['diff', base.path, casePath, '--json']
          : cliCommand === 'retainers'
            ? ['retainers', casePath, '--class', className, '--json']
            : ['analyze', casePath, ...(r.chance(0.5) ? ['--json'] : [])];
        const run = await runCliCase(args, { preload, dir, timeoutMs });
        report.cliCases++;
        report.maxCliPeakRssBytes = Math.max(report.maxCliPeakRssBytes, run.peakRssBytes ?? 0);
        const problem = judgeCliRun(run, casePath, args, maxCliRss);
        if (problem) fail('cli', problem, `leakhunt ${args.join(' ')}: exit ${run.code}\n${run.stderr.slice(0, 2000)}`);
      }
      report.cases++;
      if (options.onProgress && (k - from + 1) % 500 === 0) options.onProgress(k - from + 1, report);
    }
  } finally {
    await runner.stop();
    rmSync(dir, { recursive: true, force: true });
    report.ms = Date.now() - started;
  }
  return report;
}

interface PreparedBase {
  readonly name: string;
  readonly path: string;
  readonly layout: BaseLayout;
}

function prepareBase(dir: string, base: BaseSnapshot): PreparedBase {
  const path = join(dir, `${base.name}.heapsnapshot`);
  writeFileSync(path, base.bytes, { mode: 0o600 });
  return { name: base.name, path, layout: layoutOf(base.bytes) };
}

interface RunnerResult {
  readonly timedOut: boolean;
  readonly outcome?: CaseOutcome;
  readonly peakRssBytes?: number;
  readonly ms: number;
}

/** The worker thread that runs cases in-process; replaced by a fresh one after a case times out. */
class CaseRunner {
  #worker: Worker | undefined;
  #seq = 0;

  async run(req: CaseRequest, timeoutMs: number): Promise<RunnerResult> {
    const worker = (this.#worker ??= new Worker(new URL('./fuzz-worker.js', import.meta.url)));
    const seq = ++this.#seq;
    const started = Date.now();
    return new Promise((resolve) => {
      const done = (result: RunnerResult): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        resolve(result);
      };
      const onMessage = (m: { seq: number; outcome: CaseOutcome; peakRssBytes: number; ms: number }): void => {
        if (m.seq === seq) done({ timedOut: false, outcome: m.outcome, peakRssBytes: m.peakRssBytes, ms: m.ms });
      };
      const onError = (e: Error): void => {
        this.#worker = undefined;
        done({ timedOut: false, outcome: { outcome: 'failed', problem: `worker died: ${e.name}`, detail: e.stack ?? e.message }, peakRssBytes: 0, ms: Date.now() - started });
      };
      const timer = setTimeout(() => {
        this.#worker = undefined;
        void worker.terminate();
        done({ timedOut: true, ms: Date.now() - started });
      }, timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ ...req, seq });
    });
  }

  async stop(): Promise<void> {
    await this.#worker?.terminate();
    this.#worker = undefined;
  }
}
