// `leakhunt profile <pid>`: the cheap way to the line that allocates what grows. The target's inspector
// is opened as attach opens it (preflight, port check, target lock, plan on stderr), V8's sampling heap
// profiler started, a reading taken every interval (src/attach/profile-run.ts), the profiler stopped and
// the inspector closed on every exit path; then the leak sites (src/diagnose/profile-growth.ts) as text,
// JSON, Markdown or HTML. No heap snapshot and no GC of ours; the one pause is each reading's, in which
// V8's inspector collects garbage before it builds the profile (it starts the profiler with
// kSamplingForceGC, so the profile holds only what is alive): measured as `readMs`.

import type { Command } from 'commander';
import { checkCounter } from '../../attach/counter.js';
import type { InspectorEndpoint } from '../../attach/inspector-port.js';
import type { OpenedTarget, TargetAddress } from '../../attach/open-target.js';
import { runProfile, type ProfileRun } from '../../attach/profile-run.js';
import type { DetachReport } from '../../attach/session.js';
import { diagnoseProfile, siteText } from '../../diagnose/profile-growth.js';
import { ExitCode, UsageError } from '../../errors.js';
import { connectionLine } from '../../report/attach-report.js';
import { formatBytes } from '../../report/format.js';
import { buildProfileHtml } from '../../report/profile-html.js';
import { buildProfileDocument, type ProfileOutput } from '../../report/profile-report.js';
import { checkHtmlPath, writeHtmlReport } from '../html-output.js';
import { formatOf, warn, writeResult } from '../output.js';
import { parseDuration, parseSize } from '../parse-options.js';
import type { ExitStatus, GlobalOptions } from '../global-options.js';
import { addTargetOptions, installStopSignals, leftBehind, openWithPlan, printLines, targetAddressOf, targetOf, type TargetFlags } from './attach-common.js';

/**
 * Bytes between samples, on average: twice V8's default. Sampling costs the target per sample taken (a
 * stack walk: ~10 µs a sample on a 60-frame stack, scripts/bench-profile-micro.cjs), so its cost halves
 * with each doubling. On story A (the deepest stacks of the story fixtures) 32 KiB cost 12.8% and 7.2% of
 * the throughput in two runs, 64 KiB 6.0%, 4.1% and 0.1% (3.3% on average; scripts/bench-profile.js,
 * docs/profile.md "Cost").
 */
export const DEFAULT_SAMPLING_INTERVAL = '64KiB';

interface ProfileFlags extends TargetFlags {
  interval: string;
  samples: string;
  samplingInterval: string;
  counter?: string;
  json?: boolean;
  markdown?: boolean;
  html?: string;
}

function parseReadings(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 3 || n > 1000) throw new UsageError(`--samples must be an integer from 3 (growth in every interval needs three readings) to 1000, got "${value}"`);
  return n;
}

function parseSamplingInterval(value: string): number {
  const bytes = parseSize('--sampling-interval', value);
  if (bytes < 512 || bytes > 16 * 1024 * 1024) throw new UsageError(`--sampling-interval must be from 512 bytes to 16MiB, got "${value}"`);
  return bytes;
}

/** How the suggested attach command names the target. */
function targetArgs(pid: number | undefined, flags: TargetFlags): string {
  if (pid !== undefined) return String(pid);
  if (flags.ws !== undefined) return `--ws ${flags.ws}`;
  return `${flags.host === undefined ? '' : `--host ${flags.host} `}--port ${flags.port}`;
}

export interface ProfilingOptions {
  readonly address: TargetAddress & { timeoutMs: number };
  readonly intervalMs: number;
  /** --interval as given, for the plan. */
  readonly intervalText: string;
  readonly readings: number;
  readonly samplingInterval: number;
  readonly counter?: string;
  readonly html?: string;
  /** How the report's attach command names the target (a pid, --port or --ws). */
  readonly targetArgs: string;
  /** Stops the readings as Ctrl-C does: the profiler stopped, the target left as found. */
  readonly signal: AbortSignal;
  readonly seen?: { endpoint?: InspectorEndpoint };
  readonly onOpened?: (opened: OpenedTarget) => void;
  readonly onReading?: (index: number, of: number) => void;
}

export interface ProfilingRun {
  readonly taken: number;
  readonly output?: ProfileOutput;
  readonly diagnosis?: ReturnType<typeof diagnoseProfile>;
  /** The page to write where --html said, once the result is printed. */
  readonly html?: { readonly path: string; readonly page: string };
}

