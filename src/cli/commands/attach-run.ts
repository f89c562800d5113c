// The work of `leakhunt attach` once its options are read: open the target with the plan on stderr,
// capture the series, detach, analyse, and build the result (series-output.ts); result.json goes into
// the output directory and the HTML page where asked. The command line and the MCP server's `capture`
// tool both call runAttach: a stop (Ctrl-C there, a cancelled request here) is the same aborted signal.

import { join } from 'node:path';
import { diffSnapshotFiles } from '../../analysis/diff/diff-series.js';
import { startAllocationTracking, type AllocationTracking } from '../../attach/allocation-tracking.js';
import { captureSeries, snapshotMethodFor, type CaptureEvents, type CaptureResult, type CapturedSnapshot } from '../../attach/capture.js';
import type { MemorySample } from '../../attach/memory-sampler.js';
import { checkCounter } from '../../attach/counter.js';
import type { InspectorEndpoint } from '../../attach/inspector-port.js';
import type { OpenedTarget, TargetAddress } from '../../attach/open-target.js';
import { checkOutputDir, type OutputPlace } from '../../attach/output-place.js';
import { readProcStatus, resetPeakRss } from '../../attach/proc-status.js';
import type { DetachReport } from '../../attach/session.js';
import { prepareOutputDir, writePrivateJson } from '../../attach/snapshot-file.js';
import { labelChain } from '../../diagnose/chain-labels.js';
import type { Diagnosis } from '../../diagnose/finding.js';
import type { GateLimits } from '../../diagnose/gates.js';
import { AttachError, OutputError } from '../../errors.js';
import { methodText, type AttachOutput } from '../../report/attach-report.js';
import { buildAttachHtml } from '../../report/html-report.js';
import { checkHtmlPath, writeHtmlReport } from '../html-output.js';
import { warn } from '../output.js';
import { createProgress } from '../progress.js';
import { assessSnapshot, openWithPlan, printLines, targetOf, transferNote } from './attach-common.js';
import { pacingText, unitCountOf, type Pacing, type PacingFlags } from './attach-pacing.js';
import { createCaptureProgress } from './attach-progress.js';
import { trackingPlanLines } from './attach-tracking.js';
import { DIAGNOSIS_GROUPS } from './diff.js';
import { assessDiskSpace, refuseBeforeSignal } from './output-checks.js';
import { buildSeriesOutput } from './series-output.js';
import { createSettler, FIRST_SNAPSHOTS, seriesPlanText, type SeriesPlan } from './attach-settle.js';

export interface AttachOptions {
  readonly address: TargetAddress & { timeoutMs: number };
  /** How many snapshots: exactly some, or 3 and more while the verdict is unsettled (attach-settle.ts). */
  readonly series: SeriesPlan;
  readonly pacing: Pacing;
  /** What pacing and --unit-count were given as (the plan's text, per-unit rates). */
  readonly pacingFlags: PacingFlags;
  readonly sampleEveryMs: number;
  readonly groups: number;
  readonly limits: GateLimits;
  readonly force: boolean;
  readonly verbose: boolean;
  /** Default: ./leakhunt-<pid>-<time>. */
  readonly outDir?: string;
  readonly html?: string;
  readonly traceAllocations: boolean;
  /** Progress lines on stderr (the CLI's choice; the MCP server has none). */
  readonly showProgress: boolean;
  /** Stops the capture as Ctrl-C does: the snapshot in progress removed, the target left as found. */
  readonly signal: AbortSignal;
  /** Told of each sample, snapshot and wait as well as the progress lines (the MCP server's notifications). */
  readonly events?: Pick<CaptureEvents, 'onSnapshot' | 'onWait' | 'onSample'>;
  /** Called once the target is opened and before any snapshot (the CLI's second-signal note). */
  readonly onOpened?: (opened: OpenedTarget) => void;
  readonly seen?: { endpoint?: InspectorEndpoint };
}

