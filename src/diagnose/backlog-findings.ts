// Backlogs: pending work whose members are replaced between snapshots while their number piles up, and
// growth held through pending work whose operations complete (the queue moves, more arrives than
// completes). Whether a backlog drained is data on the finding (`drained`), decided from the counts.
// Pending work that never completes is not a backlog: what it holds stays a leak.

import type { ClassDiffRow, DiffResult } from '../analysis/diff/diff-series.js';
import type { Candidate, Finding } from './finding.js';
import { backlogFix, fixFields, pendingQueueOf, unsettledPromiseFix } from './fixes.js';
import { firstMaxIdOf } from './fold-findings.js';
import { CHECKPOINT_CHAIN } from './recognisers.js';
import { drainedAfterPeak, growsWithWork, stepsOf, workUnitOf, type Significance, type WorkUnit } from './growth-model.js';
import { leakZ, trendChance } from './kept-model.js';
import type { GrowthContext } from './growth-findings.js';
import { rates } from './finding-rates.js';
import { isProgramGrowth } from './group-filter.js';
import { isProgramClass } from './carriers.js';
import type { ModelParams } from './model-params.js';

// Thresholds (pile-up size and bytes, turnover, LangGraph's puts and runs) are ModelParams (model-params.ts).

/** Timers and abort signals come and go with time, not with work: never a backlog by themselves. */
const TIME_DRIVEN = /^(Timeout|Immediate|AbortSignal|TimersList)$/;

interface BacklogRow {
  readonly row: ClassDiffRow;
  readonly drained: boolean;
  readonly turnover: number;
  /** LangGraph's checkpoint puts waiting in a run's put chain (checkpointPutsRow). */
  readonly checkpointPuts?: true;
  /**
   * Its members never outlived an interval (momentary): each count is a moment's work, and this is the
   * chance of a rise along the work as steep against the readings' own scatter (trendChance). Above the
   * false-alarm level: a candidate.
   */
  readonly trendChance?: number;
}

/**
 * High turnover while the count piles up (still rising, or risen then fallen back); or checkpoint puts
 * waiting in LangGraph's put chain (checkpointPutsRow).
 */
function backlogRows(diff: DiffResult, floor: Significance, work: readonly number[], zAlarm: number, params: ModelParams): BacklogRow[] {
  const out: BacklogRow[] = [];
  for (const row of diff.classes) {
    if (!row.deletedPerInterval || !isProgramGrowth(row.name) || TIME_DRIVEN.test(row.name)) continue;
    const puts = checkpointPutsRow(row, diff, params);
    if (puts) {
      out.push(puts);
      continue;
    }
    const peak = Math.max(...row.counts);
    // Piled up: at least doubled from the first snapshot, not a handful.
    if (peak < params.backlogMinCount || peak < 2 * row.counts[0]!) continue;
    // In two snapshots at least: a queue seen full in one snapshot only (0 → 81 → 0) is a batch caught
    // before its flush, not work arriving faster than it completes.
    // Against the level it started from: a burst at one snapshot over a steady level (89 → 89 → 507 → 21
    // promises of a batching client) is one moment's work, not a pile-up.
    const low = Math.min(row.counts[0]!, ...row.counts.slice(1, -1));
    if (row.counts.filter((c) => c >= Math.max(2 * low, low + params.backlogMinCount / 2)).length < 2) continue;
    if (Math.max(...row.retainedSizes) - row.retainedSizes[0]! < Math.max(params.backlogMinBytes, floor.totalsFloorBytes)) continue;
    // Rising with the work in every interval (growth-model.ts growsWithWork), as totals are judged: a
    // share of the count before each step cut a queue growing by a steady 39 a step once it held 186.
    // And beyond the count's own back-and-forth: pending work is a count of independent operations, so
    // its rise from first to last must clear z standard deviations of two Poisson counts.
    const first = row.counts[0]!, last = row.counts[row.counts.length - 1]!;
    const rising = growsWithWork(stepsOf(row.counts), work, params.steadyShare) && stepsOf(row.counts).every((s) => s >= params.backlogMinStep)
      && riseZ(row.counts) >= zAlarm;
    const drained = drainedAfterPeak(row.counts, params.drainedShare);
    if (!rising && !drained) continue;
    // Back where it started by the last snapshot: over the series completions caught up with arrivals
    // (a batch flushed, a burst served), so nothing piled up. Not a finding; drainingWork says it.
    if (drained && last <= first) continue;
    const turnover = turnoverOf(row);
    // Still rising, only turnover tells pending work from kept objects; fallen back, the fall itself does.
    if (!drained && turnover < params.backlogMinTurnover) continue;
    // Members that never outlive an interval make each count a sample of the work in flight at that
    // moment, whose spread may be a whole batch (a client flushing on a timer), not a Poisson count's:
    // the rise must stand out from the readings' own scatter (trendChance), and a rise and fall among
    // them is no pile-up at all.
    if (momentary(row)) {
      if (drained) continue;
      out.push({ row, drained, turnover, trendChance: trendChance(row.counts, work) });
      continue;
    }
    out.push({ row, drained, turnover });
  }
  const peakSize = (r: BacklogRow) => Math.max(...r.row.sizes);
  return out.sort((a, b) => backlogOrder(a.row.name, b.row.name) || peakSize(b) - peakSize(a));
}

