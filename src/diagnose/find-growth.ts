// The one finder (docs/diagnosis-model.md, "One finder"): from growing groups to findings and
// candidates, whoever asks — attach, report and diff with ids (growth-findings.ts), diff without ids
// (signature-growth.ts), assertNoLeak (src/testing/proportional-growth.ts). The steps are always
// filter → class sums → model → fold → carrier naming → external share. Callers differ only in data
// (identity, class rows, holder reads), in parameters (ModelParams) and in how they word a group's
// growth; `profile` has no chains to fold and calls the model step alone (judgeGroups).

import type { ChainHop } from '../analysis/chain-description.js';
import type { ClassDiffRow } from '../analysis/diff/diff-series.js';
import { externalText, grownRetained, isExternal, isProgramClass, nameAfterProgram } from './carriers.js';
import { article } from './chain-labels.js';
import { rates } from './finding-rates.js';
import type { Candidate, DiagnoseInput, Finding, HolderReads } from './finding.js';
import { fixFields, suggestFix } from './fixes.js';
import { countsAsGrowth, mayLeadFinding } from './group-filter.js';
import { addedObjects, type GrowingGroup } from './growing-group.js';
import type { Significance } from './growth-model.js';
import { holderGroupsOf } from './holder-groups.js';
import { holderReadText, holderVerdict, holderZ, type HolderVerdict } from './holder-reads.js';
import { judgeGroup, pilingLevels, scoreGroup, type HolderGroup, type Status } from './judge-group.js';
import { heapKeptPace, intervalsToSettle, leakZ, type KeptRate } from './kept-model.js';
import type { ModelParams } from './model-params.js';
import { sameHolder, tailOfChain } from './path-shape.js';
import { FRAMEWORK_OBJECTS } from './recognisers.js';

/** How a caller words a group's growth: what its diff mode can tell of it. */
export interface GrowthWords {
  /** The first evidence line of a finding `g` leads. */
  grew(g: GrowingGroup, count: number, k: KeptRate, row: ClassDiffRow | undefined): string;
  /** What `g` kept through the carrier heading its finding. */
  keptThrough(g: GrowingGroup, count: number, carrier: Finding): string;
}

/** What the model step reads besides the groups. */
export interface JudgeSource {
  /** Class rows by name: with ids, the live counts and births the judge checks a group against. */
  readonly rows?: ReadonlyMap<string, ClassDiffRow>;
  /** Classes wrapping native memory (judge-group.ts nativeWrapperClasses). */
  readonly nativeWrappers?: ReadonlySet<string>;
  /** The live heap at each snapshot (with ids): whether the heap's bytes slowed down with a group's count. */
  readonly liveTotals?: readonly number[];
  /** Work in each interval (growth-model.ts workPerInterval). */
  readonly work: readonly number[];
  readonly significance: Significance;
  readonly params: ModelParams;
  /** Holder reads after the last snapshot (attach, holder-reads.ts): `of` a group, `count` read in all. */
  readonly holderReads?: { readonly of: (g: GrowingGroup) => HolderReads | undefined; readonly count: number };
}

export interface GrowthSource extends JudgeSource {
  /** Every group of the diff, before the filter: the holders up a group's path are found among all. */
  readonly groups: readonly GrowingGroup[];
  /** For the findings' rates. */
  readonly rates: Pick<DiagnoseInput, 'elapsedMs' | 'unitCount'>;
  readonly words: GrowthWords;
  /** Classes summed over their paths (withClassSums) and the members a path they need on average; none when absent. */
  readonly classSums?: { readonly minMembersPerPath: number };
  /**
   * Without ids: a group can hold a finding's objects along a chain that does not name the finding's
   * class (its chain is a tail of the finding's), and siblings in one container are two groups: both
   * fold too (path-shape.ts).
   */
  readonly byPathShape?: boolean;
  /** Two points: what passes zRuledOut is named as a finding (the caller makes it a candidate). */
  readonly twoPoints?: boolean;
}

