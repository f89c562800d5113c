// assertNoLeak(fn): run a unit of work many times in this thread and fail, with the reason, when each
// run leaves objects behind. Warm-up runs; snapshot S1; N runs; S2; N runs; S3 (each snapshot after
// pending work settled and two forced collections; in-process-heap.ts). The snapshots go through the
// survivor engine of `leakhunt diff` (survivor-curves.ts: groups by retainer path, chains labelled by
// src/diagnose); proportional-growth.ts decides what grew with the iterations; src/diagnose's
// suggestFix says what to change (choose-fix.ts). Throws LeakAssertionError on a leak over the budget,
// returns quietly otherwise. Never prints.

import type { GroupAllocation } from '../analysis/diff/group-allocation.js';
import type { FindingAllocation } from '../diagnose/finding.js';
import { frameText } from '../diagnose/finding-allocation.js';
import { clearTimeout, setTimeout } from 'node:timers';
import { chooseFix } from './choose-fix.js';
import { InProcessHeap } from './in-process-heap.js';
import { LeakAssertionError, type LeakReport } from './leak-error.js';
import { findProportionalGrowth } from './proportional-growth.js';
import { survivorCurves } from './survivor-curves.js';

export interface AssertNoLeakOptions {
  /** Runs between consecutive snapshots (N); there are two such intervals. Default 30. */
  readonly iterations?: number;
  /** Runs before the first snapshot, so caches and compiled code are in place. Default 5. */
  readonly warmup?: number;
  /** Classes that may grow: a name (exact) or a pattern, matched against the reported class. */
  readonly allow?: readonly (string | RegExp)[];
  /** Bytes per iteration the growing objects may retain in all before it counts as a leak. Default 0. */
  readonly bytesPerIteration?: number;
  /** Fail (with a plain Error, code ERR_LEAKHUNT_TIMEOUT) when the whole check takes longer. */
  readonly timeoutMs?: number;
  /** Keep the three snapshots (their paths are in the result and in the error). Default false. */
  readonly keepSnapshots?: boolean;
  /** Where the private snapshot directory is made. Default os.tmpdir(). */
  readonly snapshotDir?: string;
  /**
   * Track allocations during the iterations, so a failure names the line that made the leaked objects
   * (docs/allocation-sites.md). Default true; costs the iterations ~5-20× their time.
   */
  readonly traceAllocations?: boolean;
}

export interface NoLeakResult {
  readonly iterations: number;
  readonly warmup: number;
  /** Growth that was proportional but allowed (by `allow` or within `bytesPerIteration`). */
  readonly tolerated: readonly LeakReport[];
  /** The snapshot files when `keepSnapshots`, else empty (they were removed). */
  readonly snapshots: readonly string[];
  readonly durationMs: number;
}

/** A unit of work; receives the run's index (0-based, warm-up runs included). */
export type UnitOfWork = (iteration: number) => unknown;

const DEFAULTS = { iterations: 30, warmup: 5 } as const;

/** Thrown when `timeoutMs` passes before the check is done. */
export class LeakCheckTimeoutError extends Error {
  readonly code = 'ERR_LEAKHUNT_TIMEOUT';
  constructor(timeoutMs: number, phase: string) {
    super(`assertNoLeak: not done within ${timeoutMs} ms (${phase}); raise timeoutMs or lower iterations`);
    this.name = 'LeakCheckTimeoutError';
  }
}

let running = false;

function checkCount(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) throw new RangeError(`assertNoLeak: ${name} must be an integer ≥ ${min}, got ${String(value)}`);
  return value;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}

class Deadline {
  readonly #at: number;
  readonly #timeoutMs: number | undefined;

  constructor(timeoutMs: number | undefined) {
    this.#timeoutMs = timeoutMs;
    this.#at = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
  }

