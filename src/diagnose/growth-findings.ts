// Leak and should-be-few findings of the id diff: survivor groups (growing-group.ts) through the one
// filter (group-filter.ts) and judge (judge-group.ts: a kept rate above zero at the diagnosis's
// false-alarm level, kept by its class's live count, above the floor); groups between ruled out and
// that level are candidates (the verdict `inconclusive` when nothing else is found). Every independent
// group that passes is a finding, largest first; a group whose chain runs through an earlier
// finding's objects is held by it and folds into it ("also held"); carriers.ts names and weighs it.

import type { ChainHop } from '../analysis/chain-description.js';
import type { ClassDiffRow, DiffResult } from '../analysis/diff/diff-series.js';
import type { Candidate, DiagnoseInput, Finding } from './finding.js';
import { fixFields, suggestFix } from './fixes.js';
import { fromSurvivorGroup, type GrowingGroup } from './growing-group.js';
import type { Significance } from './growth-model.js';
import { judgeGroup, nativeWrapperClasses, scoreGroup, type HolderGroup } from './judge-group.js';
import { firstMaxIdOf } from './fold-findings.js';
import { holderGroupsOf } from './holder-groups.js';
import { holderReadText, holderToRead, holderVerdict, holderZ, readsWithin, type HolderReads } from './holder-reads.js';
import { intervalsToSettle, leakZ, type KeptRate } from './kept-model.js';
import type { ModelParams } from './model-params.js';
import { FRAMEWORK_OBJECTS } from './recognisers.js';
import { countsAsGrowth, mayLeadFinding } from './group-filter.js';
import { externalText, isExternal, isProgramClass, nameAfterProgram } from './carriers.js';
import { rates } from './finding-rates.js';


export interface GrowthContext {
  readonly input: DiagnoseInput;
  /** Work in each interval (growth-model.ts workPerInterval). */
  readonly work: readonly number[];
  readonly significance: Significance;
  readonly params: ModelParams;
}

function hasAsyncContext(chain: readonly ChainHop[]): boolean {
  return chain.some((hop) => hop.label?.kind === 'async-context');
}

function growthEvidence(className: string, count: number, born: readonly number[], row: ClassDiffRow | undefined, paths: number, k: KeptRate): string {
  const where = paths > 1 ? `along ${paths} retainer paths` : 'along one retainer path';
  const live = row ? `; ${className} alive: ${row.counts.join(' → ')}` : '';
  return `${count} ${className} born after the first snapshot are still alive ${where}, kept per interval: ${born.join(', ')} (${zText(k.z)})${live}`;
}

/** How far the kept rate is above none, in the model's units (kept-model.ts). */
export function zText(z: number): string {
  return `z = ${z >= 10 ? z.toFixed(0) : z.toFixed(1)}`;
}

/** Per finding: the classes of other growing groups held through its objects, with their counts. */
type AlsoHeld = Map<Finding, Map<string, number>>;
/** Per finding: the lasting groups folded into it, for naming it after the program's own objects. */
type Folded = Map<Finding, GrowingGroup[]>;

function hold(alsoHeld: AlsoHeld, holder: Finding, className: string, count: number): void {
  let held = alsoHeld.get(holder);
  if (!held) alsoHeld.set(holder, (held = new Map()));
  held.set(className, (held.get(className) ?? 0) + count);
}

function fewText(className: string): string | undefined {
  return FRAMEWORK_OBJECTS.find((f) => f.few && f.className.test(className))?.text;
}

/**
 * Groups to judge: single paths, then per-class sums of classes whose paths differ per member (at least
 * `minMembersPerPath` a path on average, ModelParams).
 */
