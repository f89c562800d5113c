// Runs a set of drawn programs (or re-judges kept captures) and renders what the eval prints: the seed,
// the confusion matrix, detection by kept rate and by kept bytes, the false alarms, and one line per
// wrong or inconclusive program with its params and the command that replays it. Shared by
// scripts/eval.js (npm run eval, and its --sample).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeProgram, drawProgram, formatBytes, keptPerInterval, truthOf, type DrawOptions, type ProgramParams } from './draw.js';
import { ALARMS, judge, type ProgramResult, type Summary } from './judge.js';
import { replayProgram, runProgram, type ProgramRun } from './run-program.js';

export interface EvalOptions {
  readonly seed: number;
  readonly indexes: readonly number[];
  readonly node: string;
  readonly concurrency: number;
  readonly draw?: DrawOptions;
  /** Keep each program's capture under `<keepDir>/<index>/`. */
  readonly keepDir?: string;
  readonly onResult?: (r: ProgramResult, done: number, total: number) => void;
}

export function resultOf(params: ProgramParams, run: ProgramRun): ProgramResult {
  const judged = judge(params, run.answer, run.problems, run.keptObserved);
  return {
    params,
    truth: truthOf(params),
    verdict: run.answer?.verdict ?? null,
    right: judged.judgement === 'right',
    judgement: judged.judgement,
    reasons: judged.reasons,
    exitCode: run.answer?.exitCode ?? null,
    findings: run.answer?.findings ?? [],
    evidence: run.answer?.evidence ?? [],
    problems: run.problems,
    durationMs: run.durationMs,
    keptObserved: run.keptObserved ?? null,
  };
}

/** Runs `jobs` with at most `concurrency` at once, results in input order. */
export async function inPool<T, R>(jobs: readonly T[], concurrency: number, work: (job: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const k = next++;
      results[k] = await work(jobs[k]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, jobs.length)) }, worker));
  return results;
}

export async function evaluatePrograms(o: EvalOptions): Promise<ProgramResult[]> {
  let done = 0;
  return inPool(o.indexes, o.concurrency, async (index) => {
    const params = drawProgram(o.seed, index, o.draw);
    const run = await runProgram(params, o.node, o.keepDir === undefined ? undefined : join(o.keepDir, String(index)));
    const r = resultOf(params, run);
    o.onResult?.(r, ++done, o.indexes.length);
    return r;
  });
}

/** The kept programs of an earlier run (`--keep <dir>`), re-diagnosed by this build with `leakhunt report --json`. */
export async function replayKept(dir: string, concurrency: number, onResult?: EvalOptions['onResult'], only?: number): Promise<ProgramResult[]> {
  const indexes = readdirSync(dir)
    .filter((n) => /^\d+$/.test(n) && existsSync(join(dir, n, 'params.json')) && existsSync(join(dir, n, 'capture')))
    .map(Number)
    .filter((k) => only === undefined || k === only)
    .sort((a, b) => a - b);
  let done = 0;
  return inPool(indexes, concurrency, async (index) => {
    const params = JSON.parse(readFileSync(join(dir, String(index), 'params.json'), 'utf8')) as ProgramParams;
    const r = resultOf(params, await replayProgram(join(dir, String(index)), params));
    onResult?.(r, ++done, indexes.length);
    return r;
  });
}

export function replayCommand(seed: number, index: number, extra = ''): string {
  return `npm run eval -- --seed ${seed} --only ${index}${extra}`;
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);

/**
 * The printed report: plain text lines. `replay(k)` is the command that replays program k: by seed on the
 * generator's commit, or from a kept capture (`--replay <dir> --only k`).
 */
