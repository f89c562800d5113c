// Leak findings from a diff without ids (DiffResult.mode === 'signatures': one process across inspector
// sessions, or instances of one service): retainer paths whose live objects kept growing.
//
// signatureGrowthFindings(diff, rates) → { findings, candidates }: findings of kind 'leak', or 'external'
// when half or more of what the group retains is ArrayBuffer backing stores, largest first; nothing
// unless diff.mode is 'signatures'. Each: the path group's class and signature, count = objects added
// first to last less what may have moved from its class's other paths, retainedSize = what the whole
// group retains in the newest snapshot (objects are not matched by id), its chain, a fix, alsoHeld.
//
// The groups are put through the one finder (find-growth.ts): the same filter, judge, fold, carrier
// naming and external share as with ids. What this mode adds: the judge reads live counts (kept-model.ts
// keptRateOfCounts: no births known; docs/diagnosis-model.md, "Without ids"), the fold also goes by path
// shape (path-shape.ts), and with two snapshots what passes is named and diagnose.ts makes it a candidate.

import type { DiffResult } from '../analysis/diff/diff-series.js';
import { article } from './chain-labels.js';
import type { Candidate, Finding } from './finding.js';
import { byGrownRetained, findGrowth, zText } from './find-growth.js';
import { fromSignatureGroup, type GrowingGroup } from './growing-group.js';
import { stepsOf, type Significance } from './growth-model.js';
import { nativeWrapperClasses } from './judge-group.js';
import type { KeptRate } from './kept-model.js';
import { DEFAULT_MODEL, type ModelParams } from './model-params.js';

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
  // Largest growth first: the fold keeps the first group of a cause as its finding.
  const groups = byGrownRetained(diff.signatures.groups.map(fromSignatureGroup).filter((g) => g.chain.length > 0));
  const grew = (g: GrowingGroup, count: number, k: KeptRate): string => {
    const gained = g.counts[n - 1]! - g.counts[0]!;
    return `${count} more ${g.className} alive along one retainer path (${g.counts.join(' → ')})${everyInterval(g)}${count < gained ? ` (the path gained ${gained}; its class's other paths lost ${g.movedElsewhere}, which may have moved here)` : ''}; compared by path, not object by object (the object ids of these snapshots do not line up)${n >= 3 ? `; ${zText(k.z)}` : ''}`;
  };
  const found = findGrowth({
    groups,
    nativeWrappers: nativeWrapperClasses(diff.classes),
    work: rates.work ?? new Array<number>(n - 1).fill(1),
    significance: rates.significance,
    params,
    rates,
    words: { grew, keptThrough },
    byPathShape: true,
    // With two points nothing is settled: what passes the level is named (diagnose.ts makes it a candidate).
    twoPoints: n < 3,
  });
  return { findings: found.findings, candidates: n < 3 ? [] : found.candidates };
}

/** ", more in every interval" when every step of the count rose (three snapshots or more). */
function everyInterval(g: GrowingGroup): string {
  return g.counts.length >= 3 && stepsOf(g.counts).every((s) => s > 0) ? ', more in every interval' : '';
}

/** What a path kept through the carrier heading its finding, as live counts tell it. */
function keptThrough(g: GrowingGroup, count: number, carrier: Finding): string {
  return `${count} more ${g.className} alive along one retainer path (${g.counts.join(' → ')}), each held through ${article(carrier.className)} ${carrier.className} (${carrier.count} more of them)${everyInterval(g)}; compared by path, not object by object (the object ids of these snapshots do not line up)`;
}
