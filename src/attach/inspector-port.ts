// Finding the target's inspector. Started with --inspect: use the port it listens on and leave it open.
// Otherwise send SIGUSR1 (only when the preflight found it caught) and accept only a port that the pid
// itself now listens on (/proc/PID/fd ∩ /proc/PID/net/tcp*) and that answers like an inspector; the
// session then checks `process.pid` over the protocol as well, because another process can hold 9229.
// `--port` / `--host` / `--ws` name an inspector that is already listening somewhere (port-forwards).

import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AttachError } from '../errors.js';
import { formatHostPort, isInspector, listTarget, rebaseWebSocketUrl } from './inspector-http.js';
import { connectAddress, listeningSocketsOf, portHolders, type ListeningSocket } from './listening-sockets.js';
import { startAdvice, type Preflight } from './preflight.js';
import { PROC_ROOT } from './proc-status.js';

export interface InspectorEndpoint {
  readonly host: string;
  readonly port: number;
  readonly webSocketUrl: string;
  /** We opened it with SIGUSR1, so we close it when done; otherwise it is left as it was found. */
  readonly openedByUs: boolean;
  readonly how: 'already-listening' | 'sigusr1' | 'explicit';
  /** Opened with SIGUSR1 by an earlier leakhunt (this pid) that ended without closing it: ours to close. */
  readonly leftoverOf?: number;
}

export interface LocateOptions {
  /** How long to wait for the port after SIGUSR1. */
  readonly timeoutMs: number;
  readonly procRoot?: string;
  /** An inspector an earlier leakhunt opened on this target and did not close (target-lock.ts). */
  readonly leftover?: { readonly port: number; readonly openedBy: number };
}

const POLL_MS = 50;
const PROBE_TIMEOUT_MS = 1000;
/** Probes of a new port that does not answer like an inspector before it is taken to be the app's own. */
const MAX_TRIES = 5;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function probe(sockets: readonly ListeningSocket[]): Promise<ListeningSocket | undefined> {
  for (const s of sockets) if (await isInspector(connectAddress(s.address), s.port, PROBE_TIMEOUT_MS)) return s;
  return undefined;
}

async function endpointOf(socket: ListeningSocket, openedByUs: boolean, how: InspectorEndpoint['how']): Promise<InspectorEndpoint> {
  const host = connectAddress(socket.address);
  const target = await listTarget(host, socket.port, PROBE_TIMEOUT_MS * 3);
  return { host, port: socket.port, webSocketUrl: rebaseWebSocketUrl(target.webSocketDebuggerUrl, host, socket.port), openedByUs, how };
}

/** The likely inspector sockets first: the flagged port, then 9229. */
function byLikelihood(sockets: readonly ListeningSocket[], flaggedPort: number): ListeningSocket[] {
  const rank = (s: ListeningSocket): number => (s.port === flaggedPort ? 0 : s.port === 9229 ? 1 : 2);
  return [...sockets].sort((a, b) => rank(a) - rank(b));
}

export async function locateInspector(preflight: Preflight, options: LocateOptions): Promise<InspectorEndpoint> {
  const { pid, flags } = preflight;
  const procRoot = options.procRoot ?? PROC_ROOT;
  const before = byLikelihood(preflight.listening, flags.port);
  if (flags.inspectAtStart) {
    const found = await probe(before);
    if (found) return endpointOf(found, false, 'already-listening');
  }
  const leftover = options.leftover;
  if (leftover) {
    const found = await probe(before.filter((s) => s.port === leftover.port));
    if (found) return { ...(await endpointOf(found, true, 'sigusr1')), leftoverOf: leftover.openedBy };
  }
  if (preflight.signal.refusal) throw new AttachError(`pid ${pid}: no inspector is listening, and leakhunt ${preflight.signal.refusal}`);
  const known = new Set(before.map((s) => s.inode));
  try {
    process.kill(pid, 'SIGUSR1');
  } catch (err) {
    throw new AttachError(`cannot signal pid ${pid}: ${(err as Error).message}`);
  }
  // From here on the inspector may open at any moment: find it even if asked to stop, so it can be closed.
  const deadline = Date.now() + options.timeoutMs;
  const tries = new Map<string, number>();
  while (Date.now() < deadline) {
    const fresh = listeningSocketsOf(pid, procRoot).filter((s) => !known.has(s.inode) && (tries.get(s.inode) ?? 0) < MAX_TRIES);
    for (const s of byLikelihood(fresh, flags.port)) {
      if (await isInspector(connectAddress(s.address), s.port, PROBE_TIMEOUT_MS)) return endpointOf(s, true, 'sigusr1');
      // Not an inspector (yet: the socket listens a moment before it answers); an app's own new port gives up soon.
      tries.set(s.inode, (tries.get(s.inode) ?? 0) + 1);
    }
    await sleep(POLL_MS);
  }
  // Nothing new: an inspector opened earlier at run time (inspector.open(), an earlier SIGUSR1) still counts.
  const already = flags.inspectAtStart ? undefined : await probe(before);
  if (already) return endpointOf(already, false, 'already-listening');
  throw new AttachError(noPortMessage(preflight, options.timeoutMs, procRoot));
}

