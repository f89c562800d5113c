// `leakhunt report <attach-out-dir>`: the HTML report of a finished (or interrupted) attach, rebuilt from
// its directory: the snapshots and the JSON written beside each (capture.ts), put through the same diff
// and diagnosis attach runs after its capture; the memory samples and capture facts come from the
// result.json attach writes at its end (absent after an interrupted capture: then the timeline shows the
// readings taken with each snapshot). With --json it prints that result instead, the object `attach --json`
// prints: today's diagnosis of a capture kept from an earlier run (the evaluation's --replay reads it).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Command } from 'commander';
import { diffSnapshotFiles } from '../../analysis/diff/diff-series.js';
import type { CapturedSnapshot } from '../../attach/capture.js';
import { labelChain } from '../../diagnose/chain-labels.js';
import { UsageError } from '../../errors.js';
import { buildAttachDocument, type AttachOutput } from '../../report/attach-report.js';
import { buildAttachHtml } from '../../report/html-report.js';
import type { ExitStatus, GlobalOptions } from '../global-options.js';
import { checkHtmlPath, writeHtmlReport } from '../html-output.js';
import { warn, writeResult } from '../output.js';
import { parseTop } from '../parse-options.js';
import { createProgress, wantsProgress } from '../progress.js';
import { DIAGNOSIS_GROUPS } from './diff.js';
import { buildSeriesOutput } from './series-output.js';

interface ReportFlags {
  html?: string;
  json?: boolean;
  groups: string;
  progress?: boolean;
}

/** What capture.ts writes beside each snapshot (its CapturedSnapshot plus the target's pid and Node version). */
interface SnapshotMeta extends CapturedSnapshot {
  readonly pid?: number;
  readonly nodeVersion?: string;
}

function readJson<T>(path: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (err) {
    throw new UsageError(`cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The series in `dir`, in capture order, with each snapshot's path as it is now (the directory may have moved). */
function seriesIn(dir: string): SnapshotMeta[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new UsageError(`cannot read the directory ${dir}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const metas = names
    .filter((n) => n.endsWith('.heapsnapshot') && names.includes(`${n.slice(0, -'.heapsnapshot'.length)}.json`))
    .map((n) => {
      const metaFile = join(dir, `${n.slice(0, -'.heapsnapshot'.length)}.json`);
      const meta = readJson<SnapshotMeta>(metaFile);
      return { ...meta, file: join(dir, n), metaFile };
    })
    .filter((m) => typeof m.index === 'number' && typeof m.takenAt === 'string')
    .sort((a, b) => a.index - b.index);
  if (metas.length < 2) throw new UsageError(`${dir} holds ${metas.length} snapshot(s) of an attach (<pid>-<n>.heapsnapshot with its .json): a report needs two`);
  return metas;
}

export function registerReport(program: Command, globals: () => GlobalOptions, _status: ExitStatus): void {
  program
    .command('report')
    .argument('<dir>', 'the --out directory of an attach: its snapshots, the JSON beside each, and result.json')
    .description('rebuild the HTML report of an attach from its output directory')
    .option('--html <file>', 'where the page goes (default: <dir>/report.html)')
    .option('--json', 'print the result as JSON (what attach --json prints) instead of writing the page')
    .option('--groups <n>', 'how many survivor groups to show, with a chain each', '10')
    .option('--progress', 'show progress on stderr even when not a terminal')
    .option('--no-progress', 'never show progress')
    .addHelpText('after', `
Examples:
  $ leakhunt report ./leakhunt-4242-20260101-120000
  $ leakhunt report ./incident-17 --html incident-17.html
  $ leakhunt report ./incident-17 --json          the diagnosis of this build, as attach --json prints it`)
    .action(async (dir: string, flags: ReportFlags, cmd: Command) => {
      if (flags.json && flags.html !== undefined) throw new UsageError('--json and --html do not go together: the page is written without --json');
      const htmlPath = flags.html ?? join(dir, 'report.html');
      const groups = parseTop(flags.groups, '--groups');
      if (!flags.json) checkHtmlPath(htmlPath);
      const kept = seriesIn(dir);
      const resultFile = join(dir, 'result.json');
      const earlier = existsSync(resultFile) ? readJson<AttachOutput>(resultFile) : undefined;
      if (!earlier) warn(`${resultFile} is missing (an interrupted capture?): no memory samples; the timeline shows the readings taken with each snapshot`);
      const progress = createProgress(wantsProgress(cmd, flags.progress, !flags.json));
      let label = 'reading';
      const diff = await diffSnapshotFiles(kept.map((s) => s.file), {
        groups: DIAGNOSIS_GROUPS,
        labelChain,
        onSnapshot: (i, n) => (label = `analysing snapshot ${i + 1} of ${n}`),
        onBytes: (read, total) => progress.bytes(label, read, total),
        onPhase: (phase) => progress.phase(phase),
      });
      progress.done();
      // The diagnosis attach runs after its capture; without result.json, the work is the counter's advance.
      const first = kept[0]!;
      const last = kept[kept.length - 1]!;
      const counterUnits = first.counter !== undefined && last.counter !== undefined ? last.counter - first.counter : undefined;
      const unitCount = earlier?.capture.unitCount ?? (counterUnits && counterUnits > 0 ? { count: counterUnits, source: 'counter' as const } : undefined);
      const { output, diagnosis } = buildSeriesOutput({
        diff,
        kept,
        samples: earlier?.samples ?? [],
        ...(unitCount ? { unitCount } : {}),
        ...(earlier ? { gates: earlier.gates } : {}),
        target: earlier?.target ?? { pid: first.pid ?? Number(basename(first.file).split('-')[0]), nodeVersion: first.nodeVersion ?? diff.snapshots[0]?.nodeVersion ?? '?' },
        capture: earlier?.capture ?? {
          outDir: dir,
          requested: kept.length,
          taken: kept.length,
          intervalFrom: 'previous-snapshot-end',
          ...(unitCount ? { unitCount } : {}),
          sampleEveryMs: 0,
          endedBy: 'signal', // not known without result.json: the page does not show it (captureKnown)
          inspector: { host: '?', port: 0, how: 'sigusr1', openedByUs: false, inspectorClosed: false, note: 'not recorded (no result.json)' },
        },
        warnings: earlier?.warnings ?? [],
        leakhunt: earlier?.leakhunt ?? { captureRssPeak: 0 },
      });
      if (flags.json) {
        await writeResult('json', output, () => buildAttachDocument(output, { top: groups, groups }, diagnosis), globals().noColor);
        return;
      }
      process.stdout.write(`${writeHtmlReport(htmlPath, buildAttachHtml(output, { groups, captureKnown: earlier !== undefined }))}\n`);
    });
}
