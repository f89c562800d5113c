// `leakhunt diff <a> <b> [more…]`: the CI snapshot diff, with gates that fail the build.

import type { Command } from 'commander';
import { diffSnapshotFiles, type DiffResult } from '../../analysis/diff/diff-series.js';
import { evaluateGates, type GateLimits, type GateResult } from '../../diagnose/gates.js';
import { labelChain } from '../../diagnose/chain-labels.js';
import { diagnose, verdictFields } from '../../diagnose/diagnose.js';
import type { Diagnosis } from '../../diagnose/finding.js';
import { buildDiffDocument } from '../../report/diff-report.js';
import { buildDiffHtml } from '../../report/html-report.js';
import { checkHtmlPath, writeHtmlReport } from '../html-output.js';
import { UsageError, ExitCode } from '../../errors.js';
import { parseCount, parseSize, parseTop } from '../parse-options.js';
import { createProgress, wantsProgress, type Progress } from '../progress.js';
import { formatOf, warn, writeResult } from '../output.js';
import type { ExitStatus, GlobalOptions } from '../global-options.js';

/** The flags diff and attach share: the report's size and format, and the gates. */
export interface SeriesReportFlags {
  top: string;
  groups: string;
  json?: boolean;
  markdown?: boolean;
  progress?: boolean;
  maxGrowth?: string;
  maxClassGrowth: string[];
  maxSurvivorSize?: string;
  unitCount?: string;
  verbose?: boolean;
}

interface DiffFlags extends SeriesReportFlags {
  failOnLeak?: boolean;
  acrossProcesses?: boolean;
  html?: string;
}

/** Survivor groups the diagnosis looks at (the report shows --groups of them; JSON has them all). */
export const DIAGNOSIS_GROUPS = 50;

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function parseClassGrowth(values: readonly string[]): Map<string, number> {
  const limits = new Map<string, number>();
  for (const v of values) {
    const m = /^(.+)=(\d+)$/.exec(v);
    if (!m) throw new UsageError(`--max-class-growth must be NAME=COUNT (e.g. RunTree=100), got "${v}"`);
    limits.set(m[1]!, Number(m[2]));
  }
  return limits;
}

export function gateLimitsOf(flags: { maxGrowth?: string; maxClassGrowth?: string[]; maxSurvivorSize?: string }): GateLimits {
  return {
    ...(flags.maxGrowth === undefined ? {} : { maxGrowth: parseSize('--max-growth', flags.maxGrowth) }),
    ...(flags.maxClassGrowth?.length ? { maxClassGrowth: parseClassGrowth(flags.maxClassGrowth) } : {}),
    ...(flags.maxSurvivorSize === undefined ? {} : { maxSurvivorSize: parseSize('--max-survivor-size', flags.maxSurvivorSize) }),
  };
}

export function addGateOptions(command: Command): Command {
  return command
    .option('--max-growth <size>', 'exit 1 when the live heap grew by more than SIZE (e.g. 1MB, 512KiB)')
    .option('--max-class-growth <name=count>', 'exit 1 when class NAME gained more than COUNT objects (repeatable)', collect, [])
    .option('--max-survivor-size <size>', 'exit 1 when objects born after the first snapshot and still alive exceed SIZE');
}

export interface DiffOptions {
  readonly groups: number;
  readonly limits: GateLimits;
  readonly acrossProcesses: boolean;
  readonly unitCount?: number;
  readonly progress?: Progress;
}

/** The diff of a series with its diagnosis and gates: `diff`'s work, shared with the MCP server. */
export async function runDiff(files: readonly string[], o: DiffOptions): Promise<{
  result: DiffResult; diagnosis: Diagnosis; gates: GateResult[]; json: DiffResult & ReturnType<typeof verdictFields> & { gates: GateResult[] };
}> {
  if (files.length < 2) throw new UsageError('diff needs at least two snapshots, oldest first');
  let label = 'reading';
  // Exposed in the relaunched process (relaunch.ts): memory the diff lets go is collected at once.
  const gc = (globalThis as { gc?: () => void }).gc;
  const collectGarbage = typeof gc === 'function' ? () => gc() : undefined;
  const result = await diffSnapshotFiles([...files], {
    groups: Math.max(o.groups, DIAGNOSIS_GROUPS),
    labelChain,
    acrossProcesses: o.acrossProcesses,
    onSnapshot: (i, n) => (label = `reading snapshot ${i + 1} of ${n}`),
    onBytes: (read, total) => o.progress?.bytes(label, read, total),
    onPhase: (phase) => o.progress?.phase(phase),
    ...(collectGarbage ? { collectGarbage } : {}),
  });
  o.progress?.done();
  const diagnosis = diagnose({ diff: result, ...(o.unitCount ? { unitCount: o.unitCount } : {}) });
  const gates = evaluateGates(result, o.limits);
  const json = { ...result, ...verdictFields(diagnosis), gates };
  return { result, diagnosis, gates, json };
}

