// Allocation tracking in a target for the length of a capture (`attach --trace-allocations`): turned on
// after the first snapshot, so every object born after it (a survivor) carries the stack that made it,
// and turned off before the session detaches, on every way leakhunt ends: the normal end calls `stop`,
// and the tracking is registered in open-resources.ts, which every exit path closes (last opened first:
// before the session it runs in). Should leakhunt die without a word (kill -9), the target ends the
// inspector session when the connection drops, and V8 stops tracking with it (docs/allocation-sites.md).
//
// Node 20 (V8 11.3): code compiled before tracking began allocates without telling the tracker (measured:
// after 100k warm-up calls, 0 of 1000 new objects carried a trace; on 22 and 24, 1000 of 1000). So on 20
// the compiled code is discarded once tracking is on (session.ts: precise coverage on and off), and what
// is compiled again allocates through the tracker (1000 of 1000 after 300k calls more).
//
// Heap compaction is held off while tracking (tracking-compaction.ts), renewed here every few seconds
// and released before tracking stops: otherwise most tracked objects lose their stacks when a GC moves them.

import { ConnectionClosedError } from './cdp-connection.js';
import { holdOpen } from './open-resources.js';
import type { TargetSession } from './session.js';
import { RENEW_EVERY_MS, type CompactionHold } from './tracking-compaction.js';

export interface AllocationTracking {
  /** When tracking was turned on (Unix ms), and how long the target paused for it. */
  readonly startedAt: number;
  readonly startPauseMs: number;
  /** Whether heap compaction is held off in the target while tracking (tracking-compaction.ts). */
  readonly compaction: CompactionHold;
  /** Turns tracking off; safe to call twice, and after the target is gone. */
  stop(): Promise<void>;
  /** Whether `stop` has finished (or was not needed: the target had gone). */
  readonly stopped: boolean;
}

export async function startAllocationTracking(session: TargetSession): Promise<AllocationTracking> {
  let stopping: Promise<void> | undefined;
  let stopped = false;
  // Registered before the command goes out: a signal while V8 starts tracking still turns it off.
  const unregister = holdOpen({
    what: `allocation tracking in pid ${session.info.pid}`,
    close: () => stop(),
  });
  let renewal: NodeJS.Timeout | undefined;
  const stop = (): Promise<void> => {
    clearInterval(renewal);
    stopping ??= (async () => {
      try {
        if (!session.gone) await session.stopAllocationTracking();
      } catch (err) {
        // A target that went away stopped tracking with its session.
        if (!(err instanceof ConnectionClosedError) && !session.gone) throw err;
      } finally {
        stopped = true;
        unregister();
      }
    })();
    return stopping;
  };
  const started = Date.now();
  let compaction: CompactionHold;
  try {
    compaction = await session.startAllocationTracking(compiledCodeEscapesTracking(session.info.nodeVersion));
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
  const startedAt = Date.now();
  if (compaction === 'held') {
    // Renewed while the session is free; during a snapshot the target's watchdog is paused too.
    renewal = setInterval(() => {
      if (stopping || session.gone || session.busy) return;
      session.renewCompactionHold().catch(() => {});
    }, RENEW_EVERY_MS);
    renewal.unref();
  }
  return {
    startedAt,
    startPauseMs: startedAt - started,
    compaction,
    stop,
    get stopped() {
      return stopped;
    },
  };
}

/** Whether code compiled before tracking began allocates unseen by it (V8 11.3, Node 20). */
export function compiledCodeEscapesTracking(nodeVersion: string): boolean {
  return /^v20\./.test(nodeVersion);
}