export function renderReport(seed: number, results: readonly ProgramResult[], summary: Summary, replay: (index: number) => string): string[] {
  const lines: string[] = [];
  lines.push(`seed ${seed} · ${summary.counts.programs} programs · ${summary.counts.right} right, ${summary.counts.wrong} wrong, ${summary.counts.inconclusive} inconclusive`);
  lines.push('');
  const truths = ['leak', 'external', 'native', 'backlog', 'none'].filter((t) => summary.confusion[t]);
  const verdicts = ['leak', 'external', 'native', 'backlog', 'warm-up', 'none', 'inconclusive', 'error'];
  for (const row of Object.values(summary.confusion)) for (const v of Object.keys(row)) if (!verdicts.includes(v)) verdicts.push(v);
  const cols = verdicts.filter((v) => truths.some((t) => summary.confusion[t]![v]));
  lines.push('confusion (rows: truth, columns: verdict)');
  const table = [['truth \\ verdict', ...cols, 'total'], ...truths.map((t) => {
    const row = summary.confusion[t]!;
    return [t, ...cols.map((c) => String(row[c] ?? 0)), String(Object.values(row).reduce((a, b) => a + b, 0))];
  })];
  lines.push(...renderTable(table));
  lines.push('');
  lines.push(`detection (leak, external, native answered right): ${pct(summary.detectionRate)}; kept ≥ 5/interval and ≥ 16 KiB/interval during the capture: ${pct(summary.detectionRateAboveLimit)} (drawn at that rate: ${pct(summary.detectionRateAboveDrawnLimit)})`);
  lines.push(`false alarms (leak/external/native/backlog on a program that keeps nothing): ${pct(summary.falseAlarmRate)}`);
  lines.push(`inconclusive: ${pct(summary.inconclusiveRate)}`);
  lines.push('');
  lines.push('detection by kept rate and by kept bytes during the capture (programs with a leak)');
  lines.push(...renderTable([['kept a interval', 'programs', 'detected', 'rate'],
    ...[...summary.byRate, ...summary.byBytes].map((b) => [b.bucket, String(b.programs), String(b.detected), b.programs ? pct(b.detected / b.programs) : '-'])]));
  lines.push('');
  lines.push('by fault kind (the family a program was drawn as; its healthy twins and draining sides included)');
  const share = (n: number, of: number) => (of ? `${n}/${of} (${pct(n / of)})` : '-');
  lines.push(...renderTable([['fault', 'programs', 'right', 'detected', 'detected above the limit'],
    ...summary.byFault.map((f) => [f.fault, String(f.programs), share(f.right, f.programs), share(f.detected, f.leaks), share(f.detectedAboveLimit, f.aboveLimit)])]));
  const alarms = results.filter((r) => r.truth === 'none' && r.verdict !== null && ALARMS.has(r.verdict));
  lines.push('');
  lines.push(`false alarms: ${alarms.length === 0 ? 'none' : alarms.map((r) => `#${r.params.index} (${r.verdict})`).join(', ')}`);
  const notRight = results.filter((r) => r.judgement !== 'right');
  if (notRight.length) {
    lines.push('');
    lines.push('wrong and inconclusive programs:');
    for (const r of notRight) {
      const kept = keptPerInterval(r.params, r.keptObserved ?? undefined);
      const top = r.findings[0] ? `; top finding ${r.findings[0].kind} ${r.findings[0].className}` : '';
      lines.push(`  ${r.judgement.toUpperCase()} #${r.params.index}: truth ${r.truth}, verdict ${r.verdict ?? 'none given'}${top} — ${r.reasons.join('; ')}`);
      const seen = r.keptObserved === null ? '' : ` · kept ${r.keptObserved.toFixed(1)}/interval during the capture`;
      lines.push(`    ${describeProgram(r.params)}${kept.count ? ` · ${formatBytes(kept.bytes)}/interval` : ''}${seen}`);
      lines.push(`    replay: ${replay(r.params.index)}`);
    }
  }
  return lines;
}

function renderTable(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, k) => Math.max(...rows.map((r) => r[k]!.length)));
  return rows.map((r) => `  ${r.map((c, k) => (k === 0 ? c.padEnd(widths[k]!) : c.padStart(widths[k]!))).join('  ')}`);
}

/** What --json writes. */
export function jsonReport(seed: number, results: readonly ProgramResult[], summary: Summary, extra: Record<string, unknown>): unknown {
  return {
    seed,
    ...extra,
    programs: results.map((r) => ({
      params: r.params, truth: r.truth, verdict: r.verdict, right: r.right, judgement: r.judgement, reasons: r.reasons,
      exitCode: r.exitCode, findings: r.findings.slice(0, 5), evidence: r.evidence.slice(0, 3), problems: r.problems, durationMs: r.durationMs,
      keptObserved: r.keptObserved,
    })),
    confusion: summary.confusion,
    falseAlarmRate: summary.falseAlarmRate,
    detectionRate: summary.detectionRate,
    detectionRateAboveLimit: summary.detectionRateAboveLimit,
    detectionRateAboveDrawnLimit: summary.detectionRateAboveDrawnLimit,
    inconclusiveRate: summary.inconclusiveRate,
    byRate: summary.byRate,
    byBytes: summary.byBytes,
    byFault: summary.byFault,
  };
}
