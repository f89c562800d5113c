// `watch` as a function: a memory sample every interval (RSS from /proc, the cgroup limit, and with a
// session the memoryUsage() figures), for a while or until stopped, then the trend. No GC, no snapshot,
// no pause: the only thing evaluated in the target is `process.memoryUsage()`. The trend is computed
// by the caller (src/diagnose/memory-trend.ts).

import { readCgroupLimit, readMemoryRoom } from './memory-limits.js';
import { MemorySampler, type MemorySample } from './memory-sampler.js';
import { exitsWithin } from './proc-status.js';
import type { TargetSession } from './session.js';

export interface WatchSample extends MemorySample {
  /** The binding cgroup memory limit, or null when there is none. */
  readonly limit: number | null;
}

export interface WatchOptions {
  /** The local pid (RSS and limits from /proc); without it RSS comes from memoryUsage(). */
  readonly pid?: number;
  readonly session?: TargetSession;
  readonly everyMs: number;
  /** Stop after this long; undefined: until the signal fires. */
  readonly forMs?: number;
  readonly signal?: AbortSignal;
  readonly onSample?: (sample: WatchSample) => void;
}

export interface WatchResult {
  readonly samples: readonly WatchSample[];
  readonly endedBy: 'duration' | 'signal' | 'target-exited';
  /** What is left under the limit at the end (for the time-to-limit estimate). */
  readonly headroomBytes?: number;
  /** Where the trend's time-to-limit points: the cgroup limit, or the machine's available memory. */
  readonly limitKind?: 'cgroup' | 'machine';
  readonly limitBytes?: number;
}

export async function runWatch(options: WatchOptions): Promise<WatchResult> {
  const samples: WatchSample[] = [];
  let endedBy: WatchResult['endedBy'] = 'duration';
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  const pid = options.pid;
  const sampler = new MemorySampler(
    { ...(pid === undefined ? {} : { pid }), ...(options.session ? { session: options.session } : {}) },
    options.everyMs,
    (s) => {
      const limit = pid === undefined ? null : readCgroupLimit(pid)?.limitBytes ?? null;
      const sample = { ...s, limit };
      samples.push(sample);
      options.onSample?.(sample);
    },
    () => {
      endedBy = 'target-exited';
      finish();
    },
  );
  const timer = options.forMs === undefined ? undefined : setTimeout(finish, options.forMs);
  const onAbort = (): void => {
    endedBy = 'signal';
    finish();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  options.session?.onGone(() => {
    void (async () => {
      if (pid !== undefined && !(await exitsWithin(pid, 1000))) return; // only the inspector went away: RSS goes on
      endedBy = 'target-exited';
      finish();
    })();
  });
  if (options.signal?.aborted) onAbort();
  sampler.start();
  await done;
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', onAbort);
  await sampler.stop();
  const room = pid === undefined ? undefined : readMemoryRoom(pid);
  const limitKind = room?.cgroup ? 'cgroup' : room?.memAvailableBytes !== undefined ? 'machine' : undefined;
  return {
    samples,
    endedBy,
    ...(room?.headroomBytes === undefined ? {} : { headroomBytes: room.headroomBytes }),
    ...(limitKind ? { limitKind } : {}),
    ...(room?.limitBytes === undefined ? {} : { limitBytes: room.limitBytes }),
  };
}
