// From a pid (or an explicit --port / --ws) to a verified session: preflight, refusals before any
// signal, the inspector port, the connection and the pid check. Shared by attach, snapshot and
// watch --heap. The preflight is handed out before anything is sent, so the CLI can print the plan.

import { AttachError } from '../errors.js';
import { formatHostPort } from './inspector-http.js';
import { explicitEndpoint, locateInspector, type InspectorEndpoint } from './inspector-port.js';
import { assertAttachable, runPreflight, type Preflight } from './preflight.js';
import { readProcStatus } from './proc-status.js';
import { TargetSession, WrongProcessError } from './session.js';
import { lockTarget, type TargetLock } from './target-lock.js';

export interface TargetAddress {
  readonly pid?: number;
  readonly host?: string;
  readonly port?: number;
  readonly ws?: string;
}

export interface OpenTargetOptions extends TargetAddress {
  /** For each network step: the port to appear after SIGUSR1, HTTP, websocket, first evaluate. */
  readonly timeoutMs: number;
  /** Called with the preflight before any signal is sent (the CLI prints the plan). */
  readonly onPreflight?: (preflight: Preflight) => void;
  readonly onEndpoint?: (endpoint: InspectorEndpoint) => void;
  /**
   * With a pid: take the per-target lock (target-lock.ts) before any signal, naming this command line
   * as the holder; released by the session's detach. Omitted: no lock (tests of the session alone).
   */
  readonly lockAs?: string;
  /** Where the lock files live (default: target-lock.ts's runtime directory). */
  readonly lockDir?: string;
}

export interface OpenedTarget {
  readonly preflight?: Preflight;
  readonly session: TargetSession;
}

export function isExplicit(address: TargetAddress): boolean {
  return address.port !== undefined || address.ws !== undefined || address.host !== undefined;
}

export async function openTarget(options: OpenTargetOptions): Promise<OpenedTarget> {
  const explicit = isExplicit(options);
  if (options.pid === undefined && !explicit) throw new AttachError('no target: give a pid, or --port / --ws');
  const preflight = options.pid === undefined ? undefined : runPreflight(options.pid, { explicitEndpoint: explicit });
  if (preflight) {
    options.onPreflight?.(preflight);
    assertAttachable(preflight);
  }
  const lock = options.pid !== undefined && options.lockAs !== undefined
    ? lockTarget(options.pid, { command: options.lockAs, ...(options.lockDir === undefined ? {} : { runtimeDir: options.lockDir }) })
    : undefined;
  try {
    return { ...(preflight ? { preflight } : {}), session: await openSession(options, preflight, explicit, lock) };
  } catch (err) {
    lock?.release();
    throw err;
  }
}

async function openSession(options: OpenTargetOptions, preflight: Preflight | undefined, explicit: boolean, lock: TargetLock | undefined): Promise<TargetSession> {
  const endpoint = explicit
    ? await explicitEndpoint({ ...options, timeoutMs: options.timeoutMs })
    : await locateInspector(preflight!, { timeoutMs: options.timeoutMs, ...(lock?.leftover ? { leftover: lock.leftover } : {}) });
  if (endpoint.openedByUs) lock?.noteInspector(endpoint);
  options.onEndpoint?.(endpoint);
  const expectedPids = options.pid === undefined ? undefined : nsPidsOf(options.pid);
  try {
    return await TargetSession.open(endpoint, {
      ...(expectedPids ? { expectedPids } : {}),
      ...(options.pid === undefined ? {} : { localPid: options.pid }),
      timeoutMs: options.timeoutMs,
      ...(lock ? { lock } : {}),
    });
  } catch (err) {
    if (endpoint.openedByUs && err instanceof AttachError && !(err instanceof WrongProcessError)) {
      const until = lock ? 'until the next leakhunt on this process closes it (the lock file records it)' : 'until the process exits';
      throw new AttachError(`${err.message}; the inspector leakhunt opened stays open on ${formatHostPort(endpoint.host, endpoint.port)} ${until}`);
    }
    throw err;
  }
}

/** The pid in every pid namespace it lives in (a containerised process reports its inner pid). */
function nsPidsOf(pid: number): number[] {
  try {
    const ns = readProcStatus(pid).nsPids;
    return ns.length > 0 ? [...ns] : [pid];
  } catch {
    return [pid];
  }
}
