// The checks made before anything is sent to a process (docs/attach.md, the plan), from /proc
// only: it exists, we may signal it (same uid or root), it is node (exe / cmdline, not comm), it
// catches SIGUSR1 (a process that does not is killed by it), which ports it already listens on, its
// resident memory and the room left under its cgroup limit / MemAvailable. The result is data: the
// CLI prints it as the plan; `assertAttachable` turns refusals into an AttachError (exit 4).

import { AttachError } from '../errors.js';
import { listeningSocketsOf, type ListeningSocket } from './listening-sockets.js';
import { readMemoryRoom, type MemoryRoom } from './memory-limits.js';
import { nodeOptionsOf, parseInspectorFlags, type InspectorFlags } from './node-flags.js';
import {
  looksLikeNode, PROC_ROOT, readCmdline, readEnvironVar, readExe, readNetNamespace, readProcStatus,
  readThreadStatuses, SIGUSR1_MASK, type ProcStatus,
} from './proc-status.js';

export interface SignalFacts {
  /** SigCgt has SIGUSR1: Node's handler is installed, the signal opens the inspector. */
  readonly caught: boolean;
  readonly ignored: boolean;
  /** Every thread blocks SIGUSR1: the signal would stay pending (--disable-sigusr1, or still starting up). */
  readonly blockedInEveryThread: boolean;
  /** Why sending SIGUSR1 is unsafe or useless; undefined when it is fine. */
  readonly refusal?: string;
}

export interface Preflight {
  readonly pid: number;
  readonly exe?: string;
  readonly argv: readonly string[];
  readonly isNode: boolean;
  readonly uid: { readonly ours: number; readonly target: number };
  readonly flags: InspectorFlags;
  /** The inspector options it was started with, as written (NODE_OPTIONS first, then argv), e.g. `--inspect-port=0`. */
  readonly inspectorOptions: readonly string[];
  readonly signal: SignalFacts;
  /** TCP sockets the process itself listens on now. */
  readonly listening: readonly ListeningSocket[];
  readonly rssBytes: number;
  readonly memory: MemoryRoom;
  /** False when the target lives in another network namespace (a container): its 127.0.0.1 is not ours. */
  readonly sameNetNamespace: boolean;
  /** Reasons not to attach at all (any → exit 4). The SIGUSR1 refusal is separate: it only matters if a signal is needed. */
  readonly refusals: readonly string[];
}

export interface PreflightOptions {
  /** The CLI will only read /proc (watch without --heap): skip the node and signal checks. */
  readonly observeOnly?: boolean;
  /** Attaching through --port / --ws: the target's network namespace does not matter. */
  readonly explicitEndpoint?: boolean;
  readonly procRoot?: string;
  readonly cgroupRoot?: string;
}

const INSPECTOR_OPTION = /^--(inspect(-brk|-wait|-port|-publish-uid)?|debug-port|disable-sigusr1)(=|$)/;
const TAKES_PORT = new Set(['--inspect-port', '--debug-port']);

/** The inspector-related options among NODE_OPTIONS and argv's node options, a separate value joined with `=`. */
export function inspectorOptionsOf(argv: readonly string[], nodeOptionsEnv: string | undefined): string[] {
  const options = [...(nodeOptionsEnv?.split(/\s+/).filter(Boolean) ?? []), ...nodeOptionsOf(argv)];
  const out: string[] = [];
  for (let i = 0; i < options.length; i++) {
    const opt = options[i]!;
    if (!INSPECTOR_OPTION.test(opt)) continue;
    out.push(TAKES_PORT.has(opt) && i + 1 < options.length ? `${opt}=${options[++i]!}` : opt);
  }
  return out;
}

/** True when a port for the inspector was chosen at start (`--inspect-port`, `--inspect=HOST:PORT`, ...). */
export function portChosen(inspectorOptions: readonly string[]): boolean {
  return inspectorOptions.some((o) => /^--(inspect(-brk|-wait|-port)?|debug-port)=/.test(o));
}

