// One CDP session with the target: who it is (`process.pid`, checked against the pid we meant, so a
// stranger on 9229 is never trusted), `process.memoryUsage()`, a heap snapshot streamed to
// a sink chunk by chunk, and the detach that leaves the target as it was found: an inspector we opened
// is closed with a deferred `process._debugEnd()` and the port is checked until it no longer listens.
//
// Only self-contained expressions are evaluated in the target. Nothing is scheduled there that can
// throw later (`require` is gone once an evaluate returns; the deferred close guards every step).
//
// A target that wants to exit is let go at once. A process that exits with a debugger attached waits
// in its exit for that debugger to disconnect ("Waiting for the debugger to disconnect..."), and a
// command asked for just before may never be answered (a forced GC, which V8 runs as a task of the loop
// that has stopped, never was: leakhunt no longer forces one): both processes would wait for each other. So the session watches for the signs of an exit
// (exit-watch.ts) and drops the connection at once, which fails every command in flight and lets the
// target's exit go on; `Inspector.detached` drops it too. Every command has a deadline besides.
//
// An open session is registered in open-resources.ts, so every way leakhunt ends detaches it.

import { AttachError } from '../errors.js';
import { readFileSync } from 'node:fs';
import { CdpConnection, CommandTimeoutError, ConnectionClosedError, type Deadline } from './cdp-connection.js';
import { watchForExit } from './exit-watch.js';
import { formatHostPort } from './inspector-http.js';
import type { InspectorEndpoint } from './inspector-port.js';
import { listeningSocketsOf } from './listening-sockets.js';
import { holdOpen } from './open-resources.js';
import { PROC_ROOT } from './proc-status.js';
import type { TargetLock } from './target-lock.js';
import { HOLD_COMPACTION_EXPRESSION, RELEASE_COMPACTION_EXPRESSION, RENEW_COMPACTION_EXPRESSION, type CompactionHold } from './tracking-compaction.js';

export interface MemoryUsage {
  readonly rss: number;
  readonly heapTotal: number;
  readonly heapUsed: number;
  readonly external: number;
  readonly arrayBuffers: number;
}

export interface TargetInfo {
  readonly pid: number;
  readonly nodeVersion: string;
  readonly memoryUsage: MemoryUsage;
}

export interface DetachReport {
  readonly openedByUs: boolean;
  /** For an inspector we opened: it no longer listens (checked in /proc when the target is local). */
  readonly inspectorClosed: boolean;
  /** What happened, for the report ("closed", "left open as found", "target exited"). */
  readonly note: string;
  /** Set when the target was on its way out and the connection was dropped for it (why we think so). */
  readonly targetExiting?: string;
}

/** A value as the target's inspector describes it (`Runtime.RemoteObject`, the fields we read). */
export interface RemoteValue {
  readonly type: string;
  readonly subtype?: string;
  readonly className?: string;
  readonly value?: unknown;
  readonly unserializableValue?: string;
  readonly description?: string;
}

/** What a side-effect-free evaluation gave: a value, or why there is none (one line). */
export type PureEvaluation = { readonly value: RemoteValue } | { readonly problem: string };

export interface SessionOptions {
  /** The pid we mean to attach to, and its pids in nested namespaces; omitted for a bare --port/--ws. */
  readonly expectedPids?: readonly number[];
  /** The local pid whose sockets show whether the inspector still listens. */
  readonly localPid?: number;
  readonly timeoutMs: number;
  readonly procRoot?: string;
  /** The lock on the target (target-lock.ts), released once the session is detached. */
  readonly lock?: TargetLock;
}

const INFO_EXPRESSION = '({ pid: process.pid, nodeVersion: process.version, memoryUsage: process.memoryUsage() })';
const MEMORY_EXPRESSION = 'process.memoryUsage()';
/**
 * Closes the inspector from inside the target, two event-loop turns after this evaluate has answered.
 *
 * Why two turns (docs/inspector-close.md): Node answers one SIGUSR1 by two routes, a V8 interrupt and a
 * libuv async handle, and the first to run opens the inspector. When the interrupt wins while the loop
 * is busy in one long callback, the async request stays pending until the loop next polls; if
 * `_debugEnd()` runs before that poll (a timer fires first), the late request opens the inspector again
 * on the same port. A setImmediate queued from here runs after a poll phase, and one queued from it runs
 * after the next: by then the pending request has run while the inspector was still open, doing nothing.
 * Closing while the evaluate runs would tear the session down under itself; every reference is taken
 * now, and nothing here can throw.
 */
