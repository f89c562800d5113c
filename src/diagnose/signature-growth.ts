// Leak findings from a diff without ids (DiffResult.mode === 'signatures': one process across inspector
// sessions, or instances of one service): retainer paths whose live objects kept growing.
//
// signatureGrowthFindings(diff, rates) → { findings, candidates }: findings of kind 'leak', or 'external'
// when half or more of what the group retains is ArrayBuffer backing stores, largest first; nothing
// unless diff.mode is 'signatures'. Each: the path group's class and signature, count = objects added
// first to last less what may have moved from its class's other paths, retainedSize = what the whole
// group retains in the newest snapshot (objects are not matched by id), its chain, a fix, alsoHeld.
//
// Which groups count and lead: group-filter.ts. Whether a group grows: the one judge (judge-group.ts)
// on live counts (kept-model.ts keptRateOfCounts: no births known, each step's noise that of its two
// readings; docs/diagnosis-model.md, "Without ids"), with the part its added objects retain against
// the class floor. With two snapshots what passes is named and diagnose.ts makes it a candidate.
// The fold is this mode's own (docs/diagnosis-model.md says why): a group whose path passes through
// an earlier finding's class, hangs off the same holder (a Map's keys beside its values), or whose
// chain is a tail of a finding's (it holds that finding's objects) is listed under it; a finding headed
// by a carrier (carriers.ts) is named after the program group through it that grew most.

import type { ChainHop } from '../analysis/chain-description.js';
import type { DiffResult } from '../analysis/diff/diff-series.js';
import type { Candidate, Finding } from './finding.js';

import { fixFields, suggestFix } from './fixes.js';
import { addedObjects, fromSignatureGroup, type GrowingGroup } from './growing-group.js';
import { stepsOf, type Significance } from './growth-model.js';
import { judgeGroup, nativeWrapperClasses, scoreGroup } from './judge-group.js';
import { intervalsToSettle, leakZ } from './kept-model.js';
import { DEFAULT_MODEL, type ModelParams } from './model-params.js';
import { externalText, grownRetained, isExternal, nameAfterProgram } from './carriers.js';
import { rates as growthRates } from './finding-rates.js';
import { zText } from './growth-findings.js';
import { countsAsGrowth, mayLeadFinding } from './group-filter.js';

export interface GrowthRates {
  /** Time between the first and the last snapshot. */
  readonly elapsedMs?: number;
  /** Units of work (turns, requests) done between the first and the last snapshot. */
  readonly unitCount?: number;
  /** Work in each interval (growth-model.ts workPerInterval); one each when absent. */
  readonly work?: readonly number[];
  /** The floors (growth-model.ts significance). */
  readonly significance: Significance;
  /** The model's parameters; DEFAULT_MODEL when absent. */
  readonly params?: ModelParams;
}

export interface PathGrowth {
  readonly findings: Finding[];
  /** Paths the series can neither rule in nor out (three snapshots or more; with two, every finding is one). */
  readonly candidates: Candidate[];
}

