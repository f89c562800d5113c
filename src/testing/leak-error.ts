// The failure assertNoLeak throws: a node:assert AssertionError (so every runner shows it as a failed
// assertion; operator 'fail' makes jest print the message as it is) whose message names each leaking
// class, objects and bytes per iteration, the retainer chain (leaked object first, one hop a line,
// with the labels of src/diagnose) and the fix, and whose `leaks` property carries the same as data.
// Heap strings never reach the message or the data: chains name classes, ids, sizes and edge names, and
// edge names that could be data (a dictionary key such as a session id) are replaced by their length,
// by the one rule every output follows (analysis/redact.ts).

import type { FindingAllocation } from '../diagnose/finding.js';
import { frameText } from '../diagnose/finding-allocation.js';
import { AssertionError } from 'node:assert';
import type { ChainHop } from '../analysis/chain-description.js';
import { chainLines } from '../report/chain-lines.js';
import { formatBytes } from '../report/format.js';

export interface LeakReport {
  /** The class that grows (the top-most one when several grow together; see alsoHeld). */
  readonly className: string;
  /** Objects of the class left behind per iteration. */
  readonly perIteration: number;
  /** Bytes they retain per iteration. */
  readonly bytesPerIteration: number;
  /** Survivors at the last snapshot, and at each snapshot (after warm-up, after N, after 2N iterations). */
  readonly count: number;
  readonly counts: readonly number[];
  /** The retainer-path signature (as `leakhunt diff` shows it), object first. */
  readonly signature: string;
  /** The chain of one member, leaked object first, root last. */
  readonly chain: readonly ChainHop[];
  readonly fix: string;
  /** Other growing groups held through these objects, e.g. `60 × Session`. */
  readonly alsoHeld: readonly string[];
  /** True when no single path grew but the class's survivors did (objects kept under per-entry keys). */
  readonly byClass: boolean;
  /** Where the leaked objects (or the holder that keeps them) were made: frames innermost first, 1-based lines. */
  readonly allocation?: FindingAllocation;
}

export interface LeakErrorData {
  readonly leaks: readonly LeakReport[];
  readonly iterations: number;
  readonly warmup: number;
  readonly bytesPerIterationBudget: number;
  /** The snapshot files, when kept (`keepSnapshots`). */
  readonly snapshots: readonly string[];
}

/** Hops shown in a message; the rest are counted. */
const MAX_HOPS = 14;
/** `1`, `2.5`, `0.33`: objects per iteration. */
export function formatRate(x: number): string {
  if (Math.abs(x - Math.round(x)) < 0.05) return String(Math.round(x));
  return x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

function leakLines(leak: LeakReport, index: number, iterations: number): string[] {
  const shown = leak.chain.slice(0, MAX_HOPS);
  const lines = [
    `${index + 1}. ${leak.className}: ${formatRate(leak.perIteration)} per iteration, ${formatBytes(leak.bytesPerIteration)} per iteration` +
      ` (alive after warm-up, +${iterations}, +${2 * iterations} iterations: ${leak.counts.join(' → ')}` +
      `${leak.byClass ? '; summed over several paths' : ''})`,
    '   held by (leaked object first, one hop a line):',
    ...chainLines(shown, '     '),
  ];
  const more = leak.chain.length - shown.length;
  if (more > 0) lines.push(`       ← … ${more} more ${more === 1 ? 'hop' : 'hops'} to the GC roots`);
  if (leak.alsoHeld.length) lines.push(`   also held with it: ${leak.alsoHeld.join(', ')}`);
  if (leak.allocation) lines.push(`   ${leak.allocation.holder ? `the ${leak.allocation.holder.className} holding them created at` : 'created at'} ${leak.allocation.frames.map(frameText).join(' → ')}`);
  lines.push(`   fix: ${leak.fix}`);
  return lines;
}

export function leakMessage(data: LeakErrorData): string {
  const { leaks, iterations, warmup } = data;
  const total = leaks.reduce((sum, l) => sum + l.bytesPerIteration, 0);
  const what = leaks.map((l) => `${formatRate(l.perIteration)} ${l.className}`).join(', ');
  const budget = data.bytesPerIterationBudget > 0 ? `, over the budget of ${formatBytes(data.bytesPerIterationBudget)}` : '';
  return [
    `assertNoLeak: each iteration leaves ${what} behind (${formatBytes(total)} per iteration${budget})`,
    `Objects born after ${warmup} warm-up iterations and still alive grew in proportion to the iterations: about as many in the first ${iterations} as in the next ${iterations}.`,
    '',
    ...leaks.flatMap((leak, i) => [...leakLines(leak, i, iterations), '']),
    data.snapshots.length ? `snapshots kept: ${data.snapshots.join(' ')} (compare them with \`leakhunt diff\`)` : '',
  ].join('\n').trimEnd();
}

/** What assertNoLeak throws when the function leaks: `instanceof AssertionError`, code ERR_ASSERTION. */
export class LeakAssertionError extends AssertionError {
  readonly leaks: readonly LeakReport[];
  readonly iterations: number;
  readonly warmup: number;
  readonly bytesPerIterationBudget: number;
  readonly snapshots: readonly string[];

  constructor(data: LeakErrorData) {
    super({ message: leakMessage(data), operator: 'fail', stackStartFn: new.target });
    this.leaks = data.leaks;
    this.iterations = data.iterations;
    this.warmup = data.warmup;
    this.bytesPerIterationBudget = data.bytesPerIterationBudget;
    this.snapshots = data.snapshots;
  }
}
