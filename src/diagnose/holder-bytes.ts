// Growth kept as bytes, not as objects: a checkpointer that holds the same objects through the series
// (the same ids, none added, none collected) while what they retain rises in every interval with the
// work. Each checkpoint it stores copies a state that grows, so the count stays flat and the survivor
// model (kept-model.ts), which counts objects, sees nothing kept; its retained size says what it keeps.
// Only checkpointers (recognisers.ts HOLDER_OWNERS): other singletons that hold a running turn (its loop,
// its streams) retain the same growth and would name the turn, not what keeps it.

import type { ClassDiffRow, DiffResult } from '../analysis/diff/diff-series.js';
import type { ChainHop } from '../analysis/chain-description.js';
import type { Finding } from './finding.js';
import { CHECKPOINTER_ADVICE, fixFields } from './fixes.js';
import { growsWithWork, stepsOf, type Significance } from './growth-model.js';
import { rates } from './finding-rates.js';
import type { GrowthContext } from './growth-findings.js';
import { HOLDER_OWNERS } from './recognisers.js';
import { formatKib as kib } from '../units.js';

/** The same objects at every snapshot: none born after the first, none collected, as many at each. */
function sameObjects(row: ClassDiffRow): boolean {
  if (!row.newPerInterval || !row.deletedPerInterval) return false;
  return row.counts.every((c) => c === row.counts[0] && c > 0) && row.newPerInterval.every((n) => n === 0) && row.deletedPerInterval.every((n) => n === 0);
}

/**
 * Rose in every interval with the work (growth-model.ts growsWithWork), by more than a class total's
 * floor and, over the series, by z standard deviations of the heap's back-and-forth.
 */
function keepsMore(row: ClassDiffRow, work: readonly number[], sig: Significance, z: number, steadyShare: number): boolean {
  const steps = stepsOf(row.retainedSizes);
  const rise = row.retainedSizes[row.retainedSizes.length - 1]! - row.retainedSizes[0]!;
  return steps.length >= 2 && steps.every((s) => s > 0) && growsWithWork(steps, work, steadyShare)
    && rise >= sig.classFloorBytes && rise >= z * sig.noiseBytes * Math.sqrt(2 * steps.length);
}

/** A chain to the root through an object of the class, from any survivor group's chain that passes one. */
function chainThrough(diff: DiffResult, className: string): readonly ChainHop[] {
  for (const g of diff.survivors?.groups ?? []) {
    const at = g.chain.findIndex((h) => h.node.className === className);
    if (at >= 0) return g.chain.slice(at);
  }
  return [];
}

/** Checkpointers whose retained size rose in every interval while they held the same objects: leak findings. */
export function growingCheckpointers(ctx: GrowthContext, z: number): Finding[] {
  const { diff } = ctx.input;
  if (diff.mode !== 'ids' || !diff.sameProcess || diff.snapshots.length < 3) return [];
  const n = diff.snapshots.length;
  return diff.classes
    .filter((row) => HOLDER_OWNERS.checkpointer.test(row.name) && sameObjects(row) && keepsMore(row, ctx.work, ctx.significance, z, ctx.params.steadyShare))
    .map((row): Finding => {
      const sizes = row.retainedSizes.map(kib).join(' → ');
      const chain = chainThrough(diff, row.name);
      const id = chain[0] ? ` @${chain[0].node.id}` : '';
      return {
        kind: 'leak',
        className: row.name,
        signature: null,
        count: row.counts[n - 1]!,
        ...rates(0, ctx.input, n - 1),
        retainedSize: row.retainedSizes[n - 1]!,
        chain,
        ...fixFields({
          why: `the checkpointer ${row.name}${id} holds the same ${row.counts[0]} object${row.counts[0] === 1 ? '' : 's'} through the series while what it retains rose in every interval (${sizes}): each checkpoint it keeps copies a state that grows`,
          action: CHECKPOINTER_ADVICE,
        }),
        evidence: [`${row.name}${id}: ${row.counts.join(' → ')} object(s), none added or collected, retaining ${sizes}: it keeps more bytes in every interval with the work, not more objects`],
      };
    });
}
