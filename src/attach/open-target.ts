// From a pid (or an explicit --port / --ws) to a verified session: preflight, refusals before any
// signal, the inspector port, the connection and the pid check. Shared by attach, snapshot and
// watch --heap. The preflight is handed out before anything is sent, so the CLI can print the plan.

import { AttachError } from '../errors.js';
import { formatHostPort } from './inspector-http.js';
import { explicitEndpoint, locateInspector, type InspectorEndpoint } from './inspector-port.js';
import { assertAttachable, runPreflight, type Preflight } from './preflight.js';
import { readProcStatus } from './proc-status.js';
import { TargetSession } from './session.js';

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
  const endpoint = explicit
    ? await explicitEndpoint({ ...options, timeoutMs: options.timeoutMs })
    : await locateInspector(preflight!, { timeoutMs: options.timeoutMs });
  options.onEndpoint?.(endpoint);
  const expectedPids = options.pid === undefined ? undefined : nsPidsOf(options.pid);
  try {
    const session = await TargetSession.open(endpoint, {
      ...(expectedPids ? { expectedPids } : {}),
      ...(options.pid === undefined ? {} : { localPid: options.pid }),
      timeoutMs: options.timeoutMs,
    });
    return { ...(preflight ? { preflight } : {}), session };
  } catch (err) {
    if (endpoint.openedByUs && err instanceof AttachError && !/belongs to pid/.test(err.message)) {
      throw new AttachError(`${err.message}; the inspector leakhunt opened stays open on ${formatHostPort(endpoint.host, endpoint.port)} until the process exits`);
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