export function signatureGrowthFindings(diff: DiffResult, rates: GrowthRates): PathGrowth {
  if (diff.mode !== 'signatures' || !diff.signatures) return { findings: [], candidates: [] };
  const n = diff.snapshots.length;
  const params = rates.params ?? DEFAULT_MODEL;
  const work = rates.work ?? new Array<number>(n - 1).fill(1);
  const findings: Finding[] = [];
  const held = new Map<Finding, Map<string, number>>();
  const through = new Map<Finding, GrowingGroup[]>();
  // The one filter and judge (group-filter.ts, judge-group.ts) on live counts: no births known.
  const nativeWrappers = nativeWrapperClasses(diff.classes);
  const scored = diff.signatures.groups.map(fromSignatureGroup).filter((g) => countsAsGrowth(g) && g.chain.length > 0).flatMap((g) => {
    const k = scoreGroup(g, undefined, work, rates.significance, nativeWrappers);
    return k ? [{ g, k }] : [];
  });
  const zNeeded = leakZ(scored.length, params.falseAlarm);
  const judged = scored.map((x) => ({ ...x, status: judgeGroup(x.k, x.g, undefined, zNeeded, params, work) }));
  // With two points nothing is settled: what passes the level is named (diagnose.ts makes it a candidate).
  const leaking = judged.filter((x) => x.status === 'leak' || (n < 3 && x.status === 'candidate'));
  leaking.sort((a, b) => grownRetained(b.g) - grownRetained(a.g));
  for (const { g, k } of leaking) {
    const passes = (f: Finding) => g.chain.slice(1).some((hop) => hop.node.className === f.className);
    const holder = findings.find((f) => passes(f) || holdsOnChain(g, f) || sameHolder(g, f));
    if (holder) {
      let list = held.get(holder);
      if (!list) held.set(holder, (list = new Map()));
      list.set(g.className, (list.get(g.className) ?? 0) + addedObjects(g));
      if (passes(holder)) through.set(holder, [...(through.get(holder) ?? []), g]);
      continue;
    }
    if (!mayLeadFinding(g)) continue; // listed under a finding, never one (group-filter.ts)
    const count = addedObjects(g);
    const gained = g.counts[n - 1]! - g.counts[0]!;
    const external = isExternal(g, params.externalShare);
    findings.push({
      kind: external ? 'external' : 'leak',
      className: g.className,
      signature: g.signature,
      count,
      ...growthRates(count, rates, n - 1),
      retainedSize: g.retainedSize,
      chain: g.chain,
      ...fixFields(suggestFix(g.className, g.chain)),
      evidence: [
        `${count} more ${g.className} alive along one retainer path (${g.counts.join(' → ')})${everyInterval(g)}${count < gained ? ` (the path gained ${gained}; its class's other paths lost ${g.movedElsewhere}, which may have moved here)` : ''}; compared by path, not object by object (the object ids of these snapshots do not line up)${n >= 3 ? `; ${zText(k.z)}` : ''}`,
        ...(external ? [externalText(g)] : []),
      ],
      externalSize: g.externalSize,
    });
  }
  const named = findings.map((f) => {
    const { finding, held: list } = nameAfterProgram(f, through.get(f) ?? [], held.get(f), rates, keptThrough);
    return list && list.size > 0 ? { ...finding, alsoHeld: [...list].sort((a, b) => b[1] - a[1]).map(([name, count]) => `${count} × ${name}`) } : finding;
  });
  // Candidates of three points or more: kept growth the level does not settle, not held through a finding.
  const candidates = n < 3 ? [] : judged
    .filter(({ g, status }) => status === 'candidate' && mayLeadFinding(g) && ![...findings, ...named].some((f) => f.className === g.className || g.chain.slice(1).some((hop) => hop.node.className === f.className)))
    .sort((a, b) => b.k.z - a.k.z)
    .map(({ g, k }): Candidate => ({ className: g.className, signature: g.signature, count: addedObjects(g), born: k.kept.map(Math.round), retainedSize: g.retainedSize, z: k.z, zNeeded, moreIntervals: intervalsToSettle(k, zNeeded), chain: g.chain }));
  return { findings: named, candidates };
}

/** ", more in every interval" when every step of the count rose (three snapshots or more). */
function everyInterval(g: GrowingGroup): string {
  return g.counts.length >= 3 && stepsOf(g.counts).every((s) => s > 0) ? ', more in every interval' : '';
}

/** What a path kept through the carrier heading its finding, as live counts tell it. */
function keptThrough(g: GrowingGroup, count: number, carrier: Finding): string {
  return `${count} more ${g.className} alive along one retainer path (${g.counts.join(' → ')}), each held through a ${carrier.className} (${carrier.count} more of them)${everyInterval(g)}; compared by path, not object by object (the object ids of these snapshots do not line up)`;
}

/** Hops compared when a group's chain is matched inside a finding's chain. */
const MATCHED_HOPS = 3;

/**
 * The group's objects hold the finding's: its chain is a tail of the finding's chain (same classes, same
 * edges but element indices, for MATCHED_HOPS hops or to the root). The closures of zoo/closure-array
 * each hold one DraftDocument; ranked first, the DraftDocument is the finding and the closures its
 * carriers.
 */
function holdsOnChain(g: GrowingGroup, f: Finding): boolean {
  const own = g.chain;
  for (let i = 1; i < f.chain.length; i++) {
    let j = 0;
    while (j < MATCHED_HOPS && j < own.length && i + j < f.chain.length && sameHop(own[j]!, f.chain[i + j]!)) j++;
    if (j === MATCHED_HOPS || (j > 0 && (j === own.length || i + j === f.chain.length))) return true;
  }
  return false;
}

function sameHop(a: ChainHop, b: ChainHop): boolean {
  if (a.node.className !== b.node.className) return false;
  if (a.edge === null || b.edge === null) return a.edge === b.edge;
  return a.edge.type === b.edge.type && (a.edge.type === 'element' || a.edge.type === 'hidden' || a.edge.name === b.edge.name);
}

/** The same path from the holder up: siblings in one container (a signature is its class, then the holder's path). */
function sameHolder(g: GrowingGroup, f: Finding): boolean {
  if (f.signature === null || !g.signature.startsWith(g.className) || !f.signature.startsWith(f.className)) return false;
  return g.signature.slice(g.className.length) === f.signature.slice(f.className.length);
}