export const DEBUG_END_EXPRESSION = `(() => {
  const p = process, end = p._debugEnd, later = setImmediate;
  if (typeof end !== 'function' || typeof later !== 'function') return false;
  const unref = (t) => { if (t && typeof t.unref === 'function') t.unref(); };
  unref(later(() => unref(later(() => { try { end.call(p); } catch (e) {} }))));
  return true;
})()`;
/** Object group of the references a user's expression hands back; released at once. */
const PURE_GROUP = 'leakhunt-pure';
const HOLDER_GROUP = 'leakhunt-holders';
/**
 * Members of a holder, by the built-in getters called on it directly (a subclass's or a proxy's own
 * `size` is never run); null for anything else.
 */
const MEMBER_COUNT_FUNCTION = `function () {
  const own = (C, p) => { try { return Reflect.apply(Object.getOwnPropertyDescriptor(C.prototype, p).get, this, []); } catch { return undefined; } };
  const sized = own(Map, 'size') ?? own(Set, 'size');
  if (sized !== undefined) return sized;
  if (Array.isArray(this)) return this.length;
  return Object.getPrototypeOf(this) === Object.prototype || Object.getPrototypeOf(this) === null ? Object.keys(this).length : null;
}`;
const PORT_CLOSE_WAIT_MS = 3000;
/**
 * How long the target gets to close the websocket itself after `_debugEnd()` was scheduled: two turns
 * of its event loop (DEBUG_END_EXPRESSION), which a loaded agent may take seconds each to come to
 * (story B under a full test run: over 3 s). Without a scheduled close, the old 3 s.
 */
const TARGET_CLOSE_WAIT_MS = 15_000;
const UNSCHEDULED_CLOSE_WAIT_MS = 3000;
const GIB = 1024 ** 3;
/**
 * A command that runs a full GC in the target (starting allocation tracking, precise coverage) sends no
 * progress: its deadline scales with the heap (a full GC of a 1 GiB heap takes seconds; 30 s a GiB
 * leaves a wide margin), and is never under 30 s.
 */
export function gcDeadlineMs(heapBytes: number): number {
  return Math.max(30_000, Math.ceil((heapBytes / GIB) * 30_000));
}
/**
 * A heap snapshot reports progress while it is generated and then streams chunks; its deadline is the
 * longest silence: nothing from the target for this long means it is stuck. V8's own GCs before the
 * snapshot and its distance pass send nothing, and grow with the heap.
 */
export function snapshotStallMs(heapBytes: number): number {
  return Math.max(30_000, Math.ceil((heapBytes / GIB) * 30_000));
}

export class TargetSession {
  readonly endpoint: InspectorEndpoint;
  readonly info: TargetInfo;
  readonly #conn: CdpConnection;
  readonly #options: SessionOptions;
  #busy = false;
  #exiting: string | undefined;
  #detaching: Promise<DetachReport> | undefined;
  #stopExitWatch: () => void = () => {};
  #heapBytes: number;
  readonly #unregister: () => void;

