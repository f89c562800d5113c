// Waiting between two snapshots of a series. The wait starts when the previous snapshot has ENDED (the
// target was frozen for the whole of it), so the target gets the full interval of running time; on a
// loaded machine a snapshot takes seconds, and measuring start to start left it almost no time.
// Two ways to wait:
//   time:  `ms` of running time, ticking once a second;
//   units: until the counter advanced by `every` since the previous snapshot, polled every `pollMs`;
//          `ms`, when given, is the longest wait (the caller then takes the snapshot anyway and warns).
// Either ends early when the signal fires or the target goes away.

import type { CounterRead } from './counter.js';
import type { TargetSession } from './session.js';

export interface WaitProgress {
  /** Time left (time mode), or before the longest wait runs out (units mode with a limit). */
  readonly remainingMs?: number;
  /** Units mode: how far the counter advanced since the previous snapshot, and how far it must. */
  readonly units?: number;
  readonly every?: number;
}

export interface UnitWait {
  readonly read: () => Promise<CounterRead>;
  /** The counter at the previous snapshot; undefined when it could not be read (the first poll is the base). */
  readonly from: number | undefined;
  readonly every: number;
  readonly pollMs: number;
}

export interface WaitOptions {
  readonly session: TargetSession;
  readonly signal?: AbortSignal | undefined;
  readonly ms?: number | undefined;
  readonly units?: UnitWait | undefined;
  readonly tick: (progress: WaitProgress) => void;
}

export type WaitEnd =
  | { readonly by: 'time' }
  | { readonly by: 'units'; readonly units: number }
  | { readonly by: 'longest-wait'; readonly units: number | undefined }
  | { readonly by: 'counter-failed'; readonly problem: string }
  | { readonly by: 'stopped' };

/** Sleeps `ms`; resolves early (with false) when `stop` fires. */
function pauseFor(ms: number, stop: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (stop.aborted) return resolve(false);
    const onStop = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      stop.removeEventListener('abort', onStop);
      resolve(true);
    }, Math.max(0, ms));
    stop.addEventListener('abort', onStop, { once: true });
  });
}

export async function waitForNext(options: WaitOptions): Promise<WaitEnd> {
  const { session, signal } = options;
  if (signal?.aborted || session.gone) return { by: 'stopped' };
  // One listener on the session a wait (not one a poll): it stops the sleeps below.
  const stopper = new AbortController();
  const stop = (): void => stopper.abort();
  signal?.addEventListener('abort', stop, { once: true });
  session.onGone(stop);
  try {
    return await waitUntil(options, stopper.signal);
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}

async function waitUntil(options: WaitOptions, stop: AbortSignal): Promise<WaitEnd> {
  const end = options.ms === undefined ? undefined : Date.now() + options.ms;
  const units = options.units;
  if (!units) {
    if (end === undefined) throw new Error('waitForNext: a time or a counter to wait for');
    for (;;) {
      const remainingMs = end - Date.now();
      if (remainingMs <= 0) return { by: 'time' };
      options.tick({ remainingMs });
      if (!(await pauseFor(Math.min(1000, remainingMs), stop))) return { by: 'stopped' };
    }
  }
  let from = units.from;
  for (;;) {
    if (stop.aborted) return { by: 'stopped' };
    let read: CounterRead;
    try {
      read = await units.read();
    } catch {
      return { by: 'stopped' }; // the connection closed: the caller sees the target gone
    }
    if (!read.ok) return { by: 'counter-failed', problem: read.problem };
    from ??= read.value;
    const advanced = read.value - from;
    if (advanced >= units.every) return { by: 'units', units: advanced };
    const remainingMs = end === undefined ? undefined : end - Date.now();
    if (remainingMs !== undefined && remainingMs <= 0) return { by: 'longest-wait', units: advanced };
    options.tick({ units: advanced, every: units.every, ...(remainingMs === undefined ? {} : { remainingMs }) });
    const sleepMs = remainingMs === undefined ? units.pollMs : Math.min(units.pollMs, remainingMs);
    if (!(await pauseFor(sleepMs, stop))) return { by: 'stopped' };
  }
}
