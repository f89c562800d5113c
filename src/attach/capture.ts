// Capturing a series from an open session: memory samples all along, and N heap snapshots, each into `<out>/<stem>-<n>.heapsnapshot` with its JSON beside it: written by the target
// itself when it can write where we read (a local process, same root, mount namespace and uid:
// target-write.ts; it pauses the target about as long as V8's own writeHeapSnapshot), else streamed over
// the inspector; the JSON's `method` says which, and `streamedBecause` why not the first. Between two
// snapshots the target runs for the interval, counted from the END of the previous snapshot, or, with a
// counter and `every`, until the counter advanced that far (see wait-next.ts). The counter is read just
// before each snapshot and recorded with it. No GC is forced first: V8 collects garbage itself at the
// start of every snapshot (docs/attach-pause.md), so a forced GC only lengthened the pause (1–3 s of a
// 300 MiB heap's) and the snapshot holds the same live objects without it. Stopping (an aborted signal) removes the snapshot in
// progress; a target that exits mid-capture ends the series with what was captured. Progress and warnings
// go out through callbacks only; the caller detaches the session (in a finally) whatever happens here.

import { resolve } from 'node:path';
import { ConnectionClosedError } from './cdp-connection.js';
import { readHolders, type HolderReads, type HolderToRead } from './holder-reads.js';
import { readCounter, type CounterOptions } from './counter.js';
import { MemorySampler, type MemorySample } from './memory-sampler.js';
import { exitsWithin, readProcStatus } from './proc-status.js';
import type { MemoryUsage, TargetSession } from './session.js';
import { writeSnapshotInTarget } from './snapshot-by-target.js';
import { processFieldsOf, SnapshotFileWriter, writePrivateJson } from './snapshot-file.js';
import { targetWriteRefusal, type SnapshotMethod } from './target-write.js';
import { waitForNext, type WaitProgress } from './wait-next.js';

export type SnapshotPhase = 'generating' | 'writing';

export interface SnapshotEvents {
  /** `done`/`total` while generating (V8's progress), `bytes` written while writing. */
  onPhase?(index: number, phase: SnapshotPhase, progress: { done?: number; total?: number; bytes?: number }): void;
}

export interface CaptureEvents extends SnapshotEvents {
  onSample?(sample: MemorySample): void;
  onSnapshot?(snapshot: CapturedSnapshot): void;
  /** While waiting for the next snapshot: once a second, or once a counter poll. */
  onWait?(nextIndex: number, wait: WaitProgress): void;
  /** The candidates' holders are read for `intervals` more intervals once the snapshots are taken. */
  onHolderReads?(holders: readonly HolderToRead[], intervals: number): void;
  onHolderWait?(interval: number, of: number, wait: WaitProgress): void;
  /** Something the user should know that did not stop the capture (also in the result's `warnings`). */
  onWarning?(message: string): void;
}

export interface CapturedSnapshot {
  /** 1-based position in the series. */
  readonly index: number;
  readonly file: string;
  readonly metaFile: string;
  /** ISO time the snapshot was asked for. */
  readonly takenAt: string;
  /** Generation (V8's own GC first) plus transfer: about how long the target was paused. */
  readonly durationMs: number;
  readonly bytes: number;
  /** Just after the snapshot, whose own GC ran first: the heap as the snapshot holds it. */
  readonly memoryUsage?: MemoryUsage;
  /** The counter (`--counter`), read just before the snapshot; absent when it could not be read. */
  readonly counter?: number;
  /** The target's RSS (/proc VmRSS) just before the snapshot; absent without a local pid. */
  readonly rssBeforeBytes?: number;
  /** The target's RSS (/proc VmRSS) once the snapshot was sent; absent without a local pid. */
  readonly rssAfterBytes?: number;
  /** Written by the target itself (v8.writeHeapSnapshot), or streamed over the inspector protocol. */
  readonly method: SnapshotMethod;
  /** Why it was streamed (the target could not write where leakhunt reads, or failed to). */
  readonly streamedBecause?: string;
}

/** Why the target of this session must not (any longer) write its own snapshots: it failed to once. */
const targetWriteFailed = new WeakMap<TargetSession, string>();

/** How the next snapshot into `path` will be taken, and why it is streamed when it is. */
export function snapshotMethodFor(session: TargetSession, path: string, localPid: number | undefined): { method: SnapshotMethod; streamedBecause?: string } {
  const why = targetWriteFailed.get(session) ?? targetWriteRefusal(localPid, resolve(path));
  return why === undefined ? { method: 'target-wrote' } : { method: 'streamed', streamedBecause: why };
}