/**
 * The order backlogs are named in, however each was found: LangGraph's checkpoint puts first (they name
 * the cause the other pending classes, promises and a pool's waiters, share), then the program's own
 * classes before carriers (a pending job before the promise awaiting it or the array it holds).
 */
export function backlogOrder(a: string, b: string): number {
  return Number(CHECKPOINT_CHAIN.puts.test(b)) - Number(CHECKPOINT_CHAIN.puts.test(a)) || Number(isProgramClass(b)) - Number(isProgramClass(a));
}

/**
 * How many standard deviations a pending count rose from first to last: pending work is a count of
 * independent operations, so its back-and-forth is that of two Poisson counts.
 */
export function riseZ(counts: readonly number[]): number {
  const first = counts[0]!, last = counts[counts.length - 1]!;
  return (last - first) / Math.sqrt(Math.max(1, first + last));
}

/**
 * Whether the class's members at each snapshot all but vanished by the next: those that outlived each
 * interval are within a count's own noise (the square root of the count they came from).
 */
function momentary(row: ClassDiffRow): boolean {
  return row.deletedPerInterval!.every((d, k) => row.counts[k]! - d <= Math.sqrt(row.counts[k]!));
}


/** A candidate of pending work whose pile-up is not shown yet (Candidate.pending), named by its class's counts. */
function pendingCandidate(
  className: string, signature: string | null, chain: Candidate['chain'], retainedSize: number, counts: readonly number[],
  chance: { readonly trendChance: number; readonly chanceNeeded: number } | Record<string, never> = {},
): Candidate {
  return { className, signature, count: Math.max(...counts), born: stepsOf(counts), retainedSize, moreIntervals: Infinity, chain, pending: { counts, ...chance } };
}

/** Share of the members replaced between snapshots (deleted over the counts they were deleted from). */
function turnoverOf(row: ClassDiffRow): number {
  let replaced = 0, base = 0;
  row.deletedPerInterval?.forEach((d, k) => {
    replaced += d;
    base += row.counts[k]!;
  });
  return base > 0 ? replaced / base : 0;
}

