// What attach, snapshot and watch --heap share on the command line: the target flags (pid, --port,
// --host, --ws, --connect-timeout), the plan on stderr, the headroom check with --force, and Ctrl-C /
// SIGTERM / SIGHUP: the first one stops the work and lets the detach run (target alive, inspector
// closed, partial file removed); a second one closes what is open at once (open-resources.ts, each
// close bounded) and leaves, saying what may be left behind; a third leaves without waiting.

import type { Command } from 'commander';
import type { InspectorEndpoint } from '../../attach/inspector-port.js';
import { openTarget, type OpenedTarget, type TargetAddress } from '../../attach/open-target.js';
import { closeAllOpen, openResources } from '../../attach/open-resources.js';
import type { Preflight } from '../../attach/preflight.js';
import { checkHeadroom, estimateSnapshot, type HeadroomCheck, type SnapshotEstimate } from '../../attach/snapshot-cost.js';
import type { TargetSession } from '../../attach/session.js';
import { targetFilesystemRefusal } from '../../attach/target-write.js';
import { AttachError, UsageError } from '../../errors.js';
import { connectedLines, planLines } from '../../report/attach-report.js';
import { formatBytes } from '../../report/format.js';
import { parseDuration } from '../parse-options.js';
import { wrapLine } from '../wrap-lines.js';

export interface TargetFlags {
  port?: string;
  host?: string;
  ws?: string;
  connectTimeout: string;
}

export function addTargetOptions(command: Command): Command {
  return command
    .option('--port <port>', 'attach to an inspector already listening on this port (containers, port-forwards)')
    .option('--host <host>', 'host of that inspector', undefined)
    .option('--ws <url>', 'attach to this inspector websocket URL (ws://host:port/<id>)')
    .option('--connect-timeout <duration>', 'how long to wait for the inspector port after SIGUSR1, and for each answer', '10s');
}

export function parsePid(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const pid = Number(value);
  if (!Number.isInteger(pid) || pid <= 0) throw new UsageError(`<pid> must be a positive integer, got "${value}"`);
  return pid;
}

export function targetAddressOf(pidArg: string | undefined, flags: TargetFlags): TargetAddress & { timeoutMs: number } {
  const pid = parsePid(pidArg);
  let port: number | undefined;
  if (flags.port !== undefined) {
    port = Number(flags.port);
    if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new UsageError(`--port must be a TCP port, got "${flags.port}"`);
  }
  if (flags.ws !== undefined && (flags.port !== undefined || flags.host !== undefined)) throw new UsageError('--ws names the inspector by itself: drop --port/--host');
  if (pid === undefined && port === undefined && flags.ws === undefined) throw new UsageError('give the pid of a Node process (or --port / --ws for an inspector already listening)');
  return {
    ...(pid === undefined ? {} : { pid }),
    ...(port === undefined ? {} : { port }),
    ...(flags.host === undefined ? {} : { host: flags.host }),
    ...(flags.ws === undefined ? {} : { ws: flags.ws }),
    timeoutMs: parseDuration('--connect-timeout', flags.connectTimeout),
  };
}