  private constructor(endpoint: InspectorEndpoint, conn: CdpConnection, info: TargetInfo, options: SessionOptions) {
    this.endpoint = endpoint;
    this.#conn = conn;
    this.info = info;
    this.#options = options;
    this.#heapBytes = info.memoryUsage?.heapTotal ?? 0;
    this.#unregister = holdOpen({
      what: `the inspector session with pid ${info.pid} on ${formatHostPort(endpoint.host, endpoint.port)}`,
      close: async () => {
        await this.detach();
      },
    });
  }

  /** Connects and checks `process.pid`; a process other than the one meant is left alone. */
  static async open(endpoint: InspectorEndpoint, options: SessionOptions): Promise<TargetSession> {
    const where = formatHostPort(endpoint.host, endpoint.port);
    let conn: CdpConnection;
    try {
      conn = await CdpConnection.connect(endpoint.webSocketUrl, options.timeoutMs);
    } catch (err) {
      throw new AttachError(`cannot connect to the inspector at ${where}: ${(err as Error).message}`);
    }
    let info: TargetInfo;
    try {
      info = (await evaluate(conn, INFO_EXPRESSION, options.timeoutMs)) as TargetInfo;
    } catch (err) {
      await conn.close();
      throw new AttachError(`the inspector at ${where} did not answer: ${(err as Error).message}`);
    }
    const expected = options.expectedPids;
    if (expected && expected.length > 0 && !expected.includes(info.pid)) {
      await conn.close(); // not ours: touch nothing else
      throw new WrongProcessError(`the inspector at ${where} belongs to pid ${info.pid}, not pid ${expected[0]}: not attaching to the wrong process`);
    }
    const session = new TargetSession(endpoint, conn, info, options);
    conn.on('Inspector.detached', () => conn.abandon(`pid ${info.pid}: its inspector detached this session`));
    session.#stopExitWatch = await watchForExit(conn, {
      ...(options.localPid === undefined ? {} : { pid: options.localPid }),
      ...(options.procRoot === undefined ? {} : { procRoot: options.procRoot }),
      timeoutMs: options.timeoutMs,
    }, (why) => session.#targetExiting(why));
    return session;
  }

  /** Why the target is taken to be exiting (the connection was dropped for it), or undefined. */
  get exiting(): string | undefined {
    return this.#exiting;
  }

  #targetExiting(why: string): void {
    if (this.#conn.isClosed) return;
    this.#exiting = why;
    this.#conn.abandon(`pid ${this.info.pid}: ${why}`);
  }

  /** A GC or snapshot is running: the target is paused and would answer nothing else until it ends. */
  get busy(): boolean {
    return this.#busy;
  }

  /** The connection is gone (the target exited or closed its inspector). */
  get gone(): boolean {
    return this.#conn.isClosed;
  }

  onGone(listener: () => void): void {
    this.#conn.onClose(() => listener());
  }

  /**
   * One round trip under the short deadline (--connect-timeout): asked before each snapshot, so a target
   * that stopped answering (SIGSTOP, a hung loop) is found then, with its /proc state, not after the
   * snapshot's much longer stall deadline.
   */
  async checkAnswers(): Promise<void> {
    await this.#send('Runtime.evaluate', { expression: '0', returnByValue: true, silent: true }, this.#options.timeoutMs);
  }

  async memoryUsage(timeoutMs = this.#options.timeoutMs): Promise<MemoryUsage> {
    const usage = (await evaluate(this.#conn, MEMORY_EXPRESSION, timeoutMs)) as MemoryUsage;
    this.#heapBytes = Math.max(this.#heapBytes, usage.heapTotal ?? 0);
    return usage;
  }

  /**
   * Evaluates a user's expression (`attach --counter`) so that it cannot change the target: V8 refuses
   * anything with a side effect (`throwOnSideEffect`, as DevTools' eager evaluation), and stops it after
   * `budgetMs` (`timeout`: an endless loop is terminated and the target runs on). The result comes back
   * by reference, not by value: by value, an expression that names a big object would be serialised in
   * the target while it waits (1.5 s for a 200k-element array, measured on Node 20) — primitives carry
   * their value either way. Any reference is released before this returns, so nothing of the evaluation
   * stays alive in the target (or in its next heap snapshot). Throws ConnectionClosedError only.
   */
  async evaluatePure(expression: string, budgetMs: number): Promise<PureEvaluation> {
    let answer: Record<string, unknown>;
    try {
      answer = await this.#conn.send('Runtime.evaluate', {
        expression, throwOnSideEffect: true, timeout: budgetMs, returnByValue: false, generatePreview: false,
        silent: true, includeCommandLineAPI: false, objectGroup: PURE_GROUP,
      }, this.#options.timeoutMs);
    } catch (err) {
      if (err instanceof ConnectionClosedError) throw err;
      const message = (err as Error).message;
      return { problem: /terminated/i.test(message) ? `ran longer than ${budgetMs} ms and was stopped` : `failed: ${firstLine(message)}` };
    }
    const value = answer.result as (RemoteValue & { objectId?: string }) | undefined;
    const details = answer.exceptionDetails as { text?: string; exception?: { description?: string } } | undefined;
    if (value?.objectId !== undefined || details?.exception !== undefined) {
      await this.#conn.send('Runtime.releaseObjectGroup', { objectGroup: PURE_GROUP }, this.#options.timeoutMs).catch((err: unknown) => {
        if (err instanceof ConnectionClosedError) throw err;
      });
    }
    if (details) return { problem: `threw ${firstLine(details.exception?.description ?? details.text ?? 'an exception')}` };
    if (!value) return { problem: 'gave no result' };
    const { objectId: _id, ...rest } = value;
    return { value: rest };
  }

  /**
   * A handle on the object a heap snapshot named `id` (V8 keeps the ids of the objects it has shown),
   * for memberCount; undefined when the object is gone. V8 walks the heap to find it: once per holder.
   * The handle keeps the object alive until releaseHolders (it is a lasting holder anyway).
   */
  async holderHandle(id: number): Promise<string | undefined> {
    try {
      const answer = await this.#send('HeapProfiler.getObjectByHeapObjectId', { objectId: String(id), objectGroup: HOLDER_GROUP }, gcDeadlineMs(this.#heapBytes));
      return (answer.result as { objectId?: string } | undefined)?.objectId;
    } catch (err) {
      if (err instanceof ConnectionClosedError || err instanceof AttachError) throw err;
      return undefined;
    }
  }

  /**
   * How many members the object behind `handle` holds (a Map's or Set's size, an array's length, a
   * dictionary's own keys), read without side effects: V8 refuses a getter or a proxy trap that would
   * change anything. Undefined when it is none of these or refused. Numbers only come back.
   */
  async memberCount(handle: string): Promise<number | undefined> {
    try {
      const answer = await this.#send('Runtime.callFunctionOn', {
        objectId: handle, functionDeclaration: MEMBER_COUNT_FUNCTION, returnByValue: true, throwOnSideEffect: true, silent: true,
      }, this.#options.timeoutMs);
      const value = (answer.result as { value?: unknown } | undefined)?.value;
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    } catch (err) {
      if (err instanceof ConnectionClosedError || err instanceof AttachError) throw err;
      return undefined;
    }
  }

  /** Lets go of every holder handle. */
  async releaseHolders(): Promise<void> {
    await this.#conn.send('Runtime.releaseObjectGroup', { objectGroup: HOLDER_GROUP }, this.#options.timeoutMs).catch((err: unknown) => {
      if (err instanceof ConnectionClosedError) throw err;
    });
  }

  /** A command whose missed deadline is the target's state, said as such (exit 4), not our bug. */
  async #send(method: string, params: Record<string, unknown>, deadline: Deadline): Promise<Record<string, unknown>> {
    try {
      return await this.#conn.send(method, params, deadline);
    } catch (err) {
      if (!(err instanceof CommandTimeoutError)) throw err;
      const state = this.#options.localPid === undefined ? undefined : processState(this.#options.localPid, this.#options.procRoot ?? PROC_ROOT);
      throw new AttachError(`pid ${this.info.pid} stopped answering: ${err.message}${state ? ` (its state in /proc: ${state})` : ''}`);
    }
  }

  /** A heap snapshot streamed to `sink` chunk by chunk; the target is paused until the last chunk. */
  async takeHeapSnapshot(sink: (chunk: string) => void, onProgress: (done: number, total: number) => void): Promise<void> {
    this.#busy = true;
    // The sink runs inside the websocket's message callback: an error there (disk full) is kept and
    // thrown once the target has finished, never into the websocket library.
    let sinkError: unknown;
    try {
      this.#conn.on('HeapProfiler.addHeapSnapshotChunk', (p) => {
        if (sinkError !== undefined) return;
        try {
          sink(String(p.chunk));
        } catch (err) {
          sinkError = err;
        }
      });
      this.#conn.on('HeapProfiler.reportHeapSnapshotProgress', (p) => onProgress(Number(p.done), Number(p.total)));
      const deadline: Deadline = { stallMs: snapshotStallMs(this.#heapBytes) };
      await this.#send('HeapProfiler.takeHeapSnapshot', { reportProgress: true, captureNumericValue: false }, deadline);
      if (sinkError !== undefined) throw sinkError;
    } finally {
      this.#conn.on('HeapProfiler.addHeapSnapshotChunk', undefined);
      this.#conn.on('HeapProfiler.reportHeapSnapshotProgress', undefined);
      this.#busy = false;
    }
  }

  /**
   * Allocation tracking on (allocation-tracking.ts): V8 records the stack of every allocation from now
   * on, and the snapshots taken meanwhile carry it. Starting runs a full GC (V8 updates its object ids).
   * Heap compaction is then held off (tracking-compaction.ts); the answer says whether it is.
   */
  async startAllocationTracking(discardCompiledCode: boolean): Promise<CompactionHold> {
    this.#busy = true;
    try {
      await this.#send('HeapProfiler.enable', {}, this.#options.timeoutMs);
      await this.#send('HeapProfiler.startTrackingHeapObjects', { trackAllocations: true }, gcDeadlineMs(this.#heapBytes));
      if (discardCompiledCode) {
        // Precise coverage on and off again discards every function's compiled code (V8 deoptimizes all
        // to count calls); what is compiled again now is compiled with tracking on (allocation-tracking.ts).
        await this.#send('Profiler.enable', {}, this.#options.timeoutMs);
        await this.#send('Profiler.startPreciseCoverage', { callCount: false, detailed: false }, gcDeadlineMs(this.#heapBytes));
        await this.#send('Profiler.stopPreciseCoverage', {}, this.#options.timeoutMs);
        await this.#send('Profiler.disable', {}, this.#options.timeoutMs);
      }
      // Compaction off while tracking, or most objects lose their stacks (tracking-compaction.ts).
      return (await evaluate(this.#conn, HOLD_COMPACTION_EXPRESSION, this.#options.timeoutMs)) as CompactionHold;
    } finally {
      this.#busy = false;
    }
  }

  /** Renews the compaction hold of tracking-compaction.ts; false when the target no longer has it. */
  async renewCompactionHold(): Promise<boolean> {
    return (await evaluate(this.#conn, RENEW_COMPACTION_EXPRESSION, this.#options.timeoutMs)) === true;
  }

  /**
   * Allocation tracking off, without a heap snapshot: `HeapProfiler.disable` (stopTrackingHeapObjects
   * would take and stream a whole snapshot first, pausing the target again; measured in
   * docs/allocation-sites.md). What it also forgets (V8's id map) the end of the session forgets anyway.
   */
  async stopAllocationTracking(): Promise<void> {
    try {
      await evaluate(this.#conn, RELEASE_COMPACTION_EXPRESSION, this.#options.timeoutMs);
    } catch (err) {
      if (err instanceof ConnectionClosedError) throw err;
      // a target that cannot answer this will not answer the next command either: said there
    }
    await this.#send('HeapProfiler.disable', {}, this.#options.timeoutMs);
  }

  /**
   * Evaluates a self-contained expression that pauses the target for long (it writes a heap snapshot
   * itself: target-write.ts), by value, with nothing kept in the target (no object group, `silent`), and
   * the command-line API for `require` on a Node without `process.getBuiltinModule`. The deadline runs
   * from the last sign of life `aliveAt` reports; the session is busy meanwhile. Throws when the
   * expression itself threw (it is written not to).
   */
  async evaluateWhileBusy(expression: string, aliveAt: () => number): Promise<unknown> {
    this.#busy = true;
    try {
      const deadline: Deadline = { stallMs: snapshotStallMs(this.#heapBytes), aliveAt };
      const answer = await this.#send('Runtime.evaluate', {
        expression, returnByValue: true, silent: true, includeCommandLineAPI: true, awaitPromise: false, generatePreview: false,
      }, deadline);
      const details = answer.exceptionDetails as { text?: string; exception?: { description?: string } } | undefined;
      if (details) throw new Error(`evaluation failed in the target: ${firstLine(details.exception?.description ?? details.text ?? 'exception')}`);
      return (answer.result as { value?: unknown } | undefined)?.value;
    } finally {
      this.#busy = false;
    }
  }

  /**
   * A command of the sampling heap profiler (`HeapProfiler.startSampling` / `getSamplingProfile` /
   * `stopSampling`: sampling-profile.ts); none of them pauses the target for long. Only that domain.
   */
  async heapProfiler(method: 'enable' | 'startSampling' | 'getSamplingProfile' | 'stopSampling', params: Record<string, unknown> = {}, timeoutMs = this.#options.timeoutMs): Promise<Record<string, unknown>> {
    return this.#send(`HeapProfiler.${method}`, params, timeoutMs);
  }

  /**
   * Leaves the target as it was found, then releases the lock. Safe to call twice (and at once from
   * the normal path and an exit path: both get the same answer) and after the target is gone.
   */
  detach(): Promise<DetachReport> {
    this.#detaching ??= this.#detach().then((report) => {
      // Still listening: the record stays in the lock file, so the next leakhunt knows it is ours to close.
      if (!report.openedByUs || report.inspectorClosed) this.#options.lock?.noteInspector(undefined);
      return report;
    }).finally(() => {
      this.#stopExitWatch();
      this.#options.lock?.release();
      this.#unregister();
    });
    return this.#detaching;
  }

  async #detach(): Promise<DetachReport> {
    const openedByUs = this.endpoint.openedByUs;
    if (this.#exiting !== undefined) {
      await this.#conn.close(500);
      const closed = openedByUs && (await this.#waitForPortClosed());
      return {
        openedByUs, inspectorClosed: closed, targetExiting: this.#exiting,
        note: `disconnected at once so that its exit could go on (${this.#exiting})`,
      };
    }
    if (this.#conn.isClosed) {
      const closed = !openedByUs || (await this.#waitForPortClosed());
      return { openedByUs, inspectorClosed: openedByUs && closed, note: 'the connection had closed (the target exited or closed its inspector)' };
    }
    if (!openedByUs) {
      await this.#conn.close();
      return { openedByUs, inspectorClosed: false, note: `left open on ${formatHostPort(this.endpoint.host, this.endpoint.port)}, as it was found` };
    }
    let scheduled = false;
    try {
      scheduled = (await evaluate(this.#conn, DEBUG_END_EXPRESSION, this.#options.timeoutMs)) === true;
    } catch {
      // answered below by the port check
    }
    // Let the target close the websocket: `_debugEnd()` shuts its server down and sends a close frame.
    // Closing from here at the same moment crashes Node: both sides send a close frame, and Node's
    // WsHandler deletes itself in the first OnCloseFrameWritten and is used by the second (SIGSEGV in
    // node::inspector::WsHandler::OnCloseFrameWritten, caught with gdb on Node 20 when a client closed
    // right after the evaluate answered). Only if the target does not close it do we.
    const closedByTarget = await Promise.race([
      this.#conn.closed.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), scheduled ? TARGET_CLOSE_WAIT_MS : UNSCHEDULED_CLOSE_WAIT_MS).unref()),
    ]);
    if (!closedByTarget) await this.#conn.close();
    const closed = await this.#waitForPortClosed();
    const where = formatHostPort(this.endpoint.host, this.endpoint.port);
    return {
      openedByUs,
      inspectorClosed: closed,
      note: closed
        ? `closed (${where} no longer listens)`
        : `could not be closed${scheduled ? '' : ' (process._debugEnd is not available)'}: ${where} still listens`,
    };
  }

  async #waitForPortClosed(): Promise<boolean> {
    const pid = this.#options.localPid;
    if (pid === undefined) return true; // remote: the websocket closing is all we can see
    const deadline = Date.now() + PORT_CLOSE_WAIT_MS;
    for (;;) {
      const listening = listeningSocketsOf(pid, this.#options.procRoot ?? PROC_ROOT).some((s) => s.port === this.endpoint.port);
      if (!listening) return true;
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** The inspector answered for another process than the one meant: nothing of it was touched. */
export class WrongProcessError extends AttachError {}

/** The `State:` line of /proc/PID/status ("T (stopped)", "D (disk sleep)"), or undefined. */
function processState(pid: number, procRoot: string): string | undefined {
  try {
    return /^State:\s*(.+)$/m.exec(readFileSync(`${procRoot}/${pid}/status`, 'utf8'))?.[1]?.trim();
  } catch {
    return undefined;
  }
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!.trim();
}

async function evaluate(conn: CdpConnection, expression: string, timeoutMs: number): Promise<unknown> {
  const answer = await conn.send('Runtime.evaluate', { expression, returnByValue: true, silent: true, includeCommandLineAPI: false }, timeoutMs);
  const details = answer.exceptionDetails as { text?: string; exception?: { description?: string } } | undefined;
  if (details) throw new Error(`evaluation failed in the target: ${details.exception?.description ?? details.text ?? 'exception'}`);
  return (answer.result as { value?: unknown } | undefined)?.value;
}