/**
 * Checkpoint puts waiting in LangGraph's put chain (CHECKPOINT_CHAIN.puts): pending by what they are, so
 * no pile-up across the series is needed to call them a backlog, only that many waited at once — at
 * least `checkpointMinPuts` in one snapshot, and at least `checkpointPutsPerRun` per run in flight (`PregelLoop`)
 * there: under durability "sync" a step waits for its write, so a run has at most one put pending;
 * more means the run went on without waiting and its writes queue behind the saver — and that they
 * were replaced between snapshots (they complete). With long turns they fill during a run's fast steps
 * and drain during its slow ones, so time-paced snapshots find them anywhere from full to empty
 * (7 → 31 → 0); `drained` when the count fell back after a peak anywhere in the series. No byte floor: each put holds a copy of the checkpoint's top level, while the channel
 * values it carries are shared with the run's pending task writes (class retained sizes count neither).
 */
function checkpointPutsRow(row: ClassDiffRow, diff: DiffResult, params: ModelParams): BacklogRow | undefined {
  if (!CHECKPOINT_CHAIN.puts.test(row.name)) return undefined;
  const runs = diff.classes.find((r) => r.name === RUN_LOOP)?.counts;
  const peak = Math.max(...row.counts);
  const at = row.counts.indexOf(peak);
  if (peak < params.checkpointMinPuts || peak < params.checkpointPutsPerRun * Math.max(1, runs?.[at] ?? 0)) return undefined;
  const turnover = turnoverOf(row);
  if (turnover < params.backlogMinTurnover) return undefined;
  // Drained when the count fell back after a peak anywhere in the series (between turns), not only at its end.
  const drained = row.counts.some((_, k) => k > 0 && drainedAfterPeak(row.counts.slice(0, k + 1), params.drainedShare));
  return { row, drained, turnover, checkpointPuts: true };
}

/**
 * Every survivor group of the class is held by nothing lasting, only by what ran when the snapshot was
 * taken (a V8 operation under way, the running stack: holder-tiers.ts `transient`): what piled up is
 * that moment's work (continuations queued behind a busy turn), not a queue the program keeps. False
 * when the series lists no survivor group of the class.
 */
function heldForTheMoment(diff: DiffResult, className: string): boolean {
  const groups = diff.survivors?.groups.filter((g) => g.className === className) ?? [];
  return groups.length > 0 && groups.every((g) => g.heldBy === 'transient');
}

/** LangGraph's run loop: one per run in flight (recognisers.ts CHECKPOINT_CHAIN.classes). */
const RUN_LOOP = 'PregelLoop';

function drainText(drained: boolean): string {
  return drained
    ? 'the count fell back after its peak: the backlog drains'
    : 'not drained yet: take another series once the load drops — a backlog that drains is not a leak; one that never drains is';
}

/**
 * How fast a pending class fills against how fast it drains, from the class's own ids: members born in
 * an interval and alive at its end joined, members alive at a snapshot and gone by the next completed.
 * Per second with time as the work, per unit with a counter, else per interval. Undefined without ids.
 */
export function fillAndDrain(row: ClassDiffRow | undefined, work: readonly number[], unit: WorkUnit): string | undefined {
  if (!row?.newPerInterval || !row.deletedPerInterval) return undefined;
  const total = work.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return undefined;
  const scale = unit === 'ms' ? 1000 : 1;
  const per = unit === 'ms' ? 'a second' : unit === 'unit' ? 'a unit of work' : 'an interval';
  const joined = (row.newPerInterval.reduce((a, b) => a + b, 0) / total) * scale;
  const done = (row.deletedPerInterval.reduce((a, b) => a + b, 0) / total) * scale;
  const pending = row.counts[row.counts.length - 1]!;
  const round = (x: number) => (x >= 10 ? String(Math.round(x)) : x.toFixed(1));
  if (done <= 0) return `about ${round(joined)} joined ${per} and none completed`;
  const emptyIn = pending / done;
  const after = unit === 'ms' ? `${round(emptyIn)} s` : `${round(emptyIn)} ${unit === 'unit' ? 'units of work' : 'intervals'}`;
  return joined > done
    ? `it fills faster than it drains: about ${round(joined)} joined and ${round(done)} completed ${per}; at that rate the ${pending} pending take about ${after} to drain once arrivals stop`
    : `it drains as fast as it fills: about ${round(joined)} joined and ${round(done)} completed ${per}`;
}

