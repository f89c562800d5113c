// `leakhunt attach <pid>`: preflight plan, inspector opened safely, memory samples and N snapshots paced
// by running time or by a work counter in the target (attach-pacing.ts), detach, then the diff pipeline
// over the captured series with diff's reporting and gates, plus the memory timeline. The capture keeps leakhunt's RSS small (chunks go straight to disk); the
// analysis afterwards is measured and reported apart.

import { join } from 'node:path';
import type { Command } from 'commander';
import { diffSnapshotFiles } from '../../analysis/diff/diff-series.js';
import { startAllocationTracking, type AllocationTracking } from '../../attach/allocation-tracking.js';
import { captureSeries, snapshotMethodFor, type CaptureResult } from '../../attach/capture.js';
import type { InspectorEndpoint } from '../../attach/inspector-port.js';
import { checkCounter } from '../../attach/counter.js';
import type { OpenedTarget } from '../../attach/open-target.js';
import { readProcStatus, resetPeakRss } from '../../attach/proc-status.js';
import type { DetachReport } from '../../attach/session.js';
import { checkOutputDir, type OutputPlace } from '../../attach/output-place.js';
import { prepareOutputDir, writePrivateJson } from '../../attach/snapshot-file.js';
import { evaluateGates } from '../../diagnose/gates.js';
import { labelChain } from '../../diagnose/chain-labels.js';
import { verdictFields } from '../../diagnose/diagnose.js';
import { diagnoseCapture } from '../../diagnose/diagnose-capture.js';
import { AttachError, ExitCode, OutputError } from '../../errors.js';
import { buildAttachDocument, methodText, type AttachOutput } from '../../report/attach-report.js';
import { buildAttachHtml } from '../../report/html-report.js';
import { checkHtmlPath, writeHtmlReport } from '../html-output.js';
import { formatOf, warn, writeResult } from '../output.js';
import { parseDuration, parseTop } from '../parse-options.js';
import { pacingOf, pacingText, unitCountOf, type PacingFlags } from './attach-pacing.js';
import { createProgress, wantsProgress } from '../progress.js';
import type { ExitStatus, GlobalOptions } from '../global-options.js';
import { addGateOptions, DIAGNOSIS_GROUPS, gateLimitsOf, type SeriesReportFlags } from './diff.js';
import {
  addTargetOptions, assessSnapshot, installStopSignals, leftBehind, openWithPlan, printLines, targetAddressOf, type TargetFlags,
} from './attach-common.js';
import { createCaptureProgress } from './attach-progress.js';
import { trackingPlanLines } from './attach-tracking.js';
import { assessDiskSpace, refuseBeforeSignal } from './output-checks.js';
import { DEFAULT_MAX_SNAPSHOTS, FIRST_SNAPSHOTS, seriesPlanOf, seriesPlanText, settleOption, type SettleFlags } from './attach-settle.js';
import type { MemorySample } from '../../attach/memory-sampler.js';

interface AttachFlags extends TargetFlags, SeriesReportFlags, PacingFlags, SettleFlags {
  sampleEvery: string;
  out?: string;
  force?: boolean;
  verbose?: boolean;
  html?: string;
  traceAllocations?: boolean;
}

