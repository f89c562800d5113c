// From a snapshot series (and the memory timeline when attached) to ranked findings and one verdict.
//
// - leak: a survivor group that grew in every interval along one path (two snapshots: a group of at
//   least MIN_LEAK_COUNT), large enough to matter, not V8's own bookkeeping. Groups reached through an
//   earlier finding's class are folded into it ("also held").
// - should-be-few: framework objects a process needs a handful of (compiled graphs, tracers, clients)
//   whose count grows.
// - backlog: pending work whose members are replaced between snapshots (high turnover) while the count
//   rises; it "drains" when the count falls back after its peak. A backlog that never drains over
//   three or more snapshots while its survivors grow is reported as a leak instead. Objects that would
//   be a leak or a should-be-few finding, but are held through pending work (a deferred awaiting its
//   turn, a reaction of an unsettled promise) whose operations do complete between snapshots, are a
//   backlog too: the queue moves, more arrives than completes. Pending work that never completes stays a leak.
// - external / native: from the memory timeline (external or RSS grow while the JS heap is flat), or,
//   without one, ArrayBuffer backing stores dominating the growth.
// - warm-up: growth only in the first interval (code, caches, strings) with nothing growing after.
// - none: nothing of the above.

import type { ChainHop } from '../analysis/chain-description.js';
import type { ClassDiffRow, DiffResult, SurvivorGroup } from '../analysis/diff/diff-series.js';
import { backlogFix, pendingQueueOf, suggestFix } from './fixes.js';
import { FRAMEWORK_OBJECTS } from './recognisers.js';
import { describeTrend, summarizeTrend, type MemorySample, type MemoryTrend } from './memory-trend.js';

export type Verdict = 'leak' | 'backlog' | 'external' | 'native' | 'warm-up' | 'none';

export interface Finding {
  readonly kind: 'leak' | 'should-be-few' | 'backlog' | 'external' | 'native' | 'warm-up';
  readonly className: string;
  readonly signature: string | null;
  readonly count: number;
  /** Objects added per interval between snapshots. */
  readonly perInterval: number;
  readonly perMinute?: number;
  /** Per unit of work, when the caller says how many units ran (`--unit-count`). */
  readonly perUnit?: number;
  readonly retainedSize: number;
  readonly chain: readonly ChainHop[];
  readonly fix: string;
  readonly evidence: readonly string[];
  /** Other survivor groups held through this finding's objects. */
  readonly alsoHeld?: readonly string[];
}

export interface Diagnosis {
  readonly verdict: Verdict;
  readonly evidence: readonly string[];
  readonly findings: readonly Finding[];
  readonly memory?: MemoryTrend;
}

export interface DiagnoseInput {
  readonly diff: DiffResult;
  readonly samples?: readonly MemorySample[];
  /** Time between the first and the last snapshot, for per-minute rates. */
  readonly elapsedMs?: number;
  /** Units of work (turns, requests) done between the first and the last snapshot. */
  readonly unitCount?: number;
  /**
   * The timeline spans the snapshots themselves (attach): each one leaves native memory behind in the
   * target, so RSS growth there says nothing about the program and is not used for a verdict.
   */
  readonly timelineHasSnapshots?: boolean;
}

const MIN_LEAK_COUNT = 10;
const MIN_LEAK_BYTES = 4096;
/** Pending work that holds less than this at its peak is not worth a backlog finding. */
const MIN_BACKLOG_BYTES = 256 * 1024;
const V8_INTERNAL = /^\((compiled code|system|object shape|sliced string)\)$|^system \/ /;
/** Timers and abort signals come and go with time, not with work: never a backlog by themselves. */
const TIME_DRIVEN = /^(Timeout|Immediate|AbortSignal|TimersList)$/;

function rates(count: number, input: DiagnoseInput, intervals: number) {
  return {
    perInterval: intervals > 0 ? count / intervals : count,
    ...(input.elapsedMs ? { perMinute: (count * 60000) / input.elapsedMs } : {}),
    ...(input.unitCount ? { perUnit: count / input.unitCount } : {}),
  };
}

/** A leak must matter: at least MIN_LEAK_BYTES, and a tenth of the live-size growth when the heap grew. */
/**
 * Bytes a group must retain to be a leak: a tenth of the live-size growth when the heap grew; when it
 * did not grow at all, objects that piled up elsewhere must at least be substantial.
 */