/** VmRSS of a local pid, or undefined (no local pid, or it is gone). */
function rssOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return readProcStatus(pid).rssBytes;
  } catch {
    return undefined;
  }
}

export interface CaptureOptions {
  readonly session: TargetSession;
  /** The local pid (for /proc samples and to tell an exit from a dropped connection). */
  readonly pid?: number;
  readonly outDir: string;
  /** File names are `<stem>-<n>.heapsnapshot`. */
  readonly stem: string;
  readonly snapshots: number;
  /**
   * Running time between snapshots, from the end of one to the start of the next; with `counter.every`
   * the longest wait for the counter (no limit when absent). Required without `counter.every`.
   */
  readonly intervalMs?: number;
  readonly counter?: CounterOptions;
  /** Memory samples, and counter polls while waiting for `counter.every`. */
  readonly sampleEveryMs: number;
  readonly signal?: AbortSignal;
  readonly events?: CaptureEvents;
  /** Awaited once the first snapshot is on disk, before the wait for the next (attach --trace-allocations). */
  readonly afterFirst?: () => Promise<void>;
  /**
   * Take snapshots until settled: from the `from`-th snapshot on, `moreNeeded` is asked after each one
   * whether another would settle what the series could not; `snapshots` is then the most to take, and
   * no snapshot starts after `deadline` (Unix ms). The time it takes to answer is running time of the
   * interval that follows.
   */
  readonly settle?: {
    readonly from: number;
    readonly moreNeeded: (taken: readonly CapturedSnapshot[]) => Promise<boolean>;
    readonly deadline?: number;
    /**
     * When the most snapshots were taken and the series is still unsettled: the holders of its
     * candidates to read for `intervals` more intervals, with no snapshot (holder-reads.ts).
     */
    readonly afterBudget?: { readonly holders: () => readonly HolderToRead[]; readonly intervals: number };
  };
}

/** How long a process whose inspector connection dropped gets to show that it exited. */
const EXIT_WAIT_MS = 1000;

export type CaptureEnd = 'complete' | 'settled' | 'budget' | 'signal' | 'target-exited' | 'connection-lost';

export interface CaptureResult {
  readonly snapshots: readonly CapturedSnapshot[];
  readonly samples: readonly MemorySample[];
  readonly requested: number;
  /**
   * Why the series ended: all taken, settled before the most (`settle`), the budget (most snapshots or
   * the deadline) spent while unsettled, stopped by the signal, the target exited, or only its inspector went away.
   */
  readonly endedBy: CaptureEnd;
  /** Set when the capture was stopped by the signal (its reason, e.g. `SIGINT`). */
  readonly stoppedBy?: string;
  /** Member counts of the candidates' holders read after the last snapshot (settle.afterBudget). */
  readonly holderReads?: readonly HolderReads[];
  /** What did not stop the capture but changes how to read it (a counter that failed, a wait cut short). */
  readonly warnings: readonly string[];
}

/** The JSON file beside a snapshot: `x.heapsnapshot` → `x.json`. */
export function metaPathOf(snapshotPath: string): string {
  return snapshotPath.endsWith('.heapsnapshot') ? `${snapshotPath.slice(0, -'.heapsnapshot'.length)}.json` : `${snapshotPath}.json`;
}

/**
 * One snapshot to `path`: GC, memoryUsage, snapshot written by the target or streamed, through a partial
 * file. Returns undefined when the signal fired meanwhile (the target still finishes its snapshot, which
 * cannot be cancelled; the chunks are dropped, or its file removed once it is written). Throws ConnectionClosedError if the target went away.
 * `localPid`: the target's pid on this machine (not behind a port-forward), for its start time in the JSON
 * and for the target to write the snapshot itself. `only`: one method and no other (tests compare them);
 * by default the target writes it when it can (snapshotMethodFor), else it is streamed.
 */