function defaultOutDir(pid: number): string {
  const d = new Date();
  const p = (n: number): string => String(n).padStart(2, '0');
  return `./leakhunt-${pid}-${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

/** The files a series of `count` writes into `outDir` (capture.ts names them): never replaced without --force. */
function seriesFiles(outDir: string, stem: string, count: number): string[] {
  const files: string[] = [];
  for (let n = 1; n <= count; n++) files.push(join(outDir, `${stem}-${n}.heapsnapshot`), join(outDir, `${stem}-${n}.json`));
  return files;
}

export function registerAttach(program: Command, globals: () => GlobalOptions, status: ExitStatus): void {
  const command = program
    .command('attach')
    .argument('[pid]', 'the Node.js process (not needed with --port / --ws)')
    .description('attach to a running Node process: memory timeline, heap snapshots at intervals, what grows and what holds it')
    .option('--snapshots <n>', `take exactly this many snapshots (default: ${FIRST_SNAPSHOTS}, then one more while the verdict is inconclusive, up to --max-snapshots)`)
    .option('--max-snapshots <n>', `without --snapshots: the most to take while the verdict is unsettled (default ${DEFAULT_MAX_SNAPSHOTS})`)
    .option('--max-time <duration>', 'without --snapshots: start no snapshot after this long from the first (e.g. 10m)')
    .option('--interval <duration>', 'running time the target gets between snapshots, from the end of one to the start of the next (e.g. 15s, 5m; default 60s); with --every, the longest wait (default 10m)')
    .option('--counter <expression>', 'a JavaScript expression read in the target before each snapshot (side effects are refused; e.g. globalThis.turns): per-unit rates over how far it advanced')
    .option('--every <n>', 'take the next snapshot once --counter advanced by n (polled at --sample-every)')
    .option('--sample-every <duration>', 'time between memory samples (and counter polls with --every)', '1s')
    .option('--out <dir>', 'where the snapshots go (created 0700; default ./leakhunt-<pid>-<time>); a directory already holding this pid\'s <pid>-<n>.heapsnapshot files is refused')
    .option('--force', 'take snapshots even when the memory headroom or disk space check fails, and replace files of an earlier run in --out (never overrides the signal checks)')
    .option('--top <n|all>', 'how many growing classes to list', '20')
    .option('--groups <n>', 'how many survivor groups to show, with a chain each', '10')
    .option('--json', 'print the result as JSON: diff\'s object plus target, samples, snapshots, capture')
    .option('--markdown', 'print Markdown')
    .option('--trace-allocations', 'track allocations from the first snapshot on: each finding names the line of your code that made its objects (costs throughput while it runs: the plan says how much)')
    .option('--html <file>', 'also write the report as one self-contained HTML page (rebuild it later: leakhunt report <out dir>)')
    .option('--progress', 'show progress on stderr even with --json')
    .option('--no-progress', 'never show progress')
    .option('--verbose', 'the whole plan, each snapshot\'s measured cost, the analysis phases, and every chain in full')
    .option('--unit-count <n>', 'units of work (turns, requests) the target did between the first and the last snapshot, for per-unit rates (overrides --counter)');
  addTargetOptions(addGateOptions(command))
    .addHelpText('after', `
Examples:
  $ leakhunt attach 4242                               3 snapshots, a minute of running time between them; then what grew and what holds it
  $ leakhunt attach 4242 --snapshots 4 --interval 5m --out ./incident-17
  $ leakhunt attach 4242 --interval 15s --json > attach.json
  $ leakhunt attach 4242 --counter 'globalThis.turns' --every 50
                                                       a snapshot every 50 turns of the agent; rates per turn
  $ leakhunt attach 4242 --counter 'globalThis.turns' --every 50 --interval 10m
                                                       … but never more than 10 minutes apart (then: a warning)
  $ leakhunt attach 4242 --counter 'app.stats.requests' --interval 2m
                                                       2 minutes apart; rates per request
  $ leakhunt attach --port 9229 --interval 30s        an inspector already listening (e.g. kubectl port-forward)

The interval is running time: it counts from the end of one snapshot (which pauses the target) to the
start of the next. --counter is evaluated in the target over the inspector with V8's side-effect check
(an expression that could change anything, e.g. an assignment or a call V8 cannot prove pure, is
refused; a read is stopped after 500 ms); it must give a finite number, and its advance from the first
snapshot to the last is the unit count for per-unit rates.

The target is left as it was found: an inspector leakhunt opened with SIGUSR1 is closed again
(Ctrl-C and errors included); one that was already open stays open. Each snapshot pauses the target;
the plan printed first says for about how long.`)
    .action(async (pidArg: string | undefined, flags: AttachFlags, cmd: Command) => {
      const address = targetAddressOf(pidArg, flags);
      const plan = seriesPlanOf(flags);
      const count = plan.most;
      const pacing = pacingOf(flags);
      const sampleEveryMs = Math.max(100, parseDuration('--sample-every', flags.sampleEvery));
      const top = parseTop(flags.top);
      const groups = parseTop(flags.groups, '--groups');
      const limits = gateLimitsOf(flags);
      const format = formatOf(flags);
      const showProgress = wantsProgress(cmd, flags.progress, format === 'text');
      const force = flags.force === true;
      const verbose = flags.verbose === true;
      // Where the files go is checked before any signal when the pid is known (it names them).
      let outDir = flags.out ?? (address.pid === undefined ? '' : defaultOutDir(address.pid));
      const placeOf = (stem: string): OutputPlace => checkOutputDir(outDir, seriesFiles(outDir, stem, count));
      if (address.pid !== undefined) refuseBeforeSignal(placeOf(String(address.pid)), force, '--out');
      checkHtmlPath(flags.html, outDir);
      // The short plan leaves out what each snapshot line says again (the directory) and the sampling.
      const work = verbose
        ? `${pacingText(pacing, seriesPlanText(plan, undefined), flags.interval)}; memory samples every ${flags.sampleEvery}; into ${outDir || defaultOutDir(0)}`
        : pacingText(pacing, seriesPlanText(plan, undefined), flags.interval, true);
      const seen: { endpoint?: InspectorEndpoint } = {};
      let opened: OpenedTarget | undefined;
      const stop = installStopSignals('the capture', () => leftBehind(opened?.session, seen, address.pid));
      let capture: CaptureResult | undefined;
      let detach: DetachReport | undefined;
      let tracking: AllocationTracking | undefined;
      const written: string[] = []; // complete snapshots, as they are taken
      const progress = createCaptureProgress(showProgress, count, process.stderr, verbose);
      try {
        opened = await openWithPlan(address, work, seen, verbose);
        const { session } = opened;
        try {
          if (!stop.signal.aborted) {
            const { estimate } = assessSnapshot(opened, force, verbose);
            progress.expect(estimate);
            const stem = String(address.pid ?? session.info.pid);
            if (address.pid === undefined) {
              outDir ||= defaultOutDir(session.info.pid);
              refuseBeforeSignal(placeOf(stem), force, '--out');
            }
            assessDiskSpace(placeOf(stem), estimate, count, force, '--out', verbose); // free space now, with the heap known
            if (pacing.counter) {
              // The first read, before any directory or snapshot: a bad expression is a usage error (exit 2), detached by the finally below.
              const value = await checkCounter(session, pacing.counter.expression);
              printLines([`  counter    ${pacing.counter.expression} = ${value} (read without side effects)`]);
            }
            const dir = prepareOutputDir(outDir);
            if (dir.warning) warn(dir.warning);
            if (verbose) printLines([`  method     ${methodText(snapshotMethodFor(session, join(outDir, `${stem}-1.heapsnapshot`), address.pid))}`]);
            if (flags.traceAllocations) printLines(trackingPlanLines(verbose));
            const samples: MemorySample[] = [];
            try {
              capture = await captureSeries({
                ...settleOption(plan, () => samples, Date.now()),
                session,
                ...(address.pid === undefined ? {} : { pid: address.pid }),
                outDir,
                stem,
                snapshots: count,
                ...pacing,
                sampleEveryMs,
                signal: stop.signal,
                ...(flags.traceAllocations ? { afterFirst: async () => void (tracking = await startAllocationTracking(session)) } : {}),
                events: {
                  ...progress,
                  onSample: (s) => {
                    samples.push(s);
                    progress.onSample?.(s);
                  },
                  onSnapshot: (s) => {
                    written.push(s.file);
                    progress.onSnapshot?.(s);
                  },
                  onWarning: (w) => progress.note(`warning: ${w}`),
                },
              });
            } catch (err) {
              // A full disk part way: say what is whole on disk (the snapshot being written is gone).
              if (!(err instanceof OutputError) || written.length === 0) throw err;
              throw new OutputError(err.path, `${err.message}; ${written.length} complete snapshot(s) of ${count} kept in ${outDir}`, {
                ...(err.code ? { code: err.code } : {}),
                ...(err.bytesWritten === undefined ? {} : { bytesWritten: err.bytesWritten }),
              });
            }
          }
        } finally {
          progress.done();
          if (tracking) await tracking.stop().catch((err: unknown) => warn(`allocation tracking in pid ${session.info.pid} could not be turned off: ${(err as Error).message} (the end of the session turns it off)`));
          detach = await session.detach();
          // In a log one line says the analysis starts (its progress lines there are --verbose only).
          const analysing = showProgress && !verbose && !process.stderr.isTTY && !stop.signal.aborted && capture && capture.snapshots.length >= 2
            ? `analysing the ${capture.snapshots.length} snapshots` : undefined;
          if (!detach.inspectorClosed && detach.openedByUs) warn(`the inspector of pid ${session.info.pid} ${detach.note}`);
          if (detach.inspectorClosed && detach.openedByUs) process.stderr.write(`leakhunt: inspector: ${detach.note}${analysing ? `; ${analysing}` : ''}\n`);
          else if (analysing) process.stderr.write(`leakhunt: ${analysing}\n`);
        }
      } finally {
        stop.dispose();
      }
      const kept = capture?.snapshots ?? [];
      if (stop.signal.aborted) {
        process.stderr.write(`leakhunt: stopped by ${String(stop.signal.reason)}: the snapshot in progress was removed; ${kept.length} complete snapshot(s) kept${kept.length ? ` in ${outDir}` : ''}\n`);
        status.raise(stop.exitCode());
        return;
      }
      if (!capture || !detach || !opened) return;
      if (capture.endedBy === 'target-exited') warn(`pid ${opened.session.info.pid} exited during the capture: ${kept.length} of ${count} snapshots were taken${kept.length ? ` (kept in ${outDir})` : ''}`);
      if (capture.endedBy === 'connection-lost') warn(`the inspector connection closed during the capture (the process still runs): ${kept.length} of ${count} snapshots were taken`);
      if (kept.length < 2) throw new AttachError(`only ${kept.length} snapshot(s) captured${kept.length ? ` (${kept[0]!.file})` : ''}: a diff needs two`);

      const captureRssPeak = readProcStatus('self').peakRssBytes;
      const peakReset = resetPeakRss();
      // A terminal gets a live line; a log only the phases with --verbose (the detach line said it started).
      const analysisProgress = createProgress(showProgress && (process.stderr.isTTY === true || verbose), process.stderr, verbose);
      let label = 'reading';
      const diff = await diffSnapshotFiles(kept.map((s) => s.file), {
        groups: Math.max(groups, DIAGNOSIS_GROUPS),
        labelChain,
        // In a log one line says the analysis started; on a terminal (or with --verbose) one per snapshot.
        onSnapshot: (i, n) => (label = process.stderr.isTTY || verbose ? `analysing snapshot ${i + 1} of ${n}` : `analysing the ${n} snapshots`),
        onBytes: (read, total) => analysisProgress.bytes(label, read, total),
        onPhase: (phase) => analysisProgress.phase(phase),
      });
      analysisProgress.done();
      const analysisRssPeak = readProcStatus('self').peakRssBytes;
      const gates = evaluateGates(diff, limits);
      const units = unitCountOf(flags, kept);
      if (units.warning) warn(units.warning);
      const diagnosis = diagnoseCapture(diff, kept, capture.samples, units.unitCount?.count);
      const byFile = new Map(kept.map((s) => [s.file, s]));
      const output: AttachOutput = {
        ...diff,
        gates,
        snapshots: diff.snapshots.map((info) => {
          const { file: _file, ...captured } = byFile.get(info.file) ?? { file: info.file };
          return { ...info, ...captured };
        }),
        target: { pid: opened.session.info.pid, nodeVersion: opened.session.info.nodeVersion },
        samples: capture.samples,
        capture: {
          outDir,
          requested: count,
          taken: kept.length,
          ...(pacing.intervalMs === undefined ? {} : { intervalMs: pacing.intervalMs }),
          intervalFrom: 'previous-snapshot-end',
          ...(pacing.counter ? { counter: { ...pacing.counter, ...(units.counterUnits === undefined ? {} : { units: units.counterUnits }) } } : {}),
          ...(units.unitCount ? { unitCount: units.unitCount } : {}),
          sampleEveryMs,
          endedBy: capture.endedBy,
          ...(tracking ? { allocationTracking: { startPauseMs: tracking.startPauseMs, stopped: tracking.stopped, compaction: tracking.compaction } } : {}),
          inspector: { host: opened.session.endpoint.host, port: opened.session.endpoint.port, how: opened.session.endpoint.how, ...detach },
        },
        ...verdictFields(diagnosis),
        warnings: [...diff.warnings, ...capture.warnings, ...(units.warning ? [units.warning] : [])],
        leakhunt: { captureRssPeak, ...(peakReset ? { analysisRssPeak } : {}) },
      };
      if (format !== 'text') for (const w of diff.warnings) warn(w);
      await writeResult(format, output, () => buildAttachDocument(output, { top, groups, verbose }, diagnosis), globals().noColor);
      writePrivateJson(join(outDir, 'result.json'), output); // what `leakhunt report <out dir>` reads the samples and capture facts from
      if (flags.html !== undefined) writeHtmlReport(flags.html, buildAttachHtml(output, { groups }));
      const failed = gates.filter((g) => !g.passed);
      for (const g of failed) process.stderr.write(`leakhunt: FAIL ${g.gate}: ${g.reason}\n`);
      const grows = diagnosis.verdict === 'leak' || diagnosis.verdict === 'external';
      // Text output opens with the verdict; JSON and Markdown get it on stderr as well.
      if (grows && format !== 'text') process.stderr.write(`leakhunt: ${diagnosis.verdict.toUpperCase()}: ${diagnosis.evidence[0] ?? ''}\n`);
      if (failed.length > 0 || grows) status.raise(ExitCode.leak);
    });
}
