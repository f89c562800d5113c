// attach's default capture: three snapshots, then one more while the diagnosis is `inconclusive`
// (kept-model.ts: a candidate neither ruled in nor out), up to --max-snapshots and --max-time.
// `--snapshots N` takes exactly N. Each extra snapshot costs the target one more pause; between them
// leakhunt analyses what it has, so its own memory is the analysis's, not the capture's.

import { diffSnapshotFiles } from '../../analysis/diff/diff-series.js';
import type { CapturedSnapshot } from '../../attach/capture.js';
import type { MemorySample } from '../../attach/memory-sampler.js';
import { labelChain } from '../../diagnose/chain-labels.js';
import { diagnoseCapture } from '../../diagnose/diagnose-capture.js';
import { UsageError } from '../../errors.js';
import { parseDuration } from '../parse-options.js';
import { DIAGNOSIS_GROUPS } from './diff.js';

/** Snapshots the default capture starts with: the fewest that show both a kept rate and in-flight work. */
export const FIRST_SNAPSHOTS = 3;
/** The most the default capture takes unless --max-snapshots says otherwise. */
export const DEFAULT_MAX_SNAPSHOTS = 6;

export interface SettleFlags {
  snapshots?: string;
  maxSnapshots?: string;
  maxTime?: string;
}

export interface SeriesPlan {
  /** Exactly this many (`--snapshots`), or the most the default capture takes. */
  readonly most: number;
  /** The default capture: settle from FIRST_SNAPSHOTS on. */
  readonly adaptive: boolean;
  readonly maxTimeMs?: number;
}

function parseCount(flag: string, value: string, least: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < least || n > 1000) throw new UsageError(`${flag} must be an integer from ${least}${least === 2 ? ' (a diff needs two; one: `leakhunt snapshot`)' : ''}, got "${value}"`);
  return n;
}

export function seriesPlanOf(flags: SettleFlags): SeriesPlan {
  if (flags.snapshots !== undefined) {
    if (flags.maxSnapshots !== undefined || flags.maxTime !== undefined) throw new UsageError('--snapshots takes exactly that many: --max-snapshots and --max-time apply only without it');
    return { most: parseCount('--snapshots', flags.snapshots, 2), adaptive: false };
  }
  const most = flags.maxSnapshots === undefined ? DEFAULT_MAX_SNAPSHOTS : parseCount('--max-snapshots', flags.maxSnapshots, FIRST_SNAPSHOTS);
  return { most, adaptive: true, ...(flags.maxTime === undefined ? {} : { maxTimeMs: parseDuration('--max-time', flags.maxTime) }) };
}

/** The plan's words for the series' length (the connected line says what each snapshot pauses). */
export function seriesPlanText(plan: SeriesPlan): string {
  if (!plan.adaptive) return `${plan.most} snapshots`;
  const budget = plan.maxTimeMs === undefined ? '' : `, none started after ${Math.round(plan.maxTimeMs / 1000)} s`;
  return `${FIRST_SNAPSHOTS} snapshots (up to ${plan.most} while the verdict is unsettled${budget})`;
}

/** captureSeries's `settle` for the default capture: another snapshot while the diagnosis is inconclusive. */
export function settleOption(plan: SeriesPlan, samples: () => readonly MemorySample[], startedAt: number) {
  if (!plan.adaptive) return {};
  return {
    settle: {
      from: FIRST_SNAPSHOTS,
      ...(plan.maxTimeMs === undefined ? {} : { deadline: startedAt + plan.maxTimeMs }),
      moreNeeded: async (taken: readonly CapturedSnapshot[]): Promise<boolean> => {
        const diff = await diffSnapshotFiles(taken.map((s) => s.file), { groups: DIAGNOSIS_GROUPS, labelChain });
        return diagnoseCapture(diff, taken, samples(), undefined).verdict === 'inconclusive';
      },
    },
  };
}
