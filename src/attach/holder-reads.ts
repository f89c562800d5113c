// After the last snapshot of a capture that ran out of snapshots unsettled: read the member count of
// the candidates' holders (by the ids the snapshots gave them) for a few more intervals, paced as the
// snapshots were, with no pause and no snapshot (diagnose/holder-reads.ts judges the reads). The reads
// are numbers only; the handles are released before this returns.

import { readCounter } from './counter.js';
import type { CounterOptions } from './counter.js';
import type { TargetSession } from './session.js';
import { waitForNext, type WaitProgress } from './wait-next.js';

/**
 * One holder's reads: `interval` 0 is the start, just after the last snapshot; `at` in Unix ms. The shape
 * diagnose/holder-reads.ts judges (attach and diagnose share no module).
 */
export type HolderReads = {
  readonly holderId: number;
  readonly className: string;
  readonly reads: readonly { readonly interval: number; readonly at: number; readonly count: number }[];
};

export interface HolderToRead {
  readonly holderId: number;
  readonly className: string;
}

export interface HolderReadOptions {
  readonly session: TargetSession;
  readonly holders: readonly HolderToRead[];
  /** Intervals to read over, each as long as the snapshots' (time, or the counter's advance). */
  readonly intervals: number;
  readonly intervalMs?: number;
  readonly counter?: CounterOptions;
  /** Time between reads within an interval. */
  readonly readEveryMs: number;
  readonly signal?: AbortSignal;
  /** No interval starts after this (Unix ms). */
  readonly deadline?: number;
  readonly tick?: (interval: number, wait: WaitProgress) => void;
}

/** Reads at the start, a short moment apart: the start's floor. */
const START_READS = 3;

export async function readHolders(o: HolderReadOptions): Promise<HolderReads[]> {
  const { session } = o;
  const handles: { holder: HolderToRead; handle: string; reads: { interval: number; at: number; count: number }[] }[] = [];
  try {
    for (const holder of o.holders) {
      const handle = await session.holderHandle(holder.holderId);
      if (handle !== undefined) handles.push({ holder, handle, reads: [] });
    }
    if (handles.length === 0) return [];
    let readable = handles;
    const readAll = async (interval: number): Promise<void> => {
      const at = Date.now();
      for (const h of readable) {
        const count = await session.memberCount(h.handle);
        if (count !== undefined) h.reads.push({ interval, at, count });
      }
    };
    for (let k = 0; k < START_READS; k++) {
      if (k > 0) await sleep(Math.min(o.readEveryMs, 100));
      await readAll(0);
    }
    // A holder that gives no count (not a collection, or refused) is not read on: with none left, no
    // interval is waited for.
    readable = handles.filter((h) => h.reads.length > 0);
    if (readable.length === 0) return [];
    const every = o.counter?.every;
    for (let interval = 1; interval <= o.intervals; interval++) {
      if (o.signal?.aborted || session.gone) break;
      if (o.deadline !== undefined && Date.now() >= o.deadline) break;
      const from = o.counter ? await readCounter(session, o.counter.expression) : undefined;
      let reading = Promise.resolve();
      let waiting = true;
      const timer = setInterval(() => {
        reading = reading.then(() => (waiting ? readAll(interval) : undefined)).catch(() => undefined);
      }, o.readEveryMs);
      try {
        await waitForNext({
          session,
          signal: o.signal,
          ms: o.intervalMs,
          units: o.counter && every !== undefined
            ? { read: () => readCounter(session, o.counter!.expression), from: from?.ok ? from.value : undefined, every, pollMs: o.readEveryMs }
            : undefined,
          tick: (wait) => o.tick?.(interval, wait),
        });
      } finally {
        waiting = false;
        clearInterval(timer);
        await reading;
      }
      if (o.signal?.aborted || session.gone) break;
      await readAll(interval);
    }
    return handles.filter((h) => h.reads.length > 0).map((h) => ({ holderId: h.holder.holderId, className: h.holder.className, reads: h.reads }));
  } finally {
    if (!session.gone) await session.releaseHolders().catch(() => undefined);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
