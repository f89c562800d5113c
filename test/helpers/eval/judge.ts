// The evaluation's judge (docs/evaluation.md): a verdict against the truth a program was built with, the
// exit code against the verdict, and the tallies the eval prints — confusion matrix (truth × verdict),
// detection by kept rate and by kept bytes, false alarms, inconclusives.

import { farFromLimit, keptPerInterval, NATIVE_HANDLE_CLASS, truthOf, type ProgramParams, type Truth } from './draw.js';
import type { Answer } from './run-program.js';

/** right; wrong (an alarm on a healthy program, a leak missed or misnamed, an attach that failed); or not sure near the limit. */
export type Judgement = 'right' | 'wrong' | 'inconclusive' | 'below-limit';

export interface Judged {
  readonly judgement: Judgement;
  /** Why it is wrong (empty when right). */
  readonly reasons: readonly string[];
}

/** Verdicts that raise an alarm: on a program that keeps nothing, each is a false alarm. */
export const ALARMS: ReadonlySet<string> = new Set(['leak', 'external', 'native', 'backlog']);
/** attach exits 1 exactly for these (src/cli/commands/attach.ts; no gates are set by the eval). */
const EXIT_ONE: ReadonlySet<string> = new Set(['leak', 'external']);

/**
 * A queue that never drains: jobs nobody serves in time, LangGraph's checkpoint writes behind a saver too
 * slow, or an ordered chain of writes whose writer never catches up.
 */
const neverDrains = (p: ProgramParams): boolean =>
  p.fault.kind === 'backlog-grows' || ((p.fault.kind === 'langgraph' || p.fault.kind === 'chain') && truthOf(p) === 'leak');

/** The verdicts that are right for each truth. */
export function rightVerdicts(p: ProgramParams): readonly string[] {
  switch (truthOf(p)) {
    case 'leak':
      // A queue that never drains is a leak; calling it a backlog that did not drain names it too.
      return neverDrains(p) ? ['leak', 'backlog'] : ['leak'];
    case 'external':
      return ['external'];
    case 'native':
      // The kept handles are JS objects too (~0.2 KiB of heap for ~20 KiB of RSS each): a leak finding
      // that names them (their class) points at the cause as well.
      return ['native', 'leak'];
    case 'backlog':
      // It drains, so it is not a leak: `backlog` (named) or no alarm are both right.
      return ['backlog', 'none', 'warm-up'];
    default:
      return ['none', 'warm-up'];
  }
}

/** `observed`: kept per interval during the capture, from the program's ledger (run-program.ts). */
export function judge(p: ProgramParams, answer: Answer | undefined, problems: readonly string[], observed?: number): Judged {
  if (!answer) return { judgement: 'wrong', reasons: problems.length ? [...problems] : ['no answer'] };
  const reasons: string[] = [];
  const { verdict } = answer;
  if (answer.exitCode !== null && answer.exitCode !== (EXIT_ONE.has(verdict) ? 1 : 0)) reasons.push(`exit ${answer.exitCode} with verdict ${verdict}`);
  if (neverDrains(p) && verdict === 'backlog' && answer.findings.find((f) => f.kind === 'backlog')?.drained === true) {
    reasons.push('a queue that never drains was called a backlog that drained');
  }
  if (verdict === 'inconclusive') {
    const leaks = truthOf(p) !== 'none' && truthOf(p) !== 'backlog';
    if (leaks && farFromLimit(p, observed)) reasons.push('inconclusive far from the detection limit');
    return reasons.length ? { judgement: 'wrong', reasons } : { judgement: 'inconclusive', reasons };
  }
  // A leak below the detection limit (5 objects and 16 KiB an interval) that raised no alarm is missed,
  // as the target allows: counted against the detection rate over all leaks, never as a wrong answer.
  if (isLeakTruth(truthOf(p)) && !aboveLimit(p, observed) && (verdict === 'none' || verdict === 'warm-up') && reasons.length === 0) {
    return { judgement: 'below-limit', reasons: ['a leak below the detection limit, not found'] };
  }
  if (!rightVerdicts(p).includes(verdict)) reasons.push(`verdict ${verdict}, truth ${truthOf(p)}`);
  else if (p.fault.kind === 'native' && verdict === 'leak' && answer.findings[0]?.className !== NATIVE_HANDLE_CLASS) {
    reasons.push(`verdict leak on kept native handles, but the top finding is ${answer.findings[0]?.className ?? 'missing'}, not ${NATIVE_HANDLE_CLASS}`);
  }
  return { judgement: reasons.length ? 'wrong' : 'right', reasons };
}

export interface ProgramResult {
  readonly params: ProgramParams;
  readonly truth: Truth;
  readonly verdict: string | null;
  readonly right: boolean;
  readonly judgement: Judgement;
  readonly reasons: readonly string[];
  readonly exitCode: number | null;
  readonly findings: Answer['findings'];
  readonly evidence: readonly string[];
  readonly problems: readonly string[];
  readonly durationMs: number;
  /** Kept per interval during the capture, from the program's ledger; null without one. */
  readonly keptObserved: number | null;
}

/** Half-open [from, to) buckets with their labels: kept objects a interval, and kept bytes a interval. */
export const RATE_BUCKETS: readonly Bucket[] = [
  { label: '0–4 /interval', from: 0, to: 5 }, { label: '5–19 /interval', from: 5, to: 20 },
  { label: '20–99 /interval', from: 20, to: 100 }, { label: '100–500 /interval', from: 100, to: Infinity },
];
export const BYTE_BUCKETS: readonly Bucket[] = [
  { label: '< 16 KiB/interval', from: 0, to: 16 << 10 }, { label: '16–64 KiB/interval', from: 16 << 10, to: 64 << 10 },
  { label: '64–256 KiB/interval', from: 64 << 10, to: 256 << 10 }, { label: '256 KiB–1 MiB/interval', from: 256 << 10, to: 1 << 20 },
  { label: '≥ 1 MiB/interval', from: 1 << 20, to: Infinity },
];