export type AttachRun =
  | { readonly stopped: false; readonly output: AttachOutput; readonly diagnosis: Diagnosis; readonly diffWarnings: readonly string[]; readonly outDir: string; readonly htmlFile?: string }
  | { readonly stopped: true; readonly kept: readonly CapturedSnapshot[]; readonly outDir: string };

export function defaultOutDir(pid: number): string {
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

export async function runAttach(o: AttachOptions): Promise<AttachRun> {
  const { address, pacing, force, verbose, showProgress } = o;
  const count = o.series.most;
  const sampleEveryText = `${o.sampleEveryMs / 1000}s`;
  // Where the files go is checked before any signal when the pid is known (it names them).
  let outDir = o.outDir ?? (address.pid === undefined ? '' : defaultOutDir(address.pid));
  const placeOf = (stem: string): OutputPlace => checkOutputDir(outDir, seriesFiles(outDir, stem, count));
  if (address.pid !== undefined) refuseBeforeSignal(placeOf(String(address.pid)), force, '--out');
  checkHtmlPath(o.html, outDir);
  // The short plan leaves out what each snapshot line says again (the directory) and the sampling.
  const work = (verbose
    ? `${pacingText(pacing, seriesPlanText(o.series), o.pacingFlags.interval)}; memory samples every ${sampleEveryText}; into ${outDir || defaultOutDir(0)}`
    : pacingText(pacing, seriesPlanText(o.series, true), o.pacingFlags.interval, true)) + transferNote(address.pid);
  const seen = o.seen ?? {};
  let opened: OpenedTarget | undefined;
  let capture: CaptureResult | undefined;
  let detach: DetachReport | undefined;
  let tracking: AllocationTracking | undefined;
  const written: string[] = []; // complete snapshots, as they are taken
  const samples: MemorySample[] = [];
  const settler = createSettler(o.series, () => samples, Math.max(o.groups, DIAGNOSIS_GROUPS));
  const progress = createCaptureProgress(showProgress, o.series.adaptive ? `${FIRST_SNAPSHOTS}–${count}` : count, process.stderr, verbose);
  opened = await openWithPlan(address, work, seen, verbose);
  o.onOpened?.(opened);
  const { session } = opened;
  try {
    if (!o.signal.aborted) {
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
      if (o.traceAllocations) printLines(trackingPlanLines(verbose));
      try {
        capture = await captureSeries({
          ...settler.option,
          session,
          ...(address.pid === undefined ? {} : { pid: address.pid }),
          outDir,
          stem,
          snapshots: count,
          ...pacing,
          sampleEveryMs: o.sampleEveryMs,
          signal: o.signal,
          ...(o.traceAllocations ? { afterFirst: async () => void (tracking = await startAllocationTracking(session)) } : {}),
          events: {
            ...progress,
            onSample: (s) => {
              samples.push(s);
              progress.onSample(s);
              o.events?.onSample?.(s);
            },
            onWait: (i, w) => {
              progress.onWait(i, w);
              o.events?.onWait?.(i, w);
            },
            onSnapshot: (s) => {
              written.push(s.file);
              progress.onSnapshot(s);
              o.events?.onSnapshot?.(s);
            },
            onWarning: (w) => progress.note(`warning: ${w}`),
            onHolderWait: (k, of, w) => progress.onHolderWait(k, of, w),
            onHolderReads: (holders, intervals) => progress.note(`unsettled after the last snapshot: reading ${holders.map((h) => `${h.className} @${h.holderId}`).join(', ')} for up to ${intervals} more intervals (no pause)`),
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
    const analysing = showProgress && !verbose && !process.stderr.isTTY && !o.signal.aborted && capture && capture.snapshots.length >= 2
      ? `analysing the ${capture.snapshots.length} snapshots` : undefined;
    if (!detach.inspectorClosed && detach.openedByUs) warn(`the inspector of pid ${session.info.pid} ${detach.note}`);
    if (detach.inspectorClosed && detach.openedByUs) process.stderr.write(`leakhunt: inspector: ${detach.note}${analysing ? `; ${analysing}` : ''}\n`);
    else if (analysing) process.stderr.write(`leakhunt: ${analysing}\n`);
  }
  const kept = capture?.snapshots ?? [];
  if (o.signal.aborted || !capture) return { stopped: true, kept, outDir };
  if (capture.endedBy === 'target-exited') warn(`pid ${session.info.pid} exited during the capture: ${kept.length} of ${count} snapshots were taken${kept.length ? ` (kept in ${outDir})` : ''}`);
  if (capture.endedBy === 'connection-lost') warn(`the inspector connection closed during the capture (the process still runs): ${kept.length} of ${count} snapshots were taken`);
  if (kept.length < 2) throw new AttachError(`only ${kept.length} snapshot(s) captured${kept.length ? ` (${kept[0]!.file})` : ''}: a diff needs two`);

  const captureRssPeak = readProcStatus('self').peakRssBytes;
  const peakReset = resetPeakRss();
  // A terminal gets a live line; a log only the phases with --verbose (the detach line said it started).
  const analysisProgress = createProgress(showProgress && (process.stderr.isTTY === true || verbose), process.stderr, verbose);
  let label = 'reading';
  const diff = settler.diffOf(kept.map((s) => s.file)) ?? await diffSnapshotFiles(kept.map((s) => s.file), {
    groups: Math.max(o.groups, DIAGNOSIS_GROUPS),
    labelChain,
    // In a log one line says the analysis started; on a terminal (or with --verbose) one per snapshot.
    onSnapshot: (i, n) => (label = process.stderr.isTTY || verbose ? `analysing snapshot ${i + 1} of ${n}` : `analysing the ${n} snapshots`),
    onBytes: (read, total) => analysisProgress.bytes(label, read, total),
    onPhase: (phase) => analysisProgress.phase(phase),
  });
  analysisProgress.done();
  const analysisRssPeak = readProcStatus('self').peakRssBytes;
  const units = unitCountOf(o.pacingFlags, kept);
  if (units.warning) warn(units.warning);
  const { output, diagnosis } = buildSeriesOutput({
    diff,
    kept,
    samples: capture.samples,
    ...(units.unitCount ? { unitCount: units.unitCount } : {}),
    limits: o.limits,
    target: targetOf(session, address.pid),
    capture: {
      outDir,
      requested: count,
      taken: kept.length,
      ...(pacing.intervalMs === undefined ? {} : { intervalMs: pacing.intervalMs }),
      intervalFrom: 'previous-snapshot-end',
      ...(pacing.counter ? { counter: { ...pacing.counter, ...(units.counterUnits === undefined ? {} : { units: units.counterUnits }) } } : {}),
      ...(units.unitCount ? { unitCount: units.unitCount } : {}),
      sampleEveryMs: o.sampleEveryMs,
      endedBy: capture.endedBy,
      ...(tracking ? { allocationTracking: { startPauseMs: tracking.startPauseMs, stopped: tracking.stopped, compaction: tracking.compaction } } : {}),
      inspector: { host: session.endpoint.host, port: session.endpoint.port, how: session.endpoint.how, ...detach },
      ...(capture.holderReads ? { holderReads: capture.holderReads } : {}),
    },
    warnings: [...capture.warnings, ...(units.warning ? [units.warning] : [])],
    leakhunt: { captureRssPeak, ...(peakReset ? { analysisRssPeak } : {}) },
  });
  writePrivateJson(join(outDir, 'result.json'), output); // what `leakhunt report <out dir>` reads the samples and capture facts from
  const htmlFile = o.html === undefined ? undefined : writeHtmlReport(o.html, buildAttachHtml(output, { groups: o.groups }));
  return { stopped: false, output, diagnosis, diffWarnings: diff.warnings, outDir, ...(htmlFile ? { htmlFile } : {}) };
}