function leakFloor(growth: number): number {
  return growth > 0 ? Math.max(MIN_LEAK_BYTES, 0.1 * growth) : MIN_BACKLOG_BYTES;
}

/**
 * Growth of the program's own objects between the first and the last snapshot: the live-size change
 * without V8's code, shapes and system objects, which come and go on their own (bytecode flushing can
 * shrink the heap by hundreds of KB in one interval while a leak goes on).
 */
function programGrowth(diff: DiffResult): number {
  if (diff.classes.length === 0) return diff.growth;
  return diff.classes.reduce((sum, c) => (V8_INTERNAL.test(c.name) ? sum : sum + c.sizeDelta), 0);
}

function isLeakGroup(g: SurvivorGroup, snapshots: number, growth: number): boolean {
  if (V8_INTERNAL.test(g.className) || g.retainedSize < leakFloor(growth)) return false;
  if (snapshots >= 3) return growsSteadily(g.counts) && g.count >= (snapshots - 1) * 2;
  return g.count >= MIN_LEAK_COUNT;
}

/**
 * Grew in every interval, and by a real share each time (a quarter of the average step at least):
 * 0 → 9 → 10 is a queue that filled up, not a leak that goes on.
 */
function growsSteadily(counts: readonly number[]): boolean {
  const n = counts.length;
  const step = (counts[n - 1]! - counts[0]!) / (n - 1);
  return step > 0 && counts.every((c, k) => k === 0 || c - counts[k - 1]! >= Math.max(1, 0.25 * step));
}

function hasAsyncContext(chain: readonly ChainHop[]): boolean {
  return chain.some((hop) => hop.label?.kind === 'async-context');
}

function leakFindings(input: DiagnoseInput): Finding[] {
  const { diff } = input;
  const n = diff.snapshots.length;
  const findings: Finding[] = [];
  const alsoHeld: AlsoHeld = new Map();
  const growth = programGrowth(diff);
  for (const g of diff.survivors?.groups ?? []) {
    if (!isLeakGroup(g, n, growth)) continue;
    const index = findings.findIndex((f) => g.chain.slice(1).some((hop) => hop.node.className === f.className));
    if (index >= 0) {
      const holder = findings[index]!;
      hold(alsoHeld, holder, g.className, g.count);
      // The chain through an AsyncLocalStorage store explains the leak best (the holder is the
      // resource that captured it): show that one, with its fix.
      if (!hasAsyncContext(holder.chain) && hasAsyncContext(g.chain)) {
        const better: Finding = {
          ...holder,
          signature: g.signature,
          chain: g.chain,
          fix: suggestFix(g.className, g.chain),
          evidence: [...holder.evidence, `each holds a ${g.className} through an AsyncLocalStorage store it captured (${g.count} of them)`],
        };
        const held = alsoHeld.get(holder);
        if (held) alsoHeld.set(better, held);
        alsoHeld.delete(holder);
        findings[index] = better;
      }
      continue;
    }
    const finding: Finding = {
      kind: 'leak',
      className: g.className,
      signature: g.signature,
      count: g.count,
      ...rates(g.count, input, n - 1),
      retainedSize: g.retainedSize,
      chain: g.chain,
      fix: suggestFix(g.className, g.chain),
      evidence: [
        n >= 3
          ? `${g.count} ${g.className} born after the first snapshot are still alive, and their number grew in every interval (${g.counts.join(' → ')}) along one retainer path`
          : `${g.count} ${g.className} born after the first snapshot are still alive, all along one retainer path`,
      ],
    };
    findings.push(finding);
  }
  findings.push(...splitPathFindings(input, findings, alsoHeld, growth));
  return findings.map((f) => {
    const held = alsoHeld.get(f);
    // One entry a class, largest first: "639 × Promise".
    return held ? { ...f, alsoHeld: [...held].sort((a, b) => b[1] - a[1]).map(([name, count]) => `${count} × ${name}`) } : f;
  });
}

/** Per finding: the classes of other survivor groups held through its objects, with their counts. */
type AlsoHeld = Map<Finding, Map<string, number>>;

function hold(alsoHeld: AlsoHeld, holder: Finding, className: string, count: number): void {
  let held = alsoHeld.get(holder);
  if (!held) alsoHeld.set(holder, (held = new Map()));
  held.set(className, (held.get(className) ?? 0) + count);
}

