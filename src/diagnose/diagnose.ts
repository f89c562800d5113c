// From a snapshot series (and the memory timeline when attached) to ranked findings and one verdict.
// The rules are one model of growth (growth-model.ts, docs/diagnosis-model.md):
//
// - leak: a group that keeps objects late in the series at a rate above zero at the false-alarm level
//   (judge-group.ts, kept-model.ts): survivors with ids (growth-findings.ts), live counts per retainer
//   path without (signature-growth.ts); `should-be-few` when the class is a framework object a process
//   needs a handful of. Not settled either way: a candidate, the verdict `inconclusive`.
// - backlog: pending work replaced between snapshots while it piles up, or growth held through pending
//   work whose operations complete (backlog-findings.ts); `drained` says whether it fell back.
// - external: bytes grow where they live — ArrayBuffer backing stores (snapshots) or `external` (the
//   timeline) — more than the JS heap's own objects do.
// - native: RSS grows while the heap and external memory are flat, after taking out what each heap
//   snapshot left behind in the target (the RSS step across each snapshot's pause).
// - warm-up: survivors born in the first interval stayed and the last interval added little; none:
//   nothing above.
// One snapshot shows no growth: see suspects.ts (kind `suspect`, never a `leak` verdict).

import type { ClassDiffRow, DiffResult } from '../analysis/diff/diff-series.js';
import { backlogFindings, backlogOrder, checkpointWritesPileUp, drainingWork, throughPendingWork } from './backlog-findings.js';
import { withAllocations, withSameCauseSites } from './finding-allocation.js';
import type { Candidate, DiagnoseInput, Diagnosis, Finding, ModelFigures, Verdict } from './finding.js';
import type { MemoryTrend } from './memory-trend.js';
import { DEFAULT_MODEL } from './model-params.js';
import { firstMaxIdOf, foldSharedHolders } from './fold-findings.js';
import { growthFindings, type GrowthContext } from './growth-findings.js';
import { isProgramGrowth, V8_INTERNAL } from './group-filter.js';
import { signatureGrowthFindings } from './signature-growth.js';
import { growingCheckpointers } from './holder-bytes.js';
import { leakZ } from './kept-model.js';
import { bornPerInterval, growsWithWork, significance, stepsOf, workPerInterval, workUnitOf, type Significance } from './growth-model.js';
import { describeTrend, summarizeTrend } from './memory-trend.js';
import { formatKib as kib } from '../units.js';

/** Class names of ArrayBuffer backing stores as the class index names them. */
const BACKING_STORE = /JSArrayBufferData|^ArrayBuffer$|backing_store/;

function classGrowth(rows: readonly ClassDiffRow[], which: (r: ClassDiffRow) => boolean): number {
  return rows.reduce((sum, r) => (which(r) ? sum + r.sizeDelta : sum), 0);
}

/**
 * Backing stores growing in every interval with the work and above the floor, weighed against the JS
 * objects of the program (without V8's code and system objects): the bytes live where they are larger.
 */
function externalFromSnapshots(diff: DiffResult, ctx: GrowthContext, js: number): boolean {
  const stores = diff.classes.filter((r) => BACKING_STORE.test(r.name));
  if (stores.length === 0) return false;
  const sizes = stores[0]!.sizes.map((_, k) => stores.reduce((sum, r) => sum + r.sizes[k]!, 0));
  const grown = sizes[sizes.length - 1]! - sizes[0]!;
  if (grown < ctx.significance.classFloorBytes || grown <= js) return false;
  return sizes.length < 3 || growsWithWork(stepsOf(sizes), ctx.work, ctx.params.steadyShare);
}

/**
 * Warm-up: objects born in the first interval stayed (code compiled, caches and interned strings filled:
 * survivors, known by identity) and the last interval added little that stayed. Objects of the work in
 * flight at the first snapshot are gone by the last: they are not survivors and not warm-up. `tail`:
 * ModelParams.warmUpTail.
 */
function warmUp(diff: DiffResult, floor: Significance, tail: number): boolean {
  const groups = diff.survivors?.groups;
  if (diff.snapshots.length < 3 || !groups) return false;
  let first = 0, last = 0;
  for (const g of groups) {
    const count = g.counts[g.counts.length - 1]!;
    if (count === 0) continue;
    const born = bornPerInterval(g.counts);
    first += (g.selfSize * born[0]!) / count;
    last += (g.selfSize * born[born.length - 1]!) / count;
  }
  return first >= floor.totalsFloorBytes && last <= tail * first;
}