export function registerDiff(program: Command, globals: () => GlobalOptions, status: ExitStatus): void {
  const command = program
    .command('diff')
    .argument('<snapshots...>', 'two or more .heapsnapshot files of one process (or, with --across-processes, of one service), oldest first')
    .description('compare snapshots of one process: what grew, what survived, and the path that keeps it')
    .option('--top <n|all>', 'how many growing classes to list', '20')
    .option('--groups <n>', 'how many survivor groups to show, with a chain each', '10')
    .option('--json', 'print the result as JSON (schemaVersion 1)')
    .option('--markdown', 'print Markdown, e.g. for $GITHUB_STEP_SUMMARY or a pull-request comment')
    .option('--html <file>', 'also write the report as one self-contained HTML page')
    .option('--progress', 'show progress on stderr even with --json')
    .option('--no-progress', 'never show progress')
    .option('--fail-on-leak', 'exit 1 when the verdict is "leak" or "external" (memory that grows with the work and stays)')
    .option('--across-processes', 'the snapshots are instances of one service (a leaking pod and a healthy one): compare them by retainer path and class')
    .option('--unit-count <n>', 'units of work (turns, requests) done between the first and the last snapshot, for per-unit rates')
    .option('--verbose', 'every chain in full, each finding\'s evidence and path, the new/deleted columns, and the analysis phases');
  addGateOptions(command)
    .addHelpText('after', `
Examples:
  $ leakhunt diff before.heapsnapshot after.heapsnapshot
  $ leakhunt diff s1.heapsnapshot s2.heapsnapshot s3.heapsnapshot --max-growth 1MB
  $ leakhunt diff s1.heapsnapshot s2.heapsnapshot --markdown >> "$GITHUB_STEP_SUMMARY"
  $ leakhunt diff healthy-pod.heapsnapshot leaking-pod.heapsnapshot --across-processes`)
    .action(async (files: string[], flags: DiffFlags, cmd: Command) => {
      if (files.length < 2) throw new UsageError('diff needs at least two snapshots, oldest first');
      const top = parseTop(flags.top);
      const groups = parseTop(flags.groups, '--groups');
      const limits = gateLimitsOf(flags);
      const format = formatOf(flags);
      const unitCount = flags.unitCount === undefined ? undefined : parseCount('--unit-count', flags.unitCount);
      checkHtmlPath(flags.html);
      const verbose = flags.verbose === true;
      const progress = createProgress(wantsProgress(cmd, flags.progress, format === 'text'), process.stderr, verbose);
      const { result, diagnosis, gates, json } = await runDiff(files, {
        groups, limits, acrossProcesses: flags.acrossProcesses === true, ...(unitCount ? { unitCount } : {}), progress,
      });
      if (format !== 'text') for (const w of result.warnings) warn(w);
      if (result.mode === 'classes') {
        process.stderr.write('leakhunt: hint: if these are instances of one service (or one process), --across-processes compares them by retainer path\n');
      }
      if (flags.html !== undefined) writeHtmlReport(flags.html, buildDiffHtml(json, { groups }));
      await writeResult(format, json, () => buildDiffDocument(result, gates, { top, groups, verbose }, diagnosis), globals().noColor);
      const failed = gates.filter((g) => !g.passed);
      for (const g of failed) process.stderr.write(`leakhunt: FAIL ${g.gate}: ${g.reason}\n`);
      if (failed.length > 0) status.raise(ExitCode.leak);
      if (flags.failOnLeak && (diagnosis.verdict === 'leak' || diagnosis.verdict === 'external')) {
        process.stderr.write(`leakhunt: FAIL verdict ${diagnosis.verdict}: ${diagnosis.evidence[0] ?? ''}\n`);
        status.raise(ExitCode.leak);
      }
    });
}