/** Holders whose work is in motion: a timer due to fire (its list), one queued to run. */
const IN_MOTION = /^(Timeout|Immediate|TimersList)$/;

/**
 * How the pending work on a finding's chain moves, told by identity across the series (`firstMaxId`:
 * the first snapshot's largest id). Its root-most pending operation (the head of a chain of writes each
 * awaiting the previous one, or the newest reaction of a promise) hangs from `holder`:
 * - `stuck`: a promise that existed before the first snapshot: one promise, unsettled through the whole
 *   series, whose reaction list gains members. A reaction is released only when its promise settles,
 *   so its members are kept however many other operations of their class complete.
 * - `advancing`: a chain of pending operations (two or more on the path) whose head is new work held
 *   only through work in motion (a timer about to fire, what ran at the snapshot's moment, a native
 *   request): the chain's head moves on, members completing in order while others join; whether that
 *   is a backlog or a pile-up is then a matter of counts, not of completions.
 * Undefined when the chain shows neither (or without ids).
 */
export function pendingMotion(chain: Finding['chain'], firstMaxId: number | undefined): { readonly kind: 'stuck' | 'advancing'; readonly holder: number } | undefined {
  if (firstMaxId === undefined) return undefined;
  let last = -1, pending = 0;
  for (let i = 0; i < chain.length; i++) {
    if (chain[i]!.label?.kind !== 'pending-work') continue;
    last = i;
    pending++;
  }
  const holder = last + 1;
  if (last < 0 || holder >= chain.length) return undefined;
  const hop = chain[holder]!;
  const reaction = chain[last]!.edge?.name === 'reactions_or_result';
  if (reaction && hop.node.className === 'Promise' && hop.node.id <= firstMaxId) return { kind: 'stuck', holder };
  // One pending operation (a turn's write in flight) is not a chain that advances: the turn holds its state.
  if (hop.node.id <= firstMaxId || pending < 2) return undefined;
  const moving = chain.slice(holder).some((h) => IN_MOTION.test(h.node.className) || h.label?.kind === 'transient-root' || h.node.type === 'native');
  return moving ? { kind: 'advancing', holder } : undefined;
}

export function backlogFindings(ctx: GrowthContext, known: readonly Finding[]): { findings: Finding[]; candidates: Candidate[] } {
  const { input } = ctx;
  const n = input.diff.snapshots.length;
  const all = backlogRows(input.diff, ctx.significance, ctx.work, leakZ(1, ctx.params.falseAlarm), ctx.params)
    .filter(({ row }) => !known.some((f) => f.className === row.name) && !heldForTheMoment(input.diff, row.name));
  const unsure = (r: BacklogRow) => r.trendChance !== undefined && r.trendChance > ctx.params.falseAlarm;
  const candidates = all.filter(unsure).map(({ row, trendChance }): Candidate => {
    const group = input.diff.survivors?.groups.find((g) => g.className === row.name);
    return pendingCandidate(row.name, group?.signature ?? null, group?.chain ?? [], Math.max(...row.retainedSizes), row.counts,
      { trendChance: trendChance!, chanceNeeded: ctx.params.falseAlarm });
  });
  const rows = all.filter((r) => !unsure(r));
  const findings = rows.slice(0, 3).map(({ row, drained, turnover, checkpointPuts }): Finding => {
    const group = input.diff.survivors?.groups.find((g) => g.className === row.name);
    const what = checkpointPuts
      ? `checkpoint puts waiting in LangGraph's put chain, each carrying its copy of the checkpoint`
      : 'pending work, not kept objects';
    const flow = fillAndDrain(row, ctx.work, workUnitOf(input.unitsAt, input.timesAt));
    return {
      kind: 'backlog',
      className: row.name,
      signature: group?.signature ?? null,
      count: Math.max(...row.counts),
      ...rates(Math.max(0, row.countDelta), input, n - 1),
      retainedSize: Math.max(...row.retainedSizes),
      chain: group?.chain ?? [],
      ...fixFields(backlogFix(group?.chain ?? [], row.name, checkpointWritesPileUp(input.diff, ctx.params))),
      evidence: [
        `${row.name}: ${row.counts.join(' → ')}, with ${Math.round(turnover * 100)}% of them replaced between snapshots: ${what}`,
        ...(flow ? [flow] : []),
        drainText(drained),
      ],
      drained,
    };
  });
  return { findings, candidates };
}