export function diagnose(input: DiagnoseInput): Diagnosis {
  const { diff } = input;
  const n = diff.snapshots.length;
  const params = input.params ?? DEFAULT_MODEL;
  const memory = input.samples && input.samples.length >= 3 ? summarizeTrend(input.samples, undefined, input.pauses, params) : undefined;
  const memoryText = memory ? describeTrend(memory) : undefined;
  const sig = significance(diff.snapshots.map((s) => s.totalSize), diff.classes, params);
  const work = workPerInterval(n - 1, input.unitsAt, input.timesAt);
  const ctx: GrowthContext = { input, work, significance: sig, params };
  const backingStoreGrowth = classGrowth(diff.classes, (r) => BACKING_STORE.test(r.name));
  const jsGrowth = classGrowth(diff.classes, (r) => !BACKING_STORE.test(r.name) && !V8_INTERNAL.test(r.name));
  const model: ModelFigures = { ...sig, work, workUnit: workUnitOf(input.unitsAt, input.timesAt), backingStoreGrowth, jsGrowth };

  // Native memory counts only when the snapshots' own leftovers were taken out (or there were none).
  const nativeCounts = !input.timelineHasSnapshots || input.pauses !== undefined;
  const grows = memory?.growing.includes('heap') ? 'heap' : memory?.growing.includes('external') ? 'external'
    : nativeCounts && (memory?.growing.includes('native') || memory?.growing.includes('rss')) ? 'native' : undefined;

  // Without ids (one process across inspector sessions, instances of one service): live counts per path.
  const byIds = diff.mode !== 'signatures' && diff.sameProcess ? growthFindings(ctx) : undefined;
  const byPaths = diff.mode === 'signatures'
    ? signatureGrowthFindings(diff, { work, significance: sig, params, ...(input.elapsedMs ? { elapsedMs: input.elapsedMs } : {}), ...(input.unitCount ? { unitCount: input.unitCount } : {}) })
    : { findings: [], candidates: [] };
  // Two points (two instances at two ages, two sessions) cannot tell a leak from a cache filled once
  // between them: what grew is a candidate, and a third point settles it.
  const twoPoints = diff.mode === 'signatures' && n < 3;
  const growth = byIds?.findings ?? (twoPoints ? [] : byPaths.findings);
  const pending = withAllocations(growth, diff.survivors?.groups ?? []).map((f) => throughPendingWork(diff, f, params, work, model.workUnit));
  const classified = pending.filter((f): f is Finding => 'kind' in f);
  const candidates: Candidate[] = [
    ...pending.filter((c): c is Candidate => !('kind' in c)),
    ...(byIds?.candidates ?? (twoPoints ? byPaths.findings.map(candidateOf) : byPaths.candidates)),
  ];
  // Ids tell which hops existed before the series: groups hanging on the same old holder are one cause.
  const firstMaxId = firstMaxIdOf(diff);
  const kept = withSameCauseSites(foldSharedHolders(classified.filter((f) => f.kind !== 'backlog'), firstMaxId));
  const held = classified.filter((f) => f.kind === 'backlog');
  const pendingRows = diff.sameProcess ? backlogFindings(ctx, [...held, ...kept]) : { findings: [], candidates: [] };
  candidates.push(...pendingRows.candidates);
  // One order however each was found (backlog-findings.ts backlogOrder).
  const backlog = [...held, ...pendingRows.findings].sort((a, b) => backlogOrder(a.className, b.className));
  // A checkpointer keeping more bytes in the same objects is what keeps the growth, unless its writes
  // pile up (pending puts carry the copies: a backlog explains them): it leads the leak's findings.
  // When kept objects already show that growth in its storage (their chains pass it), they say it.
  if (!checkpointWritesPileUp(diff, params)) {
    const shown = (c: Finding) => kept.some((f) => f.chain.some((h) => h.node.className === c.className));
    kept.unshift(...growingCheckpointers(ctx, leakZ(1, params.falseAlarm)).filter((c) => !shown(c)));
  }
  // Bytes weighed where they live: in the lasting groups, backing stores against JS objects. Without
  // any, and only where ids cannot tell kept Buffers from Buffers in flight (both count in a class
  // total), the backing-store class totals against the program's objects. With ids a kept Buffer is a
  // survivor, judged by the model like any object; a total that rose twice is Buffers in flight.
  const outside = kept.reduce((sum, f) => sum + (f.externalSize ?? 0), 0);
  const inside = kept.reduce((sum, f) => sum + f.retainedSize - (f.externalSize ?? 0), 0);
  // Not from the timeline: between snapshots it counts Buffers not yet collected (in flight, or freed
  // lazily), while each snapshot's backing stores are counted after V8's own GC.
  const externalBytes = kept.length > 0 ? outside > inside : !byIds && externalFromSnapshots(diff, ctx, jsGrowth);

  const evidence: string[] = [];
  let verdict: Verdict = 'none';
  const findings: Finding[] = [...kept];
  if (externalBytes) {
    verdict = 'external';
    const holder = kept.find((f) => f.kind === 'external');
    evidence.push(holder
      ? `${kib(outside)} of ArrayBuffer backing stores (Buffers) kept by groups that grow with the work, against ${kib(inside)} of JS objects: the memory is outside the JS heap, held by ${holder.className}`
      : `ArrayBuffer backing stores grew by ${kib(backingStoreGrowth)} between the first and the last snapshot, more than the program's JS objects (${kib(jsGrowth)}): the memory is in Buffers / ArrayBuffers`);
    // No verdict without a finding: without a group to name, the backing stores' class total is one.
    if (findings.length === 0) findings.push(backingStoreFinding(diff, evidence[0]!));
    if (holder) evidence.push(...holder.evidence);
  } else if (kept.length > 0) {
    verdict = 'leak';
    evidence.push(...kept[0]!.evidence);
    if (kept.length > 1) evidence.push(`${kept.length} independent groups grow with the work: each is a finding below, largest first`);
  } else if (backlog.length > 0) {
    verdict = 'backlog';
    evidence.push(...backlog[0]!.evidence);
  } else if (grows === 'native') {
    verdict = 'native';
    evidence.push(memoryText!);
    findings.push(nativeFinding(memory!, memoryText!));
  } else if (candidates.length > 0) {
    verdict = 'inconclusive';
    evidence.push(...candidates.slice(0, 3).map(candidateText));
    if (candidates.length > 3) evidence.push(`and ${candidates.length - 3} more candidate groups`);
  } else if (warmUp(diff, sig, params.warmUpTail)) {
    verdict = 'warm-up';
    evidence.push('objects were added in the first interval only (compiled code, caches, strings) and nothing grew after it');
  } else {
    const draining = diff.sameProcess ? drainingWork(diff, sig, params) : undefined;
    evidence.push(draining ?? smallSteadyGrowth(diff, sig) ?? (diff.sameProcess
      ? `no group of objects was added in every interval in proportion to the work and kept (a group must retain ${kib(sig.floorBytes)}: ${floorReason(sig)})`
      : diff.mode === 'signatures'
        ? 'compared by retainer path (the object ids do not line up): no path\'s live count grew with the work in every interval beyond the floor'
        : 'snapshots of different processes: only class totals compared, no growth found in them'));
  }
  // Beside findings, a timeline that cannot tell growth from GC noise adds nothing (it stays in `memory`).
  const timelineSays = memory !== undefined && (memory.growing.length > 0 || findings.length + backlog.length === 0);
  if (memoryText && timelineSays && verdict !== 'external' && verdict !== 'native') {
    evidence.push(nativeCounts ? memoryText : `${memoryText} (RSS includes what each heap snapshot leaves behind in the target)`);
  }
  return { verdict, evidence, findings: [...findings, ...backlog], ...(memory ? { memory } : {}), model, ...(candidates.length > 0 ? { candidates } : {}) };
}