/** Lines on stderr, wrapped to its width; the plan's lines are indented under its `leakhunt: plan for pid N` head. */
export function printLines(lines: readonly string[]): void {
  const columns = Number(process.env['COLUMNS']); // as the report on stdout (render-terminal.ts outputWidth)
  const width = process.stderr.isTTY && process.stderr.columns ? process.stderr.columns : Number.isInteger(columns) && columns >= 40 ? columns : 100;
  const wrapped = lines.flatMap((line) => wrapLine(line, width, line.startsWith('  ') ? 13 : 4));
  if (wrapped.length > 0) process.stderr.write(`${wrapped.join('\n')}\n`);
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** How long a second signal waits for each open thing to close before leaving. */
const SECOND_SIGNAL_CLOSE_MS = 1500;
/** 128 + the signal number, as a shell reports a process killed by it. */
const EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

export interface StopSignals {
  readonly signal: AbortSignal;
  /** 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP, 0 when not stopped. */
  exitCode(): number;
  dispose(): void;
}

/**
 * Ctrl-C / SIGTERM while touching a target. `state()` says what a second signal would leave behind
 * (e.g. "the inspector of pid 42 stays open on 127.0.0.1:9229").
 */
export function installStopSignals(what: string, state: () => string | undefined): StopSignals {
  const controller = new AbortController();
  let quitting = false;
  const handler = (name: NodeJS.Signals): void => {
    // A closed terminal (SIGHUP) fails later writes to stderr: that must not stop the detach.
    if (name === 'SIGHUP') for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
    if (!controller.signal.aborted) {
      const breakLine = process.stderr.isTTY ? '\n' : ''; // end a progress line rewritten in place
      process.stderr.write(`${breakLine}leakhunt: ${name}: stopping ${what}; leaving the target as it was found (${name} again to quit at once)\n`);
      controller.abort(name);
      return;
    }
    const code = EXIT_CODES[name] ?? 130;
    if (quitting) process.exit(code);
    quitting = true;
    const open = openResources();
    process.stderr.write(`leakhunt: ${name} again: closing ${open.length ? open.join(', ') : 'nothing left open'} and quitting (${name} once more to quit without waiting)\n`);
    void closeAllOpen(SECOND_SIGNAL_CLOSE_MS).then((late) => {
      const left = late.length === 0 ? undefined : state();
      if (left) process.stderr.write(`leakhunt: ${left}\n`);
    }).finally(() => process.exit(code));
  };
  for (const name of STOP_SIGNALS) process.on(name, handler);
  return {
    signal: controller.signal,
    exitCode: () => (controller.signal.aborted ? EXIT_CODES[controller.signal.reason as NodeJS.Signals] ?? 130 : 0),
    dispose: () => {
      for (const name of STOP_SIGNALS) process.off(name, handler);
    },
  };
}

/** Opens the target with the plan on stderr; `endpoint` is set as soon as an inspector is found. */
export async function openWithPlan(
  address: TargetAddress & { timeoutMs: number }, work: string, seen: { endpoint?: InspectorEndpoint; preflight?: Preflight }, verbose = true,
): Promise<OpenedTarget> {
  return openTarget({
    ...address,
    onPreflight: (p) => {
      seen.preflight = p;
      const [head, ...rest] = planLines(p, work, verbose || p.refusals.length > 0);
      printLines([`leakhunt: ${head}`, ...rest]);
    },
    onEndpoint: (e) => {
      seen.endpoint = e;
      if (e.leftoverOf !== undefined) printLines([`leakhunt: the inspector on ${e.host}:${e.port} was opened by leakhunt pid ${e.leftoverOf}, which ended without closing it: it will be closed`]);
    },
    lockAs: ['leakhunt', ...process.argv.slice(2)].join(' '),
  });
}

/**
 * How snapshots of a local pid reach us, for the plan's work line, when the target cannot write them
 * itself (another mount namespace, root or uid: a container); nothing when it can.
 */
export function transferNote(pid: number | undefined): string {
  if (pid === undefined) return '';
  const reason = targetFilesystemRefusal(pid);
  return reason === undefined ? '' : `; snapshots streamed over the inspector (${reason})`;
}

/** The target as a result names it: by the pid leakhunt was given, and its own pid when that differs. */
export function targetOf(session: TargetSession, localPid: number | undefined): { pid: number; nodeVersion: string; pidInNamespace?: number } {
  const pid = localPid ?? session.info.pid;
  return { pid, nodeVersion: session.info.nodeVersion, ...(pid === session.info.pid ? {} : { pidInNamespace: session.info.pid }) };
}

export interface SnapshotAssessment {
  readonly estimate: SnapshotEstimate;
  readonly headroom: HeadroomCheck;
}

/** The second half of the plan; throws AttachError (after the caller's detach) when there is no room and no --force. */
export function assessSnapshot(opened: OpenedTarget, force: boolean, verbose = true): SnapshotAssessment {
  const { session, preflight } = opened;
  const estimate = estimateSnapshot(session.info.memoryUsage.heapUsed);
  const headroom = checkHeadroom(preflight?.memory.headroomBytes, estimate);
  if (!preflight) printLines([`leakhunt: plan for the inspector at ${session.endpoint.host}:${session.endpoint.port} (no local pid: no /proc checks)`]);
  printLines(connectedLines(session.endpoint, session.info, estimate, headroom, verbose || !headroom.ok));
  if (!headroom.ok) {
    const msg = `not enough memory for a heap snapshot of pid ${session.info.pid}: ~${formatBytes(headroom.neededBytes)} needed, ${formatBytes(headroom.headroomBytes ?? 0)} free`;
    if (!force) throw new AttachError(`${msg} (it could be OOM-killed); --force to take it anyway`);
    process.stderr.write(`leakhunt: warning: ${msg}; going ahead (--force)\n`);
  }
  return { estimate, headroom };
}

export function leftBehind(session: TargetSession | undefined, seen: { endpoint?: InspectorEndpoint }, pid: number | undefined): string | undefined {
  const e = session?.endpoint ?? seen.endpoint;
  if (!e || !e.openedByUs) return undefined;
  return `the inspector of pid ${pid ?? '?'} may stay open on ${e.host}:${e.port} until it exits`;
}
