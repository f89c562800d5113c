// Capturing a series from an open session: memory samples all along, and N heap snapshots at an
// interval, each after a forced GC, each streamed to `<out>/<stem>-<n>.heapsnapshot` with its JSON
// beside it. Stopping (an aborted signal) removes the snapshot in progress; a target that exits
// mid-capture ends the series with what was captured. Progress goes out through callbacks only; the
// caller detaches the session (in a finally) whatever happens here.

import { ConnectionClosedError } from './cdp-connection.js';
import { MemorySampler, type MemorySample } from './memory-sampler.js';
import { exitsWithin } from './proc-status.js';
import type { MemoryUsage, TargetSession } from './session.js';
import { SnapshotFileWriter, writePrivateJson } from './snapshot-file.js';

export type SnapshotPhase = 'gc' | 'generating' | 'writing';

export interface SnapshotEvents {
  /** `done`/`total` while generating (V8's progress), `bytes` written while writing. */
  onPhase?(index: number, phase: SnapshotPhase, progress: { done?: number; total?: number; bytes?: number }): void;
}

export interface CaptureEvents extends SnapshotEvents {
  onSample?(sample: MemorySample): void;
  onSnapshot?(snapshot: CapturedSnapshot): void;
  /** Once a second while waiting for the next snapshot. */
  onCountdown?(nextIndex: number, remainingMs: number): void;
}

export interface CapturedSnapshot {
  /** 1-based position in the series. */
  readonly index: number;
  readonly file: string;
  readonly metaFile: string;
  /** ISO time the snapshot was asked for. */
  readonly takenAt: string;
  /** GC plus generation plus transfer: about how long the target was paused. */
  readonly durationMs: number;
  readonly bytes: number;
  /** After the forced GC, just before the snapshot. */
  readonly memoryUsage?: MemoryUsage;
}

export interface CaptureOptions {
  readonly session: TargetSession;
  /** The local pid (for /proc samples and to tell an exit from a dropped connection). */
  readonly pid?: number;
  readonly outDir: string;
  /** File names are `<stem>-<n>.heapsnapshot`. */
  readonly stem: string;
  readonly snapshots: number;
  readonly intervalMs: number;
  readonly sampleEveryMs: number;
  readonly signal?: AbortSignal;
  readonly events?: CaptureEvents;
}

/** How long a process whose inspector connection dropped gets to show that it exited. */
const EXIT_WAIT_MS = 1000;

export type CaptureEnd = 'complete' | 'signal' | 'target-exited' | 'connection-lost';

export interface CaptureResult {
  readonly snapshots: readonly CapturedSnapshot[];
  readonly samples: readonly MemorySample[];
  readonly requested: number;
  /** Why the series ended: all taken, stopped by the signal, the target exited, or only its inspector went away. */
  readonly endedBy: CaptureEnd;
  /** Set when the capture was stopped by the signal (its reason, e.g. `SIGINT`). */
  readonly stoppedBy?: string;
}

/** The JSON file beside a snapshot: `x.heapsnapshot` → `x.json`. */
export function metaPathOf(snapshotPath: string): string {
  return snapshotPath.endsWith('.heapsnapshot') ? `${snapshotPath.slice(0, -'.heapsnapshot'.length)}.json` : `${snapshotPath}.json`;
}

/**
 * One snapshot to `path`: GC, memoryUsage, snapshot streamed through a partial file. Returns undefined
 * when the signal fired meanwhile (the target still finishes its snapshot, which cannot be cancelled;
 * the chunks are dropped and the partial file is gone). Throws ConnectionClosedError if the target went away.
 */
export async function captureSnapshot(
  session: TargetSession, path: string, index: number, signal: AbortSignal | undefined, events: SnapshotEvents = {},
): Promise<CapturedSnapshot | undefined> {
  const writer = SnapshotFileWriter.create(path);
  const onAbort = (): void => writer.discard();
  signal?.addEventListener('abort', onAbort, { once: true });
  const takenAt = new Date();
  const started = Date.now();
  let memoryUsage: MemoryUsage | undefined;
  let lastReport = 0;
  try {
    events.onPhase?.(index, 'gc', {});
    await session.collectGarbage();
    if (signal?.aborted) {
      writer.discard(); // stopped during the GC: do not pause the target again for nothing
      return undefined;
    }
    memoryUsage = await session.memoryUsage().catch(() => undefined);
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
  };
  writePrivateJson(metaFile, { pid: session.info.pid, nodeVersion: session.info.nodeVersion, ...snapshot });
  return snapshot;
}

/** Waits `ms`, ticking once a second; resolves early when the signal fires or the target goes. */
function countdown(ms: number, signal: AbortSignal | undefined, session: TargetSession, tick: (remainingMs: number) => void): Promise<void> {
  return new Promise((resolve) => {
    const end = Date.now() + ms;
    let timer: NodeJS.Timeout | undefined;
    const finish = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', finish);
      resolve();
    };
    const step = (): void => {
      const remaining = end - Date.now();
      if (remaining <= 0 || session.gone) return finish();
      tick(remaining);
      timer = setTimeout(step, Math.min(1000, remaining));
    };
    signal?.addEventListener('abort', finish, { once: true });
    session.onGone(finish);
    step();
  });
}

export async function captureSeries(options: CaptureOptions): Promise<CaptureResult> {
  const { session, signal, events = {} } = options;
  let gone = false;
  const sampler = new MemorySampler(
    { ...(options.pid === undefined ? {} : { pid: options.pid }), session },
    options.sampleEveryMs,
    (s) => events.onSample?.(s),
    () => (gone = true),
  );
  const snapshots: CapturedSnapshot[] = [];
  let targetExited = false;
  sampler.start();
  try {
    let nextAt = Date.now();
    for (let index = 1; index <= options.snapshots; index++) {
      if (index > 1) await countdown(nextAt - Date.now(), signal, session, (ms) => events.onCountdown?.(index, ms));
      if (signal?.aborted) break;
      if (gone || session.gone) {
        targetExited = true;
        break;
      }
      nextAt = Date.now() + options.intervalMs;
      const path = `${options.outDir}/${options.stem}-${index}.heapsnapshot`;
      let snapshot: CapturedSnapshot | undefined;
      try {
        snapshot = await captureSnapshot(session, path, index, signal, events);
      } catch (err) {
        if (!(err instanceof ConnectionClosedError)) throw err;
        targetExited = true;
        break;
      }
      if (!snapshot) break; // stopped
      snapshots.push(snapshot);
      events.onSnapshot?.(snapshot);
    }
  } finally {
    await sampler.stop();
  }
  // A dropped connection to a process that still runs is not an exit: say which it was.
  const endedBy: CaptureEnd = signal?.aborted
    ? 'signal'
    : !targetExited
      ? 'complete'
      : options.pid !== undefined && !(await exitsWithin(options.pid, EXIT_WAIT_MS)) ? 'connection-lost' : 'target-exited';
  return {
    snapshots,
    samples: sampler.samples,
    requested: options.snapshots,
    endedBy,
    ...(signal?.aborted ? { stoppedBy: String(signal.reason ?? 'aborted') } : {}),
  };
}