/** `profile`'s work once its flags are read, shared with the MCP server's `profile` tool. */
export async function runProfiling(o: ProfilingOptions): Promise<ProfilingRun> {
  const { address, readings, samplingInterval, intervalMs } = o;
  checkHtmlPath(o.html);
  const seen = o.seen ?? {};
  let opened: OpenedTarget | undefined;
  let run: ProfileRun | undefined;
  let detach: DetachReport | undefined;
  const work = `the sampling heap profiler (one sample every ~${formatBytes(samplingInterval)} allocated; no heap snapshot), a reading every ${o.intervalText}, ${readings} readings (each a full GC by V8 and the profile built in the target)${o.counter ? `; ${o.counter} read at each` : ''}`;
  opened = await openWithPlan(address, work, seen, false);
  o.onOpened?.(opened);
  const { session } = opened;
  try {
    printLines([connectionLine(session.endpoint, session.info)]);
    if (o.counter !== undefined && !o.signal.aborted) {
      const value = await checkCounter(session, o.counter); // a bad expression: exit 2, detached below
      printLines([`  counter    ${o.counter} = ${value} (read without side effects)`]);
    }
    if (!o.signal.aborted) {
      run = await runProfile({
        session, samplingInterval, intervalMs, readings,
        ...(o.counter === undefined ? {} : { counter: o.counter }),
        signal: o.signal,
        onReading: (r) => void (o.onReading?.(r.index, readings), printLines([`leakhunt: reading ${r.index}/${readings}: ${formatBytes(r.profile.totalBytes)} sampled live (${r.profile.totalSamples} objects)${r.memoryUsage ? `, heapUsed ${formatBytes(r.memoryUsage.heapUsed)}` : ''}${r.counter === undefined ? '' : `, counter ${r.counter}`}; read in ${r.readMs} ms`])),
        onWarning: (w) => warn(w),
      });
    }
  } finally {
    detach = await session.detach();
    if (!detach.inspectorClosed && detach.openedByUs) warn(`the inspector of pid ${session.info.pid} ${detach.note}`);
    else if (detach.openedByUs) process.stderr.write(`leakhunt: inspector: ${detach.note}\n`);
  }
  if (!run || !detach) return { taken: run?.readings.length ?? 0 };
  if (run.endedBy === 'target-exited') warn(`pid ${session.info.pid} exited after ${run.readings.length} of ${readings} readings`);
  if (run.endedBy === 'connection-lost') warn(`the inspector connection closed after ${run.readings.length} of ${readings} readings`);
  const diagnosis = diagnoseProfile({
    points: run.readings.map((r) => ({
      elapsedMs: r.elapsedMs,
      ...(r.counter === undefined ? {} : { counter: r.counter }),
      ...(r.memoryUsage ? { heapUsed: r.memoryUsage.heapUsed } : {}),
      stacks: r.profile.stacks,
    })),
    samplingInterval,
    target: o.targetArgs,
    ...(o.counter === undefined ? {} : { counter: o.counter }),
  });
  const first = run.readings[0]?.counter;
  const last = run.readings[run.readings.length - 1]?.counter;
  const output: ProfileOutput = {
    schemaVersion: 1,
    target: targetOf(session, address.pid),
    profile: {
      method: 'sampling-heap-profiler',
      samplingInterval,
      intervalMs,
      requested: readings,
      taken: run.readings.length,
      startedAt: run.startedAt,
      endedBy: o.signal.aborted ? 'signal' : run.endedBy,
      ...(o.counter === undefined ? {} : { counter: { expression: o.counter, ...(first !== undefined && last !== undefined ? { units: last - first } : {}) } }),
      readings: run.readings.map((r) => ({
        index: r.index, takenAt: r.takenAt, elapsedMs: r.elapsedMs,
        ...(r.counter === undefined ? {} : { counter: r.counter }),
        ...(r.memoryUsage ? { heapUsed: r.memoryUsage.heapUsed } : {}),
        sampledBytes: r.profile.totalBytes, sampledObjects: r.profile.totalSamples, readMs: r.readMs,
      })),
      inspector: { host: session.endpoint.host, port: session.endpoint.port, how: session.endpoint.how, ...detach },
    },
    verdict: diagnosis.verdict,
    evidence: diagnosis.evidence,
    findings: diagnosis.findings,
    topSites: diagnosis.topSites.map((s) => ({
      site: siteText(s.site),
      frames: s.site.frames, inUserCode: s.site.inUserCode, bytes: s.bytes, samples: s.samples, addedBytes: s.addedBytes, checks: s.checks,
    })),
    ...(diagnosis.model ? { model: diagnosis.model } : {}),
    attachCommand: diagnosis.attachCommand,
    warnings: run.warnings,
  };
  return {
    taken: run.readings.length, output, diagnosis,
    ...(o.html === undefined ? {} : { html: { path: o.html, page: buildProfileHtml(output) } }),
  };
}