/** The diagnosis as every series result carries it (attach, diff, report): one shape, one place. */
export function verdictFields(d: Diagnosis) {
  return {
    verdict: d.verdict,
    evidence: d.evidence,
    findings: d.findings,
    ...(d.candidates ? { candidates: d.candidates } : {}),
    ...(d.model ? { model: d.model } : {}),
  };
}

/** A path that grew between two points: a candidate, settled by a third. */
function candidateOf(f: Finding): Candidate {
  return { className: f.className, signature: f.signature, count: f.count, born: [f.count], retainedSize: f.retainedSize, moreIntervals: 1, chain: f.chain };
}

/** A candidate as the evidence names it: what it kept, how sure, and what would settle it. */
function candidateText(c: Candidate): string {
  if (c.pending?.trendChance !== undefined) {
    return `not sure yet: ${c.className} rose (${c.pending.counts.join(' → ')}), its members replaced between snapshots: each count is the work of a moment (a batch flushed on a timer rises and falls so), and readings that only scatter rise this steeply by chance ${(c.pending.trendChance * 100).toFixed(1)}%, where a pile-up needs under ${(c.pending.chanceNeeded! * 100).toFixed(0)}%; more snapshots would settle it`;
  }
  if (c.pending && c.z !== undefined && c.zNeeded !== undefined) {
    return `not sure yet: ${c.className} held by pending work that completes, alive ${c.pending.counts.join(' → ')}: a rise of ${c.z.toFixed(1)} standard deviations of a count where a pile-up needs ${c.zNeeded.toFixed(1)} (work that lasts longer than an interval looks kept until it completes); more snapshots would settle it`;
  }
  if (c.inFlight && c.born.slice(0, -1).every((n) => n === 0)) {
    return `not sure yet: ${c.count} ${c.className} born in the last interval are alive and none older, while its class's work in flight rose ${c.inFlight.map(Math.round).join(' → ')}: work arriving faster than it is served, each item leaving within an interval (first in, first out), keeps no member yet piles up; more snapshots or the holder's reads would settle it`;
  }
  if (c.z === undefined || c.zNeeded === undefined) {
    return `not sure yet: ${c.count} more ${c.className} alive along one retainer path between two points, which cannot tell a leak from a cache filled once or the work in flight; a third snapshot (or an instance at a third age) would settle it`;
  }
  const more = Number.isFinite(c.moreIntervals) ? `about ${c.moreIntervals} more interval${c.moreIntervals === 1 ? '' : 's'} like the last (another snapshot each) would settle it if the rate holds` : 'more snapshots would settle it';
  return `not sure yet: ${c.count} ${c.className} born after the first snapshot are still alive (born per interval: ${c.born.join(', ')}), kept at ${c.z.toFixed(1)} standard errors where a leak needs ${c.zNeeded.toFixed(1)}; ${more}`;
}

