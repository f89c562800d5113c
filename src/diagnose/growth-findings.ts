// Leak and should-be-few findings of the id diff (attach, report, diff with ids): survivor groups
// (growing-group.ts) put through the one finder (find-growth.ts) with what ids add — the class rows'
// births and live counts, the holders up each path, and the holders' reads after the last snapshot.
// This file only builds that input and words a survivor group's growth.

import type { ClassDiffRow, DiffResult } from '../analysis/diff/diff-series.js';
import { article } from './chain-labels.js';
import type { Candidate, DiagnoseInput, Finding, HolderReads } from './finding.js';
import { findGrowth, zText } from './find-growth.js';
import { firstMaxIdOf } from './fold-findings.js';
import { fromSurvivorGroup, type GrowingGroup } from './growing-group.js';
import type { Significance } from './growth-model.js';
import { holderToRead, readsWithin } from './holder-reads.js';
import { nativeWrapperClasses } from './judge-group.js';
import type { KeptRate } from './kept-model.js';
import type { ModelParams } from './model-params.js';

export interface GrowthContext {
  readonly input: DiagnoseInput;
  /** Work in each interval (growth-model.ts workPerInterval). */
  readonly work: readonly number[];
  readonly significance: Significance;
  readonly params: ModelParams;
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
  const reads = readsWithin(input.holderReads ?? [], ctx.params);
  const { findings, candidates, tested, zNeeded } = findGrowth({
    groups: (diff.survivors?.groups ?? []).map(fromSurvivorGroup),
    rows: new Map(diff.classes.map((r) => [r.name, r])),
    liveTotals: diff.snapshots.map((s) => s.totalSize),
    nativeWrappers: nativeWrapperClasses(diff.classes),
    work: ctx.work,
    significance: ctx.significance,
    params: ctx.params,
    holderReads: { of: holderReadsOf(reads, diff), count: reads.length },
    rates: input,
    classSums: { minMembersPerPath: ctx.params.minMembersPerPath },
    words: { grew, keptThrough },
  });
  return { findings, candidates, tested, zNeeded };
}

function grew(g: GrowingGroup, count: number, k: KeptRate, row: ClassDiffRow | undefined): string {
  const where = g.paths > 1 ? `along ${g.paths} retainer paths` : 'along one retainer path';
  const live = row ? `; ${g.className} alive: ${row.counts.join(' → ')}` : '';
  return `${count} ${g.className} born after the first snapshot are still alive ${where}, kept per interval: ${g.born!.join(', ')} (${zText(k.z)})${live}`;
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
  return `${count} ${g.className} born after the first snapshot are still alive, born per interval and kept: ${g.born!.join(', ')}, each held through ${article(carrier.className)} ${carrier.className} (${carrier.count} of them)`;
}