export async function captureSnapshot(
  session: TargetSession, path: string, index: number, signal: AbortSignal | undefined, events: SnapshotEvents = {},
  readCounterValue?: () => Promise<number | undefined>, localPid?: number, only?: SnapshotMethod,
): Promise<CapturedSnapshot | undefined> {
  const chosen = only === undefined ? snapshotMethodFor(session, path, localPid) : { method: only, streamedBecause: only === 'streamed' ? 'asked for' : undefined };
  let method = chosen.method;
  let streamedBecause = chosen.streamedBecause;
  let writer = SnapshotFileWriter.create(path);
  // A streamed snapshot's chunks are dropped at once; a target writing its own cannot be interrupted:
  // its file is removed once it has finished (snapshot-by-target.ts).
  const onAbort = (): void => {
    if (method === 'streamed') writer.discard();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const takenAt = new Date();
  const started = Date.now();
  let counter: number | undefined;
  let rssBeforeBytes: number | undefined;
  let lastReport = 0;
  try {
    // Read just before the snapshot, which freezes the target at once (an evaluate runs at the target's
    // next interrupt, even inside a busy loop): the counter is the work the snapshot holds.
    await session.checkAnswers();
    counter = await readCounterValue?.();
    if (signal?.aborted) {
      writer.discard();
      return undefined;
    }
    rssBeforeBytes = rssOf(localPid);
    if (method === 'target-wrote' && localPid !== undefined) {
      events.onPhase?.(index, 'generating', {});
      const outcome = await writeSnapshotInTarget(session, writer, localPid, (bytes) => {
        const now = Date.now();
        if (now - lastReport >= 200) {
          lastReport = now;
          events.onPhase?.(index, 'writing', { bytes });
        }
      });
      if (!outcome.written) {
        if (only === 'target-wrote') throw new Error(`the target did not write its snapshot: ${outcome.why}`);
        // Streamed from now on in this session (a second pause for this snapshot: it failed before generating, as a rule).
        targetWriteFailed.set(session, outcome.why);
        method = 'streamed';
        streamedBecause = outcome.why;
        if (signal?.aborted) return undefined; // its partial file is gone: do not pause the target again
        writer = SnapshotFileWriter.create(path);
      }
    } else method = 'streamed';
    if (method === 'streamed') {
      await session.takeHeapSnapshot(
        (chunk) => {
          writer.write(chunk);
          const now = Date.now();
          if (now - lastReport >= 200) {
            lastReport = now;
            events.onPhase?.(index, 'writing', { bytes: writer.bytes });
          }
        },
        (done, total) => events.onPhase?.(index, 'generating', { done, total }),
      );
    }
  } catch (err) {
    writer.discard();
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (signal?.aborted) {
    writer.discard();
    return undefined;
  }
  const rssAfterBytes = rssOf(localPid);
  const memoryUsage = await session.memoryUsage().catch(() => undefined);
  events.onPhase?.(index, 'writing', { bytes: writer.bytes });
  writer.commit();
  const metaFile = metaPathOf(path);
  const snapshot: CapturedSnapshot = {
    index,
    file: path,
    metaFile,
    takenAt: takenAt.toISOString(),
    durationMs: Date.now() - started,
    bytes: writer.bytes,
    ...(memoryUsage ? { memoryUsage } : {}),
    ...(counter === undefined ? {} : { counter }),
    ...(rssBeforeBytes === undefined ? {} : { rssBeforeBytes }),
    ...(rssAfterBytes === undefined ? {} : { rssAfterBytes }),
    method,
    ...(method === 'streamed' && streamedBecause !== undefined ? { streamedBecause } : {}),
  };
  writePrivateJson(metaFile, { pid: session.info.pid, nodeVersion: session.info.nodeVersion, ...processFieldsOf(session, localPid), ...snapshot });
  return snapshot;
}

const seconds = (ms: number): string => `${Math.round(ms / 1000)} s`;

export async function captureSeries(options: CaptureOptions): Promise<CaptureResult> {
  const { session, signal, events = {}, counter } = options;
  const every = counter?.every;
  if (every === undefined && options.intervalMs === undefined) throw new Error('captureSeries: an interval, or a counter to wait for');
  const warnings: string[] = [];
  const warn = (message: string): void => {
    warnings.push(message);
    events.onWarning?.(message);
  };
  let gone = false;
  const sampler = new MemorySampler(
    { ...(options.pid === undefined ? {} : { pid: options.pid }), session },
    options.sampleEveryMs,
    (s) => events.onSample?.(s),
    () => (gone = true),
  );
  const snapshots: CapturedSnapshot[] = [];
  let targetExited = false;
  let settled: 'settled' | 'budget' | undefined;
  let answeredMs = 0;
  sampler.start();
  try {
    for (let index = 1; index <= options.snapshots; index++) {
      if (index > 1) {
        if (options.settle?.deadline !== undefined && Date.now() >= options.settle.deadline) {
          settled = 'budget';
          break;
        }
        const from = snapshots[snapshots.length - 1]?.counter;
        const end = await waitForNext({
          session,
          signal,
          ms: options.intervalMs === undefined ? undefined : Math.max(0, options.intervalMs - answeredMs),
          units: counter && every !== undefined
            ? { read: () => readCounter(session, counter.expression), from, every, pollMs: options.sampleEveryMs }
            : undefined,
          tick: (wait) => events.onWait?.(index, wait),
        });
        if (end.by === 'longest-wait') {
          warn(`snapshot ${index} was taken after the longest wait (--interval ${seconds(options.intervalMs ?? 0)}): the counter had advanced ${end.units ?? '?'} of ${every}`);
        } else if (end.by === 'counter-failed') {
          warn(`the counter could not be read while waiting for snapshot ${index} (${JSON.stringify(counter?.expression)} ${end.problem}): taking it now`);
        }
      }
      if (signal?.aborted) break;
      if (gone || session.gone) {
        targetExited = true;
        break;
      }
      const path = `${options.outDir}/${options.stem}-${index}.heapsnapshot`;
      const readCounterValue = counter
        ? async (): Promise<number | undefined> => {
            const read = await readCounter(session, counter.expression);
            if (read.ok) return read.value;
            warn(`the counter could not be read before snapshot ${index}: ${JSON.stringify(counter.expression)} ${read.problem}`);
            return undefined;
          }
        : undefined;
      let snapshot: CapturedSnapshot | undefined;
      try {
        snapshot = await captureSnapshot(session, path, index, signal, events, readCounterValue, options.pid);
      } catch (err) {
        if (!(err instanceof ConnectionClosedError)) throw err;
        targetExited = true;
        break;
      }
      if (!snapshot) break; // stopped
      snapshots.push(snapshot);
      events.onSnapshot?.(snapshot);
      if (options.settle && index >= options.settle.from) {
        const asked = Date.now();
        if (!(await options.settle.moreNeeded(snapshots))) {
          settled = 'settled';
          break;
        }
        answeredMs = Date.now() - asked;
        if (index === options.snapshots) settled = 'budget';
      }
      if (index === 1 && options.afterFirst) {
        try {
          await options.afterFirst();
        } catch (err) {
          if (!(err instanceof ConnectionClosedError)) throw err;
          targetExited = true;
          break;
        }
      }
    }
  } finally {
    await sampler.stop();
  }
  let holderReads: HolderReads[] | undefined;
  const after = options.settle?.afterBudget;
  if (after && settled === 'budget' && !signal?.aborted && !targetExited && !session.gone) {
    const holders = after.holders();
    if (holders.length > 0) {
      events.onHolderReads?.(holders, after.intervals);
      try {
        holderReads = await readHolders({
          session, holders, intervals: after.intervals, readEveryMs: options.sampleEveryMs,
          ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }),
          ...(counter ? { counter } : {}),
          ...(signal ? { signal } : {}),
          ...(options.settle?.deadline === undefined ? {} : { deadline: options.settle.deadline }),
          tick: (interval, wait) => events.onHolderWait?.(interval, after.intervals, wait),
        });
      } catch (err) {
        // The snapshots are whole whatever happened to the reads: the diagnosis goes on without them.
        const why = err instanceof ConnectionClosedError ? 'the inspector connection closed' : (err as Error).message;
        warn(`the candidates' holders could not be read (${why}): the diagnosis uses the snapshots alone`);
      }
    }
  }
  // A dropped connection to a process that still runs is not an exit: say which it was.
  const endedBy: CaptureEnd = signal?.aborted
    ? 'signal'
    : !targetExited
      ? settled ?? 'complete'
      : options.pid !== undefined && !(await exitsWithin(options.pid, EXIT_WAIT_MS)) ? 'connection-lost' : 'target-exited';
  return {
    snapshots,
    samples: sampler.samples,
    requested: options.snapshots,
    endedBy,
    ...(signal?.aborted ? { stoppedBy: String(signal.reason ?? 'aborted') } : {}),
    ...(holderReads && holderReads.length > 0 && !signal?.aborted ? { holderReads } : {}),
    warnings,
  };
}