/**
 * No verdict without a finding: native growth is one of its own, the RSS outside the heap and external
 * memory (memory-trend.ts: fitted over the windows between snapshots, above its noise and for long
 * enough), with nothing in the heap to point at. A heap snapshot cannot show what holds it.
 */
function nativeFinding(memory: MemoryTrend, text: string): Finding {
  const part = memory.parts?.find((p) => p.part === 'native');
  const rise = part?.riseBytes ?? memory.rss.riseBytes;
  const action = 'look for native handles made per request and never closed (zlib streams, crypto contexts, addons), or take `leakhunt watch` longer: allocator high-water levels off';
  return {
    kind: 'native',
    className: '(native memory)',
    signature: null,
    count: 0,
    perInterval: 0,
    retainedSize: rise,
    chain: [],
    fix: `memory outside the JS heap grows while the heap and external memory stay flat: ${action}`,
    action,
    evidence: [text],
  };
}

/**
 * The external verdict from class totals (no ids, or no lasting group): the backing stores' rows grew
 * with the work more than the program's objects. No chain: without ids nothing tells which holder kept
 * them; one attach session (ids) does.
 */
function backingStoreFinding(diff: DiffResult, text: string): Finding {
  const stores = diff.classes.filter((r) => BACKING_STORE.test(r.name));
  const counts = stores[0]!.counts.map((_, k) => stores.reduce((sum, r) => sum + r.counts[k]!, 0));
  const sizes = stores[0]!.sizes.map((_, k) => stores.reduce((sum, r) => sum + r.sizes[k]!, 0));
  const count = Math.max(0, counts[counts.length - 1]! - counts[0]!);
  const action = 'find what keeps the Buffers with one `leakhunt attach` session (objects known by id give the holder), then release them when the work ends or bound what holds them';
  return {
    kind: 'external',
    className: stores.length === 1 ? stores[0]!.name : 'ArrayBuffer backing stores',
    signature: null,
    count,
    perInterval: count / Math.max(1, counts.length - 1),
    retainedSize: Math.max(0, sizes[sizes.length - 1]! - sizes[0]!),
    chain: [],
    fix: `ArrayBuffer backing stores (Buffers) grow with the work while the JS objects do not: ${action}`,
    action,
    evidence: [text, `backing stores: ${counts.join(' → ')} objects, ${sizes.map(kib).join(' → ')} at the snapshots`],
    externalSize: Math.max(0, sizes[sizes.length - 1]! - sizes[0]!),
  };
}

/** The program class that grew in every interval, however little: worth a line when nothing else is. */
function smallSteadyGrowth(diff: DiffResult, sig: Significance): string | undefined {
  const row = diff.classes.find((c) => isProgramGrowth(c.name) && c.grewEveryInterval === true);
  if (!row) return undefined;
  if (row.retainedDelta < sig.floorBytes) {
    return `${row.name} grew in every interval (${row.counts.join(' → ')}) but its growth (${kib(row.retainedDelta)} retained) is below what a finding needs (${kib(sig.floorBytes)}: ${floorReason(sig)})`;
  }
  // Big enough as a class total, yet no group of its objects passed: the rules on born and kept said no.
  return `${row.name} grew in every interval (${row.counts.join(' → ')}, ${kib(row.retainedDelta)} retained), but no group of its objects was added in every interval in proportion to the work and kept`;
}

function floorReason(sig: Significance): string {
  return `the larger of 16 KiB and 0.2% of the ${kib(sig.liveBytes)} live heap; class totals move back and forth by ${kib(sig.noiseBytes)} per interval`;
}