  check(phase: string): void {
    if (Date.now() > this.#at) throw new LeakCheckTimeoutError(this.#timeoutMs!, phase);
  }

  /**
   * Waits for one run's promise, no longer than the time left. The timer is per run and cleared, so
   * nothing of it survives (a race against one shared promise would add a reaction per run: a leak).
   */
  async wait(value: PromiseLike<unknown>, phase: string): Promise<void> {
    if (this.#timeoutMs === undefined) {
      await value;
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LeakCheckTimeoutError(this.#timeoutMs!, phase)), Math.max(0, this.#at - Date.now()));
    });
    try {
      await Promise.race([value, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

async function runTimes(fn: UnitOfWork, from: number, count: number, deadline: Deadline, phase: string): Promise<void> {
  for (let i = from; i < from + count; i++) {
    deadline.check(phase);
    const value = fn(i);
    if (isThenable(value)) await deadline.wait(value, phase);
  }
}

function isAllowed(report: LeakReport, allow: readonly (string | RegExp)[]): boolean {
  const names = [report.className, report.chain[0]?.node.className].filter((n): n is string => n !== undefined);
  return allow.some((a) => names.some((name) => (typeof a === 'string' ? name === a : a.test(name))));
}

/**
 * Runs `fn` (sync or async) `warmup` times, then twice `iterations` times with a heap snapshot before,
 * between and after, and throws a LeakAssertionError when objects left behind grow in proportion to
 * the iterations. Resolves with what was measured otherwise.
 */
export async function assertNoLeak(fn: UnitOfWork, options: AssertNoLeakOptions = {}): Promise<NoLeakResult> {
  if (typeof fn !== 'function') throw new TypeError('assertNoLeak: the first argument must be the function to run');
  // Below 10 a handful of objects made once per snapshot would already look like one per two iterations.
  const iterations = checkCount('iterations', options.iterations ?? DEFAULTS.iterations, 10);
  const warmup = checkCount('warmup', options.warmup ?? DEFAULTS.warmup, 0);
  const budget = options.bytesPerIteration ?? 0;
  if (!(budget >= 0)) throw new RangeError(`assertNoLeak: bytesPerIteration must be ≥ 0, got ${String(budget)}`);
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) throw new RangeError(`assertNoLeak: timeoutMs must be > 0, got ${String(options.timeoutMs)}`);
  if (running) {
    throw new Error('assertNoLeak: another check is running in this thread; checks measure the whole heap, so run them one at a time (not in concurrent tests)');
  }
  running = true;
  const started = Date.now();
  const keep = options.keepSnapshots === true;
  const deadline = new Deadline(options.timeoutMs);
  let heap: InProcessHeap | undefined;
  try {
    heap = InProcessHeap.open(options.snapshotDir);
    await runTimes(fn, 0, warmup, deadline, 'warm-up');
    const s1 = await heap.snapshot('1-after-warmup', keep);
    // From here on V8 records the stack of every allocation: a leak names the line that made it.
    if (options.traceAllocations !== false) await heap.trackAllocations();
    await runTimes(fn, warmup, iterations, deadline, 'first interval');
    deadline.check('snapshot 2');
    const s2 = await heap.snapshot('2-after-first-interval', keep);
    await runTimes(fn, warmup + iterations, iterations, deadline, 'second interval');
    deadline.check('snapshot 3');
    const s3 = await heap.snapshot('3-after-second-interval', true);
    deadline.check('analysis');
    const series = await survivorCurves([s1.maxId, s2.maxId], s3.file!);
    deadline.check('analysis');
    const units = 2 * iterations;
    const reports = findProportionalGrowth(series.groups, iterations).map((g): LeakReport => {
      const chain = g.chain; // redacted by the engine (analysis/redact.ts)
      return {
        className: g.className,
        perIteration: g.count / units,
        bytesPerIteration: Math.round(g.retainedSize / units),
        count: g.count,
        counts: g.counts,
        signature: g.signature,
        chain,
        fix: chooseFix(g.className, chain) + madeText(g.allocation),
        alsoHeld: g.alsoHeld,
        byClass: g.byClass,
        ...(g.allocation ? { allocation: allocationOf(g.allocation) } : {}),
      };
    });
    const allow = options.allow ?? [];
    const leaks = reports.filter((r) => !isAllowed(r, allow));
    const total = leaks.reduce((sum, r) => sum + r.bytesPerIteration, 0);
    const snapshots = keep ? [...heap.files] : [];
    if (leaks.length > 0 && total > budget) {
      throw new LeakAssertionError({
        leaks,
        iterations,
        warmup,
        bytesPerIterationBudget: budget,
        snapshots,
      });
    }
    return { iterations, warmup, tolerated: reports, snapshots, durationMs: Date.now() - started };
  } finally {
    heap?.close(keep);
    running = false;
  }
}

function allocationOf(site: GroupAllocation): FindingAllocation {
  return { frames: site.site.frames, share: site.share, ...(site.holder ? { holder: site.holder } : {}) };
}

/** The fix names the user's line when the site is in their code. */
function madeText(site: GroupAllocation | undefined): string {
  const user = site?.site.inUserCode ? site.site.frames[0] : undefined;
  if (!user) return '';
  return `; ${site!.holder ? `the ${site!.holder.className} that holds them is made` : 'they are made'} in ${frameText(user)}`;
}