/**
 * One leak can reach the root along several paths (which timer, which channel happened to hold it):
 * each path group alone may not grow in every interval, while all of a class's survivors together do.
 * Classes not already found are summed over their groups; the largest group's chain represents them.
 */
function splitPathFindings(input: DiagnoseInput, known: readonly Finding[], alsoHeld: AlsoHeld, growth: number): Finding[] {
  const n = input.diff.snapshots.length;
  if (n < 3) return [];
  const covered = new Set(known.flatMap((f) => [f.className, ...(alsoHeld.get(f)?.keys() ?? [])]));
  const byClass = new Map<string, SurvivorGroup[]>();
  for (const g of input.diff.survivors?.groups ?? []) {
    if (covered.has(g.className) || V8_INTERNAL.test(g.className)) continue;
    const list = byClass.get(g.className) ?? [];
    list.push(g);
    byClass.set(g.className, list);
  }
  const out: Finding[] = [];
  const all = () => [...known, ...out];
  for (const [className, groups] of byClass) {
    if (groups.length < 2) continue;
    const counts = groups[0]!.counts.map((_, k) => groups.reduce((sum, g) => sum + g.counts[k]!, 0));
    const retainedSize = groups.reduce((sum, g) => sum + g.retainedSize, 0);
    const count = counts[n - 1]!;
    if (!growsSteadily(counts) || count < (n - 1) * 2 || retainedSize < leakFloor(growth)) continue;
    const top = groups.reduce((a, b) => (b.retainedSize > a.retainedSize ? b : a));
    const holder = all().find((f) => top.chain.slice(1).some((hop) => hop.node.className === f.className));
    if (holder) {
      hold(alsoHeld, holder, className, count);
      continue;
    }
    out.push({
      kind: 'leak',
      className,
      signature: top.signature,
      count,
      ...rates(count, input, n - 1),
      retainedSize,
      chain: top.chain,
      fix: suggestFix(className, top.chain),
      evidence: [`${count} ${className} born after the first snapshot are still alive and their number grew in every interval (${counts.join(' → ')}), along ${groups.length} retainer paths`],
    });
  }
  return out.sort((a, b) => b.retainedSize - a.retainedSize);
}

function fewFindings(input: DiagnoseInput, known: readonly Finding[]): Finding[] {
  const n = input.diff.snapshots.length;
  const out: Finding[] = [];
  for (const row of input.diff.classes) {
    const few = FRAMEWORK_OBJECTS.find((f) => f.few && f.className.test(row.name));
    const last = row.counts[row.counts.length - 1]!;
    // Growing, not just more than one: a handful alive at once (in a queue, in flight) is normal.
    const growing = n >= 3 ? row.grewEveryInterval === true : row.countDelta >= MIN_LEAK_COUNT;
    if (!few || !growing || last < 5 || known.some((f) => f.className === row.name)) continue;
    const group = input.diff.survivors?.groups.find((g) => g.className === row.name);
    out.push({
      kind: 'should-be-few',
      className: row.name,
      signature: group?.signature ?? null,
      count: last,
      ...rates(row.countDelta, input, n - 1),
      retainedSize: row.retainedSizes[row.retainedSizes.length - 1]!,
      chain: group?.chain ?? [],
      fix: group ? suggestFix(row.name, group.chain) : `${row.name} (${few.text}) should exist a handful of times per process: create it once and reuse it`,
      evidence: [`${last} ${row.name} alive (${row.counts.join(' → ')}): a ${few.text} a process needs only a few of`],
    });
  }
  return out;
}

/** The count fell back well below its peak by the last snapshot. */
function drainedAfterPeak(counts: readonly number[]): boolean {
  return counts.length > 0 && counts[counts.length - 1]! < 0.7 * Math.max(...counts);
}