export interface Judged {
  readonly g: GrowingGroup;
  readonly row: ClassDiffRow | undefined;
  readonly k: KeptRate;
  readonly status: Status;
  readonly reads: HolderReads | undefined;
  readonly after: HolderVerdict | undefined;
}

export interface FoundGrowth {
  /** Largest first. */
  readonly findings: Finding[];
  /** The group each finding is shown by (after carrier naming), index for index. */
  readonly leads: GrowingGroup[];
  readonly candidates: Candidate[];
  /** Groups the model tested (the false-alarm level is shared among them) and the z a leak needs. */
  readonly tested: number;
  readonly zNeeded: number;
}

/**
 * The model step: each group's kept rate against the leak level, Bonferroni over the groups scored
 * (judge-group.ts). Groups below the floor are not scored; ruled-out ones are returned with no status.
 */
export function judgeGroups(groups: readonly GrowingGroup[], src: JudgeSource, all: readonly GrowingGroup[] = groups): { judged: Judged[]; tested: number; zNeeded: number } {
  const holdersOf = holderGroupsOf(all);
  const holderRows = (g: GrowingGroup): HolderGroup[] =>
    src.rows ? holdersOf(g).flatMap((h) => {
      const row = src.rows!.get(h.className);
      return row ? [{ group: h, row }] : [];
    }) : [];
  const scored = groups.flatMap((g) => {
    const row = src.rows?.get(g.className);
    const k = scoreGroup(g, row, src.work, src.significance, src.nativeWrappers);
    return k ? [{ g, row, k }] : [];
  });
  const zNeeded = leakZ(scored.length, src.params.falseAlarm);
  const heapSlowed = !(src.liveTotals && heapKeptPace(src.liveTotals, src.work, src.significance.noiseBytes, src.significance.totalsFloorBytes));
  const readZ = src.holderReads ? holderZ(src.params.falseAlarm, src.holderReads.count) : 0;
  const judged = scored.map(({ g, row, k }): Judged => {
    const reads = src.holderReads?.of(g);
    // Nothing outlived an interval while its class's work in flight climbed: its last interval is that
    // work, not a burst the reads may be pausing after, so the reads alone say whether it goes on.
    const inFlightOnly = !k.kept.slice(0, -1).some((n) => n > 0) && pilingLevels(g, row, src.work, src.params) !== undefined;
    const keptSeen = inFlightOnly ? k.kept.slice(0, -1) : k.kept;
    const after = reads ? holderVerdict(reads.reads, keptSeen, readZ, src.params.zRuledOut) : undefined;
    const status = judgeGroup(k, g, row, zNeeded, src.params, src.work, holderRows(g), after, heapSlowed);
    return { g, row, k, status, reads, after };
  });
  return { judged, tested: scored.length, zNeeded };
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
    const counts = sumAt((g) => g.counts)!;
    const born = top.born ? sumAt((g) => g.born) : null;
    const retainedSize = total(sized, (g) => g.retainedSize);
    const externalSize = total(sized, (g) => g.externalSize);
    const movedElsewhere = total(list, (g) => g.movedElsewhere);
    // The chain is read from the top path only when asked (assertNoLeak describes chains lazily).
    out.push({
      className, signature: top.signature, get chain() { return top.chain; }, counts, born, retainedSize, externalSize,
      movedElsewhere, paths: list.length,
      ...(top.heldBy !== undefined ? { heldBy: top.heldBy } : {}), ...(top.plumbing !== undefined ? { plumbing: top.plumbing } : {}),
    });
  }
  return out;
}

function hasAsyncContext(chain: readonly ChainHop[]): boolean {
  return chain.some((hop) => hop.label?.kind === 'async-context');
}

/** The chain passes an object of the finding's class after its own first hop: the group is held through it. */
function heldThrough(chain: readonly ChainHop[], f: Finding): boolean {
  return chain.slice(1).some((hop) => hop.node.className === f.className);
}