function noPortMessage(preflight: Preflight, timeoutMs: number, procRoot: string): string {
  const { pid, flags } = preflight;
  const where = formatHostPort(flags.host, flags.port);
  const head = `pid ${pid} opened no inspector port within ${(timeoutMs / 1000).toFixed(1)} s of SIGUSR1`;
  if (flags.port !== 0) {
    const holders = portHolders(flags.port, pid, procRoot).filter((h) => h.pid !== pid);
    if (holders.length > 0) {
      const who = holders.map((h) => `pid ${h.pid} (${h.argv.join(' ').slice(0, 80)})`).join(', ');
      return `${head}: its inspector port ${where} is held by ${who}, so Node could not open it there (leakhunt did not connect to that process). ` +
        'Free the port, or start the target with --inspect-port=0, or attach with --port to an inspector you opened';
    }
  }
  // SIGUSR1 was caught (the preflight saw SigCgt), no port opened, and none is held by another process:
  // what catches it is not Node's inspector starter. Node installs that handler at start; an app's own
  // process.on('SIGUSR1') replaces it, and from then on the signal reaches the app and opens nothing.
  const seen = preflight.inspectorOptions.length > 0 ? `started with ${preflight.inspectorOptions.join(' ')}` : 'started without inspector options';
  const at = flags.port === 0 ? `a random port of ${flags.host}` : where;
  return `${head} (${seen}; Node would have opened it on ${at}). The process catches SIGUSR1 but no inspector came of it: ` +
    `the app most likely handles SIGUSR1 itself (its process.on('SIGUSR1') replaces Node's inspector start), so SIGUSR1 cannot open one. ` +
    `Instead: ${startAdvice(preflight.inspectorOptions)}`;
}

export interface ExplicitEndpointOptions {
  readonly host?: string;
  readonly port?: number;
  readonly ws?: string;
  readonly timeoutMs: number;
}

/** An inspector named on the command line; never opened or closed by us. */
export async function explicitEndpoint(options: ExplicitEndpointOptions): Promise<InspectorEndpoint> {
  if (options.ws !== undefined) {
    let url: URL;
    try {
      url = new URL(options.ws);
    } catch {
      throw new AttachError(`--ws must be a ws:// URL, got "${options.ws}"`);
    }
    if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new AttachError(`--ws must be a ws:// URL, got "${options.ws}"`);
    return { host: url.hostname, port: Number(url.port || 80), webSocketUrl: url.toString(), openedByUs: false, how: 'explicit' };
  }
  const name = options.host ?? '127.0.0.1';
  const port = options.port ?? 9229;
  let host = name;
  if (!isIP(name)) {
    try {
      host = (await lookup(name)).address;
    } catch (err) {
      throw new AttachError(`cannot resolve --host ${name}: ${(err as Error).message}`);
    }
  }
  try {
    const target = await listTarget(host, port, options.timeoutMs);
    return { host, port, webSocketUrl: rebaseWebSocketUrl(target.webSocketDebuggerUrl, host, port), openedByUs: false, how: 'explicit' };
  } catch (err) {
    throw new AttachError(`no inspector at ${formatHostPort(host, port)}: ${(err as Error).message}`);
  }
}