/** High turnover while the count rises: members are replaced, not kept. */
function backlogRows(diff: DiffResult): { row: ClassDiffRow; drained: boolean; turnover: number }[] {
  const out: { row: ClassDiffRow; drained: boolean; turnover: number }[] = [];
  for (const row of diff.classes) {
    if (!row.deletedPerInterval || V8_INTERNAL.test(row.name) || TIME_DRIVEN.test(row.name)) continue;
    const peak = Math.max(...row.counts);
    // Piled up (at least doubled, not a handful, holding real memory), then either still rising
    // clearly or drained: a queue that sits at or near its capacity (LangSmith's batch queue) is neither.
    if (peak < 2 * MIN_LEAK_COUNT || peak < 2 * row.counts[0]!) continue;
    // Piled up in two snapshots at least: a queue seen full in one snapshot only (0 → 81 → 0) is a batch
    // caught before its flush, not work arriving faster than it completes.
    const low = Math.min(...row.counts);
    if (row.counts.filter((c) => c >= Math.max(2 * low, low + MIN_LEAK_COUNT)).length < 2) continue;
    if (Math.max(...row.retainedSizes) - row.retainedSizes[0]! < MIN_BACKLOG_BYTES) continue;
    const rising = row.counts.every((c, k) => k === 0 || c - row.counts[k - 1]! >= Math.max(5, 0.25 * row.counts[k - 1]!));
    const drained = drainedAfterPeak(row.counts);
    if (!rising && !drained) continue;
    let replaced = 0, base = 0;
    row.deletedPerInterval.forEach((d, k) => {
      replaced += d;
      base += row.counts[k]!;
    });
    const turnover = base > 0 ? replaced / base : 0;
    if (turnover < 0.5) continue;
    out.push({ row, drained, turnover });
  }
  return out.sort((a, b) => b.row.sizes.reduce((x, y) => Math.max(x, y)) - a.row.sizes.reduce((x, y) => Math.max(x, y)));
}

function backlogFindings(input: DiagnoseInput, known: readonly Finding[]): Finding[] {
  const n = input.diff.snapshots.length;
  const rows = backlogRows(input.diff).filter(({ row }) => !known.some((f) => f.className === row.name));
  return rows.slice(0, 3).map(({ row, drained, turnover }) => {
    const group = input.diff.survivors?.groups.find((g) => g.className === row.name);
    return {
      kind: 'backlog',
      className: row.name,
      signature: group?.signature ?? null,
      count: Math.max(...row.counts),
      ...rates(Math.max(0, row.countDelta), input, n - 1),
      retainedSize: Math.max(...row.retainedSizes),
      chain: group?.chain ?? [],
      fix: backlogFix(group?.chain ?? [], row.name),
      evidence: [
        `${row.name}: ${row.counts.join(' → ')}, with ${Math.round(turnover * 100)}% of them replaced between snapshots: pending work, not kept objects`,
        drained ? 'the count fell back after its peak: the backlog drains' : 'the count has not fallen back yet: watch whether it drains when load drops',
      ],
    };
  });
}

/** Operations of this class that completed (were collected) between snapshots. */
function completedBetween(diff: DiffResult, className: string): number {
  const row = diff.classes.find((c) => c.name === className);
  return row?.deletedPerInterval?.reduce((a, b) => a + b, 0) ?? 0;
}

/**
 * A finding held through pending work (a `pending-work` hop on its chain) whose operations complete
 * between snapshots is a backlog: the queue moves, and what it holds goes when its turn comes. One
 * whose operations never complete stays what it was, with that said in its evidence.
 */
function throughPendingWork(input: DiagnoseInput, f: Finding): Finding {
  const at = f.chain.findIndex((h) => h.label?.kind === 'pending-work');
  if (at < 0) return f;
  const hop = f.chain[at]!;
  const queue = pendingQueueOf(f.chain, at);
  const where = `${hop.node.className} @${hop.node.id}${queue ? ` in ${queue}` : ''}`;
  const done = completedBetween(input.diff, hop.node.className);
  if (done === 0) {
    return { ...f, evidence: [...f.evidence, `held by pending work (${where}) none of which completed between snapshots: work that never completes is a leak (promises that never settle, a queue nobody serves)`] };
  }
  const row = input.diff.classes.find((c) => c.name === f.className);
  const counts = row?.counts ?? [];
  const drained = drainedAfterPeak(counts);
  return {
    ...f,
    kind: 'backlog',
    fix: backlogFix(f.chain),
    evidence: [
      at === 0
        ? `${f.className}${counts.length ? ` alive: ${counts.join(' → ')}` : ''}: pending operations waiting${queue ? ` in ${queue}` : ''}, each released when it completes; ${done} of them completed between snapshots, so the work moves but arrives faster than it completes`
        : `${f.className}${counts.length ? ` alive: ${counts.join(' → ')}` : ''}, each held by pending work: ${where}, ${hop.label!.text}; ${done} such operations completed between snapshots, so the work moves but arrives faster than it completes`,
      drained
        ? 'the count fell back after its peak: the backlog drains'
        : 'not drained yet: take another series once the load drops — a backlog that drains is not a leak; one that never drains is',
    ],
  };
}