export function registerProfile(program: Command, globals: () => GlobalOptions, status: ExitStatus): void {
  const command = program
    .command('profile')
    .argument('[pid]', 'the Node.js process (not needed with --port / --ws)')
    .description('which lines allocate memory that grows, from V8\'s sampling heap profiler: no heap snapshot; a short pause per reading')
    .option('--interval <duration>', 'time between readings of the profile', '30s')
    .option('--samples <n>', 'how many readings (at least 3)', '6')
    .option('--sampling-interval <bytes>', 'bytes allocated between samples, on average (smaller: finer and dearer)', DEFAULT_SAMPLING_INTERVAL)
    .option('--counter <expression>', 'a JavaScript expression read in the target at each reading (side effects are refused; e.g. globalThis.turns): growth per unit of work')
    .option('--json', 'print the result as JSON (top-level verdict and findings as in attach; each finding with its allocation)')
    .option('--markdown', 'print Markdown')
    .option('--html <file>', 'also write the report as one self-contained HTML page');
  addTargetOptions(command)
    .addHelpText('after', `
Examples:
  $ leakhunt profile 4242                              6 readings 30 s apart: which allocation sites grow
  $ leakhunt profile 4242 --interval 10s --samples 9 --counter 'globalThis.turns'
                                                       growth per turn of the agent, read every 10 s
  $ leakhunt profile 4242 --json > profile.json        verdict, findings[].allocation.frames, every reading
  $ leakhunt profile 4242 --sampling-interval 8KiB --html profile.html
                                                       finer sampling (dearer), and a page to share
  $ leakhunt profile --port 9229 --interval 1m         an inspector already listening (e.g. kubectl port-forward)

The sampling heap profiler records the stack of one allocation every ~${DEFAULT_SAMPLING_INTERVAL.replace('KiB', ' KiB')} (--sampling-interval)
and keeps it while the object lives. Each reading asks for the stacks of the sampled objects still alive
(V8 runs a full GC first, the reading's one pause); a site (your own frame, with the library frame it
called) whose live bytes rise in every interval in proportion to the work is a leak site. No heap
snapshot is taken; it cannot say what holds the objects: the verdict names the \`leakhunt attach\`
command that would. The profiler is stopped and an inspector leakhunt opened is closed again on every
exit path (Ctrl-C included). Exit 1 for a leak site.`)
    .action(async (pidArg: string | undefined, flags: ProfileFlags) => {
      const address = targetAddressOf(pidArg, flags);
      const intervalMs = parseDuration('--interval', flags.interval);
      if (intervalMs < 100) throw new UsageError('--interval must be at least 100ms');
      const readings = parseReadings(flags.samples);
      const samplingInterval = parseSamplingInterval(flags.samplingInterval);
      if (flags.counter !== undefined && flags.counter.trim() === '') throw new UsageError('--counter needs a JavaScript expression, e.g. globalThis.turns');
      const format = formatOf(flags);
      const seen: { endpoint?: InspectorEndpoint } = {};
      let opened: OpenedTarget | undefined;
      const stop = installStopSignals('the profile', () => leftBehind(opened?.session, seen, address.pid));
      let run: ProfilingRun;
      try {
        run = await runProfiling({
          address, intervalMs, intervalText: flags.interval, readings, samplingInterval,
          ...(flags.counter === undefined ? {} : { counter: flags.counter }),
          ...(flags.html === undefined ? {} : { html: flags.html }),
          targetArgs: targetArgs(address.pid, flags),
          signal: stop.signal, seen, onOpened: (o) => (opened = o),
        });
      } finally {
        stop.dispose();
      }
      if (stop.signal.aborted) {
        process.stderr.write(`leakhunt: stopped by ${String(stop.signal.reason)} after ${run.taken} reading(s); the profiler was stopped\n`);
        status.raise(stop.exitCode());
      }
      const { output, diagnosis } = run;
      if (!output || !diagnosis) return;
      await writeResult(format, output, () => buildProfileDocument(output), globals().noColor);
      if (run.html !== undefined) writeHtmlReport(run.html.path, run.html.page);
      if (diagnosis.verdict === 'leak') {
        if (format !== 'text') process.stderr.write(`leakhunt: LEAK: ${diagnosis.evidence[0] ?? ''}\n`);
        if (!stop.signal.aborted) status.raise(ExitCode.leak);
      }
    });
}