/**
 * LangGraph's runs pile up in the series: a class of its checkpoint chain (PregelLoop: one per run in
 * flight) reaches `checkpointMinRuns` or more and either rose in every interval or at least doubled. A saver (one
 * per process) never does; runs that complete keep the count at the graph's concurrency. Rising in every
 * interval counts as much as doubling: a pile-up that began before the first snapshot (story B at 50
 * turns a second: 111 → 142 → 175 runs in flight) never doubles within the series.
 */
function checkpointRunsPileUp(diff: DiffResult, params: ModelParams): boolean {
  return diff.classes.some((r) => {
    if (!CHECKPOINT_CHAIN.classes.test(r.name)) return false;
    const peak = Math.max(...r.counts);
    const roseEveryInterval = r.counts.length >= 3 && r.counts.every((c, i) => i === 0 || c > r.counts[i - 1]!);
    return peak >= params.checkpointMinRuns && (roseEveryInterval || peak >= 2 * Math.min(...r.counts));
  });
}

/**
 * LangGraph's checkpoint writes pile up: its runs do (checkpointRunsPileUp), or its puts wait in the put
 * chain (checkpointPutsRow). Then every backlog of the series — the promises of the put chain, a saver's
 * pool waiters — gets the durability advice.
 */
export function checkpointWritesPileUp(diff: DiffResult, params: ModelParams): boolean {
  return checkpointRunsPileUp(diff, params) || diff.classes.some((r) => r.deletedPerInterval !== null && checkpointPutsRow(r, diff, params) !== undefined);
}

/** Hop classes that say nothing about which operation is pending. */
const GENERIC_PENDING = /^\(system\)$|^Promise$|^system \/ /;

/** Operations of this class that completed (were collected) between snapshots. */
function completedBetween(diff: DiffResult, className: string): number {
  const row = diff.classes.find((c) => c.name === className);
  return row?.deletedPerInterval?.reduce((a, b) => a + b, 0) ?? 0;
}

/**
 * A finding held through pending work (a `pending-work` hop on its chain) whose operations complete
 * between snapshots is a backlog: the queue moves, and what it holds goes when its turn comes. Its
 * survivors may then be work that lasts longer than an interval, not kept objects: unless the count
 * drained, it must have piled up beyond its own back-and-forth (riseZ, as for any pending class), else
 * it is a candidate. One whose operations never complete stays what it was, said in its evidence.
 */