interface Bucket {
  readonly label: string;
  readonly from: number;
  readonly to: number;
}

export interface BucketRow {
  readonly bucket: string;
  readonly programs: number;
  readonly detected: number;
}

/** One fault kind's programs (a family: leak, chain, race, growing, langgraph…): its own detection rate. */
export interface FaultRow {
  readonly fault: string;
  readonly programs: number;
  /** Answered right, whatever the truth (twins and draining sides included). */
  readonly right: number;
  /** Programs of the kind that keep something (leak, external, native), and those answered right. */
  readonly leaks: number;
  readonly detected: number;
  /** The same over those above the detection limit while leakhunt looked. */
  readonly aboveLimit: number;
  readonly detectedAboveLimit: number;
}

export interface Summary {
  readonly confusion: Record<string, Record<string, number>>;
  /** Programs with a leak (leak, external, native) answered right, over all of them. */
  readonly detectionRate: number | null;
  /**
   * The same, over those that kept ≥ 5 a interval and ≥ 16 KiB a interval while leakhunt looked (issue 21's
   * target: ≥ 95%; the ledger's count where there is one, else the drawn rate).
   */
  readonly detectionRateAboveLimit: number | null;
  /** The same, with the drawn rate for every program (a bursty leak may keep little or nothing during the capture). */
  readonly detectionRateAboveDrawnLimit: number | null;
  /** Programs that keep nothing given an alarm verdict (leak/external/native/backlog), over all of them. */
  readonly falseAlarmRate: number | null;
  /** Inconclusive verdicts over all programs. */
  readonly inconclusiveRate: number | null;
  readonly byRate: readonly BucketRow[];
  readonly byBytes: readonly BucketRow[];
  /** Per fault kind, in order of first appearance. */
  readonly byFault: readonly FaultRow[];
  readonly counts: { readonly programs: number; readonly right: number; readonly wrong: number; readonly inconclusive: number; readonly belowLimit: number };
}

/** Truths with something kept (the detection rates' denominators). */
export const isLeakTruth = (t: Truth): boolean => t === 'leak' || t === 'external' || t === 'native';
const ratio = (n: number, d: number) => (d === 0 ? null : n / d);

export function aboveLimit(p: ProgramParams, observed?: number): boolean {
  const { count, bytes } = keptPerInterval(p, observed);
  return count >= 5 && bytes >= 16 * 1024;
}

export function summarize(results: readonly ProgramResult[]): Summary {
  const confusion: Record<string, Record<string, number>> = {};
  for (const r of results) {
    const row = (confusion[r.truth] ??= {});
    const col = r.verdict ?? 'error';
    row[col] = (row[col] ?? 0) + 1;
  }
  const leaky = results.filter((r) => isLeakTruth(r.truth));
  const healthy = results.filter((r) => r.truth === 'none');
  const observed = (r: ProgramResult) => r.keptObserved ?? undefined;
  const above = leaky.filter((r) => aboveLimit(r.params, observed(r)));
  const aboveDrawn = leaky.filter((r) => aboveLimit(r.params));
  const bucketRows = (buckets: readonly Bucket[], value: (r: ProgramResult) => number): BucketRow[] =>
    buckets.map((b) => {
      const inBucket = leaky.filter((r) => value(r) >= b.from && value(r) < b.to);
      return { bucket: b.label, programs: inBucket.length, detected: inBucket.filter((r) => r.right).length };
    });
  const kinds = [...new Set(results.map((r) => r.params.fault.kind))];
  const byFault = kinds.map((fault): FaultRow => {
    const of = results.filter((r) => r.params.fault.kind === fault);
    const leaks = of.filter((r) => isLeakTruth(r.truth));
    const aboveOf = leaks.filter((r) => aboveLimit(r.params, observed(r)));
    return {
      fault, programs: of.length, right: of.filter((r) => r.right).length, leaks: leaks.length, detected: leaks.filter((r) => r.right).length,
      aboveLimit: aboveOf.length, detectedAboveLimit: aboveOf.filter((r) => r.right).length,
    };
  });
  return {
    confusion,
    detectionRate: ratio(leaky.filter((r) => r.right).length, leaky.length),
    detectionRateAboveLimit: ratio(above.filter((r) => r.right).length, above.length),
    detectionRateAboveDrawnLimit: ratio(aboveDrawn.filter((r) => r.right).length, aboveDrawn.length),
    falseAlarmRate: ratio(healthy.filter((r) => r.verdict !== null && ALARMS.has(r.verdict)).length, healthy.length),
    inconclusiveRate: ratio(results.filter((r) => r.verdict === 'inconclusive').length, results.length),
    byRate: bucketRows(RATE_BUCKETS, (r) => keptPerInterval(r.params, observed(r)).count),
    byBytes: bucketRows(BYTE_BUCKETS, (r) => keptPerInterval(r.params, observed(r)).bytes),
    byFault,
    counts: {
      programs: results.length,
      right: results.filter((r) => r.judgement === 'right').length,
      wrong: results.filter((r) => r.judgement === 'wrong').length,
      inconclusive: results.filter((r) => r.judgement === 'inconclusive').length,
      belowLimit: results.filter((r) => r.judgement === 'below-limit').length,
    },
  };
}
