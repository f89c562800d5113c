// Memory samples of the target at a steady interval: RSS from /proc/PID/status (free, works for any
// process), and with an inspector session heapUsed / heapTotal / external / arrayBuffers from
// `process.memoryUsage()`. While a GC or snapshot pauses the target only the /proc figures are taken
// (an evaluate would just queue behind the pause). One sample in flight at a time.

import { readProcStatus, PROC_ROOT } from './proc-status.js';
import type { TargetSession } from './session.js';

export interface MemorySample {
  /** Unix time in ms. */
  readonly t: number;
  readonly rss: number;
  readonly heapUsed?: number;
  readonly heapTotal?: number;
  readonly external?: number;
  readonly arrayBuffers?: number;
}

export interface SampleSource {
  /** The local pid whose /proc RSS is read; without it RSS comes from memoryUsage(). */
  readonly pid?: number;
  readonly session?: TargetSession;
  readonly procRoot?: string;
}

/** One sample; undefined when the target is gone. */
export async function takeSample(source: SampleSource, timeoutMs: number): Promise<MemorySample | undefined> {
  const t = Date.now();
  let rss: number | undefined;
  if (source.pid !== undefined) {
    try {
      const status = readProcStatus(source.pid, source.procRoot ?? PROC_ROOT);
      if (status.exited) return undefined;
      rss = status.rssBytes;
    } catch {
      return undefined;
    }
  }
  const session = source.session;
  if (session && !session.busy && !session.gone) {
    try {
      const m = await session.memoryUsage(timeoutMs);
      return { t, rss: rss ?? m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers };
    } catch {
      // paused or going away: the /proc figure is still a sample
    }
  }
  return rss === undefined ? undefined : { t, rss };
}

/** Samples every `everyMs` until stopped; the first sample is taken at once. */
export class MemorySampler {
  readonly samples: MemorySample[] = [];
  readonly #source: SampleSource;
  readonly #everyMs: number;
  readonly #onSample: (sample: MemorySample) => void;
  readonly #onGone: () => void;
  #timer: NodeJS.Timeout | undefined;
  #inFlight: Promise<void> | undefined;

  constructor(source: SampleSource, everyMs: number, onSample: (s: MemorySample) => void, onGone: () => void = () => {}) {
    this.#source = source;
    this.#everyMs = everyMs;
    this.#onSample = onSample;
    this.#onGone = onGone;
  }

  start(): void {
    this.#tick();
    this.#timer = setInterval(() => this.#tick(), this.#everyMs);
  }

  /** Stops sampling and waits for a sample in flight. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#inFlight;
  }

  #tick(): void {
    if (this.#inFlight) return;
    this.#inFlight = takeSample(this.#source, Math.max(250, this.#everyMs))
      .then((s) => {
        if (s === undefined) return this.#onGone();
        this.samples.push(s);
        this.#onSample(s);
      })
      .catch(() => {}) // a listener that failed (stdout closed) must not stop the capture
      .finally(() => (this.#inFlight = undefined));
  }
}