function fewText(className: string): string | undefined {
  return FRAMEWORK_OBJECTS.find((f) => f.few && f.className.test(className))?.text;
}

/** A finding being built: what was folded into it, and the group it is shown by. */
interface Lead {
  finding: Finding;
  /** The lead group's class (a closure's finding shows the name its chain gives it: shownName). */
  readonly className: string;
  readonly group: GrowingGroup;
  /** Classes of other growing groups held through its objects, with their counts. */
  readonly held: Map<string, number>;
  /** Growing groups held through its objects, for naming it after the program's own objects. */
  readonly through: GrowingGroup[];
}

function hold(lead: Lead, className: string, count: number): void {
  lead.held.set(className, (lead.held.get(className) ?? 0) + count);
}

export function findGrowth(src: GrowthSource): FoundGrowth {
  const intervals = src.groups[0] ? src.groups[0].counts.length - 1 : 0;
  // Filter, class sums, model.
  const counted = src.groups.filter(countsAsGrowth);
  const groups = src.classSums ? withClassSums(counted, src.classSums.minMembersPerPath) : counted;
  const { judged, tested, zNeeded } = judgeGroups(groups, src, src.groups);
  const named = (x: Judged) => x.status === 'leak' || (src.twoPoints === true && x.status === 'candidate');
  // Findings before candidates; each in the caller's order (single paths, then classes summed over paths).
  const ordered = [...judged.filter(named), ...judged.filter((x) => !named(x) && x.status === 'candidate')];

  // Fold: a group of a class already found, or held through a finding's objects, is listed under it.
  const leads: Lead[] = [];
  const found = new Set<string>();
  const open: Judged[] = [];
  for (const x of ordered) {
    const { g } = x;
    // A class already found by one of its paths is not found again by the sum of its paths.
    if (g.paths > 1 && found.has(g.className)) continue;
    if (!named(x)) {
      if (mayLeadFinding(g)) open.push(x);
      continue;
    }
    const count = addedObjects(g);
    const sameClass = found.has(g.className) ? leads.find((l) => l.className === g.className) : undefined;
    if (sameClass) {
      // One class growing along a second path: one finding, the other path counted with it.
      hold(sameClass, `${g.className} (along another path)`, count);
      continue;
    }
    const through = leads.find((l) => heldThrough(g.chain, l.finding));
    const holder = through ?? (src.byPathShape ? leads.find((l) => tailOfChain(g.chain, l.finding.chain) || sameHolder(g, l.finding)) : undefined);
    if (holder) {
      if (!found.has(g.className)) hold(holder, g.className, count);
      if (through) {
        if (!found.has(g.className)) holder.through.push(g);
        found.add(g.className);
        // The chain through an AsyncLocalStorage store explains the leak best (the holder is the
        // resource that captured it): show that one, with its fix.
        if (!hasAsyncContext(holder.finding.chain) && hasAsyncContext(g.chain)) {
          const f = holder.finding;
          holder.finding = { ...f, signature: g.signature, chain: g.chain, ...fixFields(suggestFix(f.className, g.chain)), evidence: [...f.evidence, `each holds ${article(g.className)} ${g.className} through an AsyncLocalStorage store it captured (${count} of them)`] };
        }
      }
      continue;
    }
    if (!mayLeadFinding(g)) continue; // listed under a finding, never one (group-filter.ts)
    found.add(g.className);
    leads.push({ finding: findingOf(x, count, src, intervals), className: g.className, group: g, held: new Map(), through: [] });
  }

  // A finding whose chain runs through a later finding's objects is held by them too (a queued job's
  // arrays, a tracing queue's items held through the RunTree), found first because it retains more:
  // one finding, the holder's. Not when its own chain reaches an AsyncLocalStorage store before that
  // holder: the store is what the leak is (a RunTree captured by a client's timer is not the client's).
  const absorbed = new Set<Lead>();
  for (const l of leads) {
    const holder = leads.find((h) => {
      if (h === l || absorbed.has(h) || !isProgramClass(h.finding.className)) return false;
      const at = l.finding.chain.findIndex((hop, i) => i > 0 && hop.node.className === h.finding.className);
      return at > 0 && !l.finding.chain.slice(0, at).some((hop) => hop.label?.kind === 'async-context');
    });
    if (!holder) continue;
    absorbed.add(l);
    hold(holder, l.finding.className, l.finding.count);
    for (const [name, count] of l.held) hold(holder, name, count);
  }

  // Carrier naming: a finding headed by a timer, a listener, a promise … is named after the program's
  // own objects held through it (carriers.ts).
  const result = leads
    .filter((l) => !absorbed.has(l))
    .map((l) => {
      const { finding, held, group } = nameAfterProgram(l.finding, l.through, l.held, src.rates, src.words.keptThrough);
      const shown = held && held.size > 0 ? { ...finding, alsoHeld: [...held].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${n} × ${name}`) } : finding;
      return { finding: shown, group: group ?? l.group, weight: grownRetained(l.group) };
    })
    // Largest first by what the lead's added objects retain (with ids, all it retains).
    .sort((a, b) => b.weight - a.weight);
  const findings = result.map((r) => r.finding);

  // A candidate of a class already found, or held through a finding's objects, is part of that finding.
  const candidates = open
    .filter(({ g }) => !found.has(g.className) && !findings.some((f) => f.className === g.className || heldThrough(g.chain, f)))
    .sort((a, b) => b.k.z - a.k.z)
    .map(({ g, row, k }): Candidate => {
      const inFlight = pilingLevels(g, row, src.work, src.params);
      return {
        className: g.className, signature: g.signature, count: addedObjects(g),
        born: g.born ?? k.kept.map(Math.round), retainedSize: g.retainedSize,
        z: k.z, zNeeded, moreIntervals: intervalsToSettle(k, zNeeded), chain: g.chain, ...(inFlight ? { inFlight } : {}),
      };
    });
  return { findings, leads: result.map((r) => r.group), candidates, tested, zNeeded };
}

/** A new finding led by the judged group: its kind (external share, a framework object), fix and evidence. */
function findingOf(x: Judged, count: number, src: GrowthSource, intervals: number): Finding {
  const { g, k, row, reads, after } = x;
  const few = fewText(g.className);
  const external = isExternal(g, src.params.externalShare);
  return {
    kind: external ? 'external' : few ? 'should-be-few' : 'leak',
    className: shownName(g),
    signature: g.signature,
    count,
    ...rates(count, src.rates, intervals),
    retainedSize: g.retainedSize,
    chain: g.chain,
    ...fixFields(suggestFix(g.className, g.chain)),
    evidence: [
      src.words.grew(g, count, k, row),
      ...(reads && after ? [holderReadText(reads, after)] : []),
      ...(external ? [externalText(g)] : []),
      ...(few ? [`a process needs only a handful of ${g.className} objects (${few}), yet the series kept adding more`] : []),
    ],
    ...(g.born ? { born: g.born } : {}),
    externalSize: g.externalSize,
  };
}

/**
 * The class a finding shows: a closure's class is `Function`, but its chain names it after the function
 * (`onChange()`), as the chains of the groups held through it do.
 */
export function shownName(g: Pick<GrowingGroup, 'className' | 'chain'>): string {
  const first = g.chain[0]?.node;
  return CLOSURE_CLASS.test(g.className) && first !== undefined && /\(\)$/.test(first.className) ? first.className : g.className;
}

const CLOSURE_CLASS = /^(Function|\(closure\))$/;

/** How far the kept rate is above none, in the model's units (kept-model.ts). */
export function zText(z: number): string {
  return `z = ${z >= 10 ? z.toFixed(0) : z.toFixed(1)}`;
}

/** Sorts a copy of `groups` by the bytes their added objects retain, largest first (stable). */
export function byGrownRetained(groups: readonly GrowingGroup[]): GrowingGroup[] {
  return [...groups].sort((a, b) => grownRetained(b) - grownRetained(a));
}