export function withClassSums(groups: readonly GrowingGroup[], minMembersPerPath: number): GrowingGroup[] {
  const out = [...groups];
  const byClass = new Map<string, GrowingGroup[]>();
  for (const g of groups) {
    const list = byClass.get(g.className);
    if (list) list.push(g);
    else byClass.set(g.className, [g]);
  }
  const total = (list: readonly GrowingGroup[], of: (g: GrowingGroup) => number) => list.reduce((sum, g) => sum + of(g), 0);
  for (const [className, list] of byClass) {
    // One leak split over paths has many members on each; objects made once each along paths of their
    // own (a singleton's array per service) are not one growing thing.
    if (list.length < 2 || total(list, (g) => g.counts[g.counts.length - 1]!) < minMembersPerPath * list.length) continue;
    // The chain shown is the path of the members the model counts as kept (alive at the newest snapshot
    // and born before its last interval), not of the largest path: beside a leak of a busy class, the
    // largest path is often the work in flight at the newest snapshot.
    const outlived = (g: GrowingGroup): number => g.counts[g.counts.length - 2] ?? 0;
    const top = list.reduce((a, b) => (outlived(b) > outlived(a) || (outlived(b) === outlived(a) && b.retainedSize > a.retainedSize) ? b : a));
    const sumAt = (of: (g: GrowingGroup) => readonly number[] | null) => of(top)?.map((_, k) => total(list, (g) => of(g)![k]!)) ?? null;
    // Sized by the paths whose members outlived an interval, when any did: a path all of whose members
    // were born in the last interval is the work in flight at the newest snapshot (a turn's timer and the
    // Buffers it holds), not what the class keeps.
    const kept = list.filter((g) => outlived(g) > 0);
    const sized = kept.length > 0 ? kept : list;
    out.push({
      ...top,
      className,
      counts: sumAt((g) => g.counts)!,
      born: top.born ? sumAt((g) => g.born) : null,
      retainedSize: total(sized, (g) => g.retainedSize),
      externalSize: total(sized, (g) => g.externalSize),
      movedElsewhere: total(list, (g) => g.movedElsewhere),
      paths: list.length,
    });
  }
  return out;
}

export interface GrowthResult {
  readonly findings: Finding[];
  readonly candidates: Candidate[];
  /** Groups the model tested (the false-alarm level is shared among them) and the z a leak needs. */
  readonly tested: number;
  readonly zNeeded: number;
}

