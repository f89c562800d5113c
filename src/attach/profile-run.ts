// `leakhunt profile` as a function: the sampling heap profiler started in the target, then a reading
// every interval — the live sampled profile, `process.memoryUsage()` and the work counter (read without
// side effects, counter.ts) — until N readings are in, the signal fires or the target goes away; the
// profiler is stopped on every path (sampling-profile.ts registers the stop). No snapshot and no GC of
// ours; each read pauses the target for V8's own GC and the profile (`readMs`).

import { AttachError } from '../errors.js';
import { readCounter } from './counter.js';
import { startSampling, type SampledProfile } from './sampling-profile.js';
import type { MemoryUsage, TargetSession } from './session.js';
import { waitForNext } from './wait-next.js';

export interface ProfileReading {
  /** 1-based. */
  readonly index: number;
  readonly takenAt: string;
  /** Since sampling started. */
  readonly elapsedMs: number;
  /** The work counter (--counter) at this reading, when it could be read. */
  readonly counter?: number;
  readonly memoryUsage?: MemoryUsage;
  /** How long the target took to build and send the profile. */
  readonly readMs: number;
  readonly profile: SampledProfile;
}

export type ProfileEnd = 'complete' | 'signal' | 'target-exited' | 'connection-lost';

export interface ProfileRunOptions {
  readonly session: TargetSession;
  readonly samplingInterval: number;
  readonly intervalMs: number;
  readonly readings: number;
  readonly counter?: string;
  readonly signal?: AbortSignal;
  readonly onReading?: (r: ProfileReading) => void;
  readonly onWait?: (remainingMs: number, next: number) => void;
  readonly onWarning?: (w: string) => void;
}

export interface ProfileRun {
  readonly readings: readonly ProfileReading[];
  readonly endedBy: ProfileEnd;
  readonly startedAt: string;
  readonly warnings: readonly string[];
}

export async function runProfile(options: ProfileRunOptions): Promise<ProfileRun> {
  const { session } = options;
  const warnings: string[] = [];
  const warn = (w: string): void => {
    warnings.push(w);
    options.onWarning?.(w);
  };
  const readings: ProfileReading[] = [];
  const startedAt = new Date();
  const sampling = await startSampling(session, options.samplingInterval);
  let endedBy: ProfileEnd = 'complete';
  try {
    while (readings.length < options.readings) {
      const end = await waitForNext({
        session,
        signal: options.signal,
        ms: options.intervalMs,
        tick: (p) => options.onWait?.(p.remainingMs ?? 0, readings.length + 1),
      });
      if (end.by === 'stopped') break;
      let counter: number | undefined;
      if (options.counter !== undefined) {
        const read = await readCounter(session, options.counter).catch(() => undefined);
        if (read?.ok) counter = read.value;
        else if (read) warn(`--counter ${JSON.stringify(options.counter)} ${read.problem} at reading ${readings.length + 1}`);
      }
      const memoryUsage = await session.memoryUsage().catch(() => undefined);
      const t0 = Date.now();
      let profile: SampledProfile;
      try {
        profile = await sampling.read();
      } catch (err) {
        if (session.gone) break;
        throw err;
      }
      const reading: ProfileReading = {
        index: readings.length + 1,
        takenAt: new Date(t0).toISOString(),
        elapsedMs: t0 - startedAt.getTime(),
        ...(counter === undefined ? {} : { counter }),
        ...(memoryUsage ? { memoryUsage } : {}),
        readMs: Date.now() - t0,
        profile,
      };
      readings.push(reading);
      options.onReading?.(reading);
    }
  } finally {
    await sampling.stop().catch((err: unknown) => {
      if (!session.gone) throw new AttachError(`the sampling heap profiler of pid ${session.info.pid} could not be stopped: ${(err as Error).message}`);
    });
  }
  if (options.signal?.aborted) endedBy = 'signal';
  else if (session.gone) endedBy = session.exiting !== undefined ? 'target-exited' : 'connection-lost';
  return { readings, endedBy, startedAt: startedAt.toISOString(), warnings };
}