/** Growth in the first interval, and none of the program's own classes still growing at the end. */
function warmUp(diff: DiffResult): boolean {
  if (diff.snapshots.length < 3) return false;
  const n = diff.snapshots.length;
  const grewFirst = diff.classes.some((c) => c.counts[1]! > c.counts[0]!);
  const stillGrowing = diff.classes.some((c) => !V8_INTERNAL.test(c.name) && c.counts[n - 1]! > c.counts[n - 2]!);
  return grewFirst && !stillGrowing;
}

/** The program class that grew in every interval, however little: worth a line when nothing else is. */
function smallSteadyGrowth(diff: DiffResult): string | undefined {
  const row = diff.classes.find((c) => !V8_INTERNAL.test(c.name) && c.grewEveryInterval === true);
  return row ? `${row.name} grew in every interval (${row.counts.join(' → ')}) but stays below the thresholds for a finding (${MIN_LEAK_COUNT} objects, ${MIN_LEAK_BYTES} bytes retained)` : undefined;
}

export function diagnose(input: DiagnoseInput): Diagnosis {
  const memory = input.samples && input.samples.length >= 3 ? summarizeTrend(input.samples) : undefined;
  const memoryText = memory ? describeTrend(memory) : undefined;
  // What grows by the timeline: the JS heap first (snapshots explain it), else external, else native.
  const nativeCounts = !input.timelineHasSnapshots;
  const grows = memory?.growing.includes('heap') ? 'heap' : memory?.growing.includes('external') ? 'external'
    : nativeCounts && (memory?.growing.includes('native') || memory?.growing.includes('rss')) ? 'native' : undefined;
  const leaks = input.diff.sameProcess ? leakFindings(input) : [];
  const classified = [...leaks, ...fewFindings(input, leaks)].map((f) => throughPendingWork(input, f));
  const findings = classified.filter((f) => f.kind !== 'backlog');
  const held = classified.filter((f) => f.kind === 'backlog');
  const backlog = input.diff.sameProcess ? [...held, ...backlogFindings(input, held)] : [];
  const evidence: string[] = [];
  let verdict: Verdict = 'none';
  const drained = backlog.find((b) => b.evidence.some((e) => e.includes('drains')));
  if (findings.length > 0 && !(drained && input.diff.growth <= 0)) {
    verdict = 'leak';
    evidence.push(...findings[0]!.evidence);
  } else if (backlog.length > 0) {
    verdict = 'backlog';
    evidence.push(...backlog[0]!.evidence);
  } else if (grows === 'external' || grows === 'native') {
    verdict = grows;
    evidence.push(memoryText!);
  } else if (externalByClass(input.diff)) {
    verdict = 'external';
    evidence.push('ArrayBuffer backing stores account for most of the growth between snapshots');
  } else if (warmUp(input.diff)) {
    verdict = 'warm-up';
    evidence.push('objects were added in the first interval only (compiled code, caches, strings) and nothing grew after it');
  } else {
    const small = smallSteadyGrowth(input.diff);
    evidence.push(small ?? (input.diff.sameProcess ? 'no group of objects grew from snapshot to snapshot' : 'snapshots of different processes: only class totals compared, no growth found in them'));
  }
  if (memoryText && verdict !== 'external' && verdict !== 'native') {
    evidence.push(nativeCounts ? memoryText : `${memoryText} (RSS includes what each heap snapshot leaves behind in the target)`);
  }
  return { verdict, evidence, findings: [...findings, ...backlog], ...(memory ? { memory } : {}) };
}

function externalByClass(diff: DiffResult): boolean {
  const growth = diff.classes.reduce((sum, c) => sum + Math.max(0, c.sizeDelta), 0);
  const buffers = diff.classes
    .filter((c) => /JSArrayBufferData|^ArrayBuffer$|backing_store/.test(c.name))
    .reduce((sum, c) => sum + Math.max(0, c.sizeDelta), 0);
  return growth > 64 * 1024 && buffers > growth / 2;
}