export function throughPendingWork(diff: DiffResult, f: Finding, params: ModelParams, work?: readonly number[], unit: WorkUnit = 'interval'): Finding | Candidate {
  const at = f.chain.findIndex((h) => h.label?.kind === 'pending-work');
  if (at < 0) return f;
  const hop = f.chain[at]!;
  const queue = pendingQueueOf(f.chain, at);
  const where = `${hop.node.className} @${hop.node.id}${queue ? ` in ${queue}` : ''}`;
  const motion = pendingMotion(f.chain, firstMaxIdOf(diff));
  if (motion?.kind === 'stuck') {
    const promise = f.chain[motion.holder]!;
    return {
      ...f,
      ...fixFields(unsettledPromiseFix(f.chain, motion.holder, f.className)),
      evidence: [...f.evidence, `held in the reaction list of one promise (Promise @${promise.node.id}) that existed before the first snapshot and has not settled since: its reactions are released only when it settles, however many other operations complete`],
    };
  }
  // Completions are counted on the hop's class when it names the operation (a deferred's shape); a
  // promise reaction's class is V8's `(system)`, collected all the time by everything: then on the
  // finding's own class (held objects released when their operation completed).
  const doneClass = GENERIC_PENDING.test(hop.node.className) ? f.className : hop.node.className;
  const done = completedBetween(diff, doneClass);
  // A chain whose head is new work in motion moves by what it is; counting its completions on a class
  // shared with other work would say nothing more.
  if (done === 0 && motion?.kind !== 'advancing') {
    return { ...f, evidence: [...f.evidence, `held by pending work (${where}) none of which completed between snapshots: work that never completes is a leak (promises that never settle, a queue nobody serves)`] };
  }
  const row = diff.classes.find((c) => c.name === f.className);
  const counts = row?.counts ?? [];
  const drained = drainedAfterPeak(counts, params.drainedShare);
  const zNeeded = leakZ(1, params.falseAlarm);
  const z = counts.length > 0 ? riseZ(counts) : Infinity;
  if (!drained && z < zNeeded) return { ...pendingCandidate(f.className, f.signature, f.chain, f.retainedSize, counts), count: f.count, z, zNeeded };
  const moves = motion?.kind === 'advancing'
    ? `the chain's head is new work in motion (${f.chain[motion.holder]!.node.className} @${f.chain[motion.holder]!.node.id}), so its members complete in order while others join`
    : `${done} such operations completed between snapshots, so the work moves but arrives faster than it completes`;
  const flow = work ? fillAndDrain(row, work, unit) : undefined;
  return {
    ...f,
    kind: 'backlog',
    ...fixFields(backlogFix(f.chain, f.className, checkpointWritesPileUp(diff, params))),
    evidence: [
      at === 0
        ? `${f.className}${counts.length ? ` alive: ${counts.join(' → ')}` : ''}: pending operations waiting${queue ? ` in ${queue}` : ''}, each released when it completes; ${moves}`
        : `${f.className}${counts.length ? ` alive: ${counts.join(' → ')}` : ''}, each held by pending work: ${where}, ${hop.label!.text}; ${moves}`,
      ...(flow ? [flow] : []),
      drainText(drained),
    ],
    drained,
  };
}

/**
 * Pending work that drained while observed: a class replaced between snapshots whose count fell from its
 * peak to under half of it and no higher than it started, holding more than the floor at the peak. Not a
 * finding (nothing is kept), but the evidence a `none` verdict should give.
 */
export function drainingWork(diff: DiffResult, floor: Significance, params: ModelParams): string | undefined {
  let best: { row: ClassDiffRow; at: number } | undefined;
  for (const row of diff.classes) {
    if (!isProgramGrowth(row.name) || TIME_DRIVEN.test(row.name) || !row.deletedPerInterval) continue;
    const first = row.counts[0]!, last = row.counts[row.counts.length - 1]!;
    const peak = Math.max(...row.counts);
    const at = row.counts.indexOf(peak);
    if (peak < params.backlogMinCount || last > Math.min(first, 0.5 * peak)) continue;
    if (row.retainedSizes[at]! - row.retainedSizes[row.retainedSizes.length - 1]! < floor.classFloorBytes) continue;
    if (!best || row.retainedSizes[at]! > best.row.retainedSizes[best.at]!) best = { row, at };
  }
  if (!best) return undefined;
  const { row, at } = best;
  const counts = row.counts.join(' → ');
  return at === 0
    ? `${row.name} fell from ${row.counts[0]} to ${row.counts[row.counts.length - 1]} (${counts}): work pending at the first snapshot completed and nothing took its place — a backlog draining, not a leak`
    : `${row.name} rose to ${row.counts[at]} and fell back to ${row.counts[row.counts.length - 1]} (${counts}), its members replaced between snapshots: work that came and went (a batch flushed, a burst served), nothing piled up over the series — not a leak`;
}