export function growthFindings(ctx: GrowthContext): GrowthResult {
  const { input } = ctx;
  const diff = input.diff;
  const intervals = diff.snapshots.length - 1;
  const rowOf = new Map(diff.classes.map((r) => [r.name, r]));
  const findings: Finding[] = [];
  const alsoHeld: AlsoHeld = new Map();
  const folded: Folded = new Map();
  const found = new Set<string>();
  const all = (diff.survivors?.groups ?? []).map(fromSurvivorGroup);
  const groups = all.filter(countsAsGrowth);
  const holdersOf = holderGroupsOf(all);
  const holderRows = (g: GrowingGroup): HolderGroup[] =>
    holdersOf(g).flatMap((h) => {
      const row = rowOf.get(h.className);
      return row ? [{ group: h, row }] : [];
    });
  const nativeWrappers = nativeWrapperClasses(diff.classes);
  const scored = withClassSums(groups, ctx.params.minMembersPerPath).flatMap((c) => {
    const row = rowOf.get(c.className);
    const k = scoreGroup(c, row, ctx.work, ctx.significance, nativeWrappers);
    return k ? [{ c, row, k }] : [];
  });
  const zNeeded = leakZ(scored.length, ctx.params.falseAlarm);
  const reads = readsWithin(input.holderReads ?? [], ctx.params);
  const readsOf = holderReadsOf(reads, diff);
  const open: Candidate[] = [];
  // Findings before candidates; within each, single paths largest first, then classes summed over paths.
  const judged = scored
    .map((x) => {
      const own = readsOf(x.c);
      const after = own ? holderVerdict(own.reads, x.k.kept, holderZ(ctx.params.falseAlarm, reads.length), ctx.params.zRuledOut) : undefined;
      return { ...x, reads: own, after, status: judgeGroup(x.k, x.c, x.row, zNeeded, ctx.params, ctx.work, holderRows(x.c), after) };
    })
    .filter((x) => x.status !== undefined)
    .sort((a, b) => (a.status === b.status ? 0 : a.status === 'leak' ? -1 : 1));
  for (const { c, row, k, status, reads, after } of judged) {
    // A class already found by one of its paths is not found again by the sum of its paths.
    if (c.paths > 1 && found.has(c.className)) continue;
    const born = c.born!;
    if (status === 'candidate') {
      if (!mayLeadFinding(c)) continue;
      const count = c.counts[c.counts.length - 1]!;
      open.push({ className: c.className, signature: c.signature, count, born, retainedSize: c.retainedSize, z: k.z, zNeeded, moreIntervals: intervalsToSettle(k, zNeeded), chain: c.chain });
      continue;
    }
    const g = c;
    const count = c.counts[c.counts.length - 1]!;
    const sameClass = found.has(c.className) ? findings.find((f) => f.className === c.className) : undefined;
    if (sameClass) {
      // One class leaking along a second path: one finding, the other path counted with it.
      hold(alsoHeld, sameClass, `${c.className} (along another path)`, count);
      continue;
    }
    const index = findings.findIndex((f) => g.chain.slice(1).some((hop) => hop.node.className === f.className));
    if (index >= 0) {
      const holder = findings[index]!;
      if (!found.has(c.className)) {
        hold(alsoHeld, holder, c.className, count);
        folded.set(holder, [...(folded.get(holder) ?? []), c]);
      }
      found.add(c.className);
      // The chain through an AsyncLocalStorage store explains the leak best (the holder is the resource
      // that captured it): show that one, with its fix.
      if (!hasAsyncContext(holder.chain) && hasAsyncContext(g.chain)) {
        const better: Finding = { ...holder, signature: g.signature, chain: g.chain, ...fixFields(suggestFix(holder.className, g.chain)), evidence: [...holder.evidence, `each holds a ${c.className} through an AsyncLocalStorage store it captured (${count} of them)`] };
        const held = alsoHeld.get(holder);
        if (held) alsoHeld.set(better, held);
        alsoHeld.delete(holder);
        const inner = folded.get(holder);
        if (inner) folded.set(better, inner);
        folded.delete(holder);
        findings[index] = better;
      }
      continue;
    }
    if (!mayLeadFinding(g)) continue;
    found.add(c.className);
    const few = fewText(c.className);
    const external = isExternal(c, ctx.params.externalShare);
    findings.push({
      kind: external ? 'external' : few ? 'should-be-few' : 'leak',
      className: c.className,
      signature: g.signature,
      count,
      ...rates(count, input, intervals),
      retainedSize: c.retainedSize,
      chain: g.chain,
      ...fixFields(suggestFix(c.className, g.chain)),
      evidence: [
        growthEvidence(c.className, count, born, row, c.paths, k),
        ...(reads && after ? [holderReadText(reads, after)] : []),
        ...(external ? [externalText(c)] : []),
        ...(few ? [`a process needs only a handful of ${c.className} objects (${few}), yet the series kept adding more`] : []),
      ],
      born,
      externalSize: c.externalSize,
    });
  }
  // A finding whose chain runs through a later finding's objects is held by them too (a queued job's
  // arrays, a tracing queue's items held through the RunTree), found first because it retains more:
  // one finding, the holder's. Not when its own chain reaches an AsyncLocalStorage store before that
  // holder: the store is what the leak is (a RunTree captured by a client's timer is not the client's).
  const absorbed = new Set<Finding>();
  for (const f of findings) {
    const holder = findings.find((h) => {
      if (h === f || absorbed.has(h) || !isProgramClass(h.className)) return false;
      const at = f.chain.findIndex((hop, i) => i > 0 && hop.node.className === h.className);
      return at > 0 && !f.chain.slice(0, at).some((hop) => hop.label?.kind === 'async-context');
    });
    if (!holder) continue;
    absorbed.add(f);
    hold(alsoHeld, holder, f.className, f.count);
    for (const [name, count] of alsoHeld.get(f) ?? []) hold(alsoHeld, holder, name, count);
  }
  const result = findings
    .filter((f) => !absorbed.has(f))
    .map((f) => {
      const { finding, held } = nameAfterProgram(f, folded.get(f) ?? [], alsoHeld.get(f), input, keptThrough);
      return held && held.size > 0 ? { ...finding, alsoHeld: [...held].sort((a, b) => b[1] - a[1]).map(([name, count]) => `${count} × ${name}`) } : finding;
    })
    .sort((a, b) => b.retainedSize - a.retainedSize);
  // A candidate of a class already found, or held through a finding's objects, is part of that finding.
  const unexplained = open.filter((o) => !found.has(o.className) && !result.some((f) => o.chain.slice(1).some((hop) => hop.node.className === f.className)));
  return { findings: result, candidates: unexplained.sort((a, b) => (b.z ?? 0) - (a.z ?? 0)), tested: scored.length, zNeeded };
}

/** The reads of a group's holder after the last snapshot (attach, holder-reads.ts), when it was read. */
function holderReadsOf(all: readonly HolderReads[], diff: DiffResult): (g: GrowingGroup) => HolderReads | undefined {
  const firstMaxId = firstMaxIdOf(diff);
  if (all.length === 0 || firstMaxId === undefined) return () => undefined;
  const byId = new Map(all.map((h) => [h.holderId, h]));
  return (g) => {
    const holder = holderToRead(g.chain, firstMaxId);
    return holder ? byId.get(holder.node.id) : undefined;
  };
}

/** What a group kept through the carrier heading its finding, as survivors tell it. */
function keptThrough(g: GrowingGroup, count: number, carrier: Finding): string {
  return `${count} ${g.className} born after the first snapshot are still alive, born per interval and kept: ${g.born!.join(', ')}, each held through a ${carrier.className} (${carrier.count} of them)`;
}