/** What to do instead of SIGUSR1, from the options seen: never suggest one the target already has. */
export function startAdvice(inspectorOptions: readonly string[]): string {
  const seen = inspectorOptions.filter((o) => !o.startsWith('--disable-sigusr1'));
  const start = portChosen(seen)
    ? `start it with --inspect (it already has ${seen.join(' ')}, which only says where SIGUSR1 would open it)`
    : 'start it with --inspect-port=0 --inspect (a random port, open from the start)';
  return `${start}, or have it call inspector.open() itself, then attach (an inspector that was open before leakhunt came stays open); or attach with --port to an inspector it already has open`;
}

export function describeSignal(status: ProcStatus, threads: readonly ProcStatus[], flags: InspectorFlags, inspectorOptions: readonly string[] = []): SignalFacts {
  const caught = (status.sigCgt & SIGUSR1_MASK) !== 0n;
  const ignored = (status.sigIgn & SIGUSR1_MASK) !== 0n;
  const blockedInEveryThread = threads.length > 0 && threads.every((t) => (t.sigBlk & SIGUSR1_MASK) !== 0n);
  let refusal: string | undefined;
  if (!caught) {
    const why = flags.disableSigusr1
      ? 'it was started with --disable-sigusr1'
      : ignored
        ? 'it ignores SIGUSR1'
        : blockedInEveryThread
          ? 'every thread blocks SIGUSR1, so the signal would wait forever (--disable-sigusr1, or Node is still starting: try again in a second)'
          : 'SIGUSR1 is not caught (SigCgt lacks 0x200), and an uncaught SIGUSR1 kills the process';
    refusal = `will not send SIGUSR1: ${why}; ${startAdvice(inspectorOptions)}`;
  }
  return { caught, ignored, blockedInEveryThread, ...(refusal === undefined ? {} : { refusal }) };
}

export function runPreflight(pid: number, options: PreflightOptions = {}): Preflight {
  const procRoot = options.procRoot ?? PROC_ROOT;
  let status: ProcStatus;
  try {
    status = readProcStatus(pid, procRoot);
  } catch {
    throw new AttachError(`no process with pid ${pid}`);
  }
  if (status.exited) throw new AttachError(`pid ${pid} has exited (a zombie waiting for its parent)`);
  const ours = process.getuid?.() ?? 0;
  const target = status.uids[0] ?? -1;
  const refusals: string[] = [];
  if (ours !== 0 && !status.uids.slice(0, 3).includes(ours)) {
    refusals.push(`pid ${pid} belongs to uid ${target} and leakhunt runs as uid ${ours}: run it as that user or as root`);
  }
  const exe = readExe(pid, procRoot);
  const argv = readCmdline(pid, procRoot);
  const isNode = looksLikeNode(exe, argv);
  const nodeOptionsEnv = readEnvironVar(pid, 'NODE_OPTIONS', procRoot);
  const flags = parseInspectorFlags(argv, nodeOptionsEnv);
  const inspectorOptions = inspectorOptionsOf(argv, nodeOptionsEnv);
  if (!options.observeOnly && !isNode) {
    refusals.push(`pid ${pid} is not node (${exe ?? argv[0] ?? 'unknown executable'}): leakhunt only attaches to Node.js processes`);
  }
  const ourNs = readNetNamespace('self', procRoot);
  const theirNs = readNetNamespace(pid, procRoot);
  const sameNetNamespace = ourNs === undefined || theirNs === undefined || ourNs === theirNs;
  if (!options.observeOnly && !options.explicitEndpoint && !sameNetNamespace) {
    refusals.push(`pid ${pid} is in another network namespace (a container?): its inspector would not be reachable from here; port-forward it and use --port`);
  }
  return {
    pid,
    ...(exe === undefined ? {} : { exe }),
    argv,
    isNode,
    uid: { ours, target },
    flags,
    inspectorOptions,
    signal: describeSignal(status, readThreadStatuses(pid, procRoot), flags, inspectorOptions),
    listening: listeningSocketsOf(pid, procRoot),
    rssBytes: status.rssBytes,
    memory: readMemoryRoom(pid, procRoot, options.cgroupRoot),
    sameNetNamespace,
    refusals,
  };
}

/** Throws the first refusal as an AttachError (exit 4). */
export function assertAttachable(preflight: Preflight): void {
  if (preflight.refusals.length > 0) throw new AttachError(preflight.refusals.join('; '));
}
