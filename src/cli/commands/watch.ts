// `leakhunt watch <pid>`: the cheap instrument. A memory line every interval (RSS from /proc against
// the cgroup limit; with --heap heapUsed / external / arrayBuffers over the inspector, opened and closed
// like attach does), then a summary: slope, time to the limit, which part grows. No GC, no snapshot.
// Ctrl-C (or --for running out) is the normal way to end it: the summary is printed and the exit is 0.

import type { Command } from 'commander';
import type { InspectorEndpoint } from '../../attach/inspector-port.js';
import type { OpenedTarget, TargetAddress } from '../../attach/open-target.js';
import { assertAttachable, runPreflight } from '../../attach/preflight.js';
import { runWatch, type WatchResult, type WatchSample } from '../../attach/watch.js';
import { summarizeTrend } from '../../diagnose/memory-trend.js';
import { UsageError } from '../../errors.js';
import { connectionLine } from '../../report/attach-report.js';
import { buildWatchSummary, sampleJson, sampleLine, summaryJson } from '../../report/watch-report.js';
import { outputWidth, renderTerminal, terminalChalk } from '../render-terminal.js';
import { warn } from '../output.js';
import { parseDuration } from '../parse-options.js';
import type { GlobalOptions } from '../global-options.js';
import { addTargetOptions, installStopSignals, leftBehind, openWithPlan, printLines, targetAddressOf, type TargetFlags } from './attach-common.js';

interface WatchFlags extends TargetFlags {
  every: string;
  for?: string;
  heap?: boolean;
  json?: boolean;
}

export interface WatchingOptions {
  readonly address: TargetAddress & { timeoutMs: number };
  readonly everyMs: number;
  readonly everyText: string;
  readonly forMs?: number;
  readonly forText?: string;
  /** Over the inspector (heap, external) rather than /proc alone. */
  readonly heap: boolean;
  /** No plan line on stderr (JSON lines on stdout). */
  readonly quiet: boolean;
  readonly signal: AbortSignal;
  readonly onSample?: (sample: WatchSample) => void;
  readonly seen?: { endpoint?: InspectorEndpoint };
  readonly onOpened?: (opened: OpenedTarget) => void;
}

export type Watched = WatchResult & { readonly pid: number | undefined; readonly trend: ReturnType<typeof summarizeTrend> };

/** `watch`'s work once its flags are read, shared with the MCP server's `watch_memory` tool. */
export async function runWatching(o: WatchingOptions): Promise<Watched> {
  const { address, everyMs, forMs } = o;
  const seen = o.seen ?? {};
  let opened: OpenedTarget | undefined;
  let result: WatchResult;
  if (o.heap) {
    opened = await openWithPlan(address, `memory samples every ${o.everyText} over the inspector (process.memoryUsage(), no pause)`, seen);
    o.onOpened?.(opened);
    printLines([connectionLine(opened.session.endpoint, opened.session.info)]);
  } else {
    assertAttachable(runPreflight(address.pid!, { observeOnly: true }));
    if (!o.quiet) printLines([`leakhunt: watching pid ${address.pid} every ${o.everyText}${forMs === undefined ? ' until Ctrl-C' : ` for ${o.forText}`} (RSS from /proc; --heap for heap / external)`]);
  }
  const session = opened?.session;
  try {
    result = await runWatch({
      ...(address.pid === undefined ? {} : { pid: address.pid }),
      ...(session ? { session } : {}),
      everyMs,
      ...(forMs === undefined ? {} : { forMs }),
      signal: o.signal,
      ...(o.onSample ? { onSample: o.onSample } : {}),
    });
  } finally {
    if (session) {
      const detach = await session.detach();
      if (detach.openedByUs && !detach.inspectorClosed) warn(`the inspector of pid ${session.info.pid} ${detach.note}`);
      else if (detach.openedByUs && !o.quiet) process.stderr.write(`leakhunt: inspector: ${detach.note}\n`);
    }
  }
  const pid = address.pid ?? opened?.session.info.pid;
  if (result.endedBy === 'target-exited') warn(`pid ${pid} exited`);
  return { ...result, pid, trend: summarizeTrend(result.samples, result.headroomBytes) };
}

export function registerWatch(program: Command, globals: () => GlobalOptions): void {
  const command = program
    .command('watch')
    .argument('[pid]', 'the process to watch (any process without --heap; a Node process with it)')
    .description('print a memory sample every interval (RSS against the cgroup limit; heap/external with --heap), then the trend')
    .option('--every <duration>', 'time between samples', '10s')
    .option('--for <duration>', 'stop after this long (default: until Ctrl-C)')
    .option('--heap', 'also heapUsed / external / arrayBuffers, over the inspector (opened and closed again; no pause)')
    .option('--json', 'JSON lines: {"type":"memory_sample",...} per sample, {"type":"memory_summary",...} at the end');
  addTargetOptions(command)
    .addHelpText('after', `
Examples:
  $ leakhunt watch 4242 --every 1m                   RSS against the container's limit, a line a minute
  $ leakhunt watch 4242 --heap --every 10s --for 1h  which of heap / external / native grows
  $ leakhunt watch 4242 --json | tee memory.jsonl`)
    .action(async (pidArg: string | undefined, flags: WatchFlags) => {
      const address = targetAddressOf(pidArg, flags);
      const everyMs = parseDuration('--every', flags.every);
      if (everyMs < 100) throw new UsageError('--every must be at least 100ms');
      const forMs = flags.for === undefined ? undefined : parseDuration('--for', flags.for);
      const json = flags.json === true;
      if (!flags.heap && address.pid === undefined) throw new UsageError('without --heap, watch reads /proc: give a local pid');
      const seen: { endpoint?: InspectorEndpoint } = {};
      let opened: OpenedTarget | undefined;
      const stop = installStopSignals('watching', () => leftBehind(opened?.session, seen, address.pid));
      let watched: Watched;
      try {
        watched = await runWatching({
          address, everyMs, everyText: flags.every, ...(forMs === undefined ? {} : { forMs, forText: flags.for }), heap: flags.heap === true, quiet: json,
          signal: stop.signal, seen, onOpened: (o) => (opened = o),
          onSample: (s) => process.stdout.write(json ? `${JSON.stringify(sampleJson(address.pid, s))}\n` : `${sampleLine(s)}\n`),
        });
      } finally {
        stop.dispose();
      }
      const { pid } = watched;
      if (json) process.stdout.write(`${JSON.stringify(summaryJson(pid, watched))}\n`);
      else process.stdout.write(`\n${renderTerminal(buildWatchSummary(pid, watched), terminalChalk(process.stdout, globals().noColor), outputWidth())}`);
    });
}
