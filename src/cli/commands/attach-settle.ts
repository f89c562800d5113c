// attach's default capture: three snapshots, then one more while the diagnosis is `inconclusive`
// (kept-model.ts: a candidate neither ruled in nor out), up to --max-snapshots and --max-time.
// `--snapshots N` takes exactly N. Each extra snapshot costs the target one more pause; between them
// leakhunt analyses what it has, so its own memory is the analysis's, not the capture's.

import { diffSnapshotFiles, type DiffResult } from '../../analysis/diff/diff-series.js';
import type { CapturedSnapshot } from '../../attach/capture.js';
import type { HolderToRead } from '../../attach/holder-reads.js';
import type { MemorySample } from '../../attach/memory-sampler.js';
import { labelChain } from '../../diagnose/chain-labels.js';
import { diagnoseCapture } from '../../diagnose/diagnose-capture.js';
import type { Diagnosis } from '../../diagnose/finding.js';
import { firstMaxIdOf } from '../../diagnose/fold-findings.js';
import { holderToRead } from '../../diagnose/holder-reads.js';
import { DEFAULT_MODEL, type ModelParams } from '../../diagnose/model-params.js';
import { UsageError } from '../../errors.js';
import { parseDuration } from '../parse-options.js';

/** The model while another snapshot can still be taken: a pause that may be between bursts is not settled. */
const SETTLING: ModelParams = { ...DEFAULT_MODEL, settling: true };

/** The holders of an unsettled diagnosis's candidates, the first few, each once. */
function holdersToRead(diff: DiffResult, d: Diagnosis): HolderToRead[] {
  const firstMaxId = firstMaxIdOf(diff);
  if (d.verdict !== 'inconclusive' || firstMaxId === undefined) return [];
  const out: HolderToRead[] = [];
  for (const c of d.candidates ?? []) {
    const hop = holderToRead(c.chain, firstMaxId);
    if (hop && !out.some((h) => h.holderId === hop.node.id)) out.push({ holderId: hop.node.id, className: hop.node.className });
    if (out.length === DEFAULT_MODEL.mostHoldersRead) break;
  }
  return out;
}

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

/** The plan's words for the series' length. */
export function seriesPlanText(plan: SeriesPlan, brief = false): string {
  if (!plan.adaptive) return `${plan.most} snapshots`;
  if (brief) return `${FIRST_SNAPSHOTS}–${plan.most} snapshots`;
  const budget = plan.maxTimeMs === undefined ? '' : `, none started after ${Math.round(plan.maxTimeMs / 1000)} s`;
  return `${FIRST_SNAPSHOTS} snapshots (up to ${plan.most} while the verdict is unsettled${budget}, then up to ${DEFAULT_MODEL.holderReadIntervals} intervals reading the candidates' holders, no pause)`;
}

/**
 * The default capture's judge: captureSeries's `settle` takes another snapshot while the diagnosis of
 * those taken is inconclusive. Its last analysis is kept: when the capture ends on it, attach reads it
 * instead of analysing the same files again.
 */
export function createSettler(plan: SeriesPlan, samples: () => readonly MemorySample[], groups: number) {
  let last: { files: string; diff: DiffResult; diagnosis: Diagnosis } | undefined;
  const option = !plan.adaptive ? {} : {
    settle: {
      from: FIRST_SNAPSHOTS,
      ...(plan.maxTimeMs === undefined ? {} : { deadline: Date.now() + plan.maxTimeMs }),
      moreNeeded: async (taken: readonly CapturedSnapshot[]): Promise<boolean> => {
        const files = taken.map((s) => s.file);
        const diff = await diffSnapshotFiles(files, { groups, labelChain });
        const diagnosis = diagnoseCapture(diff, taken, samples(), undefined, SETTLING);
        last = { files: files.join('\0'), diff, diagnosis };
        return diagnosis.verdict === 'inconclusive';
      },
      // After the snapshots, the candidates' holders are read for the model's intervals (holder-reads.ts;
      // docs/diagnosis-model.md says why four).
      afterBudget: { holders: () => (last ? holdersToRead(last.diff, last.diagnosis) : []), intervals: DEFAULT_MODEL.holderReadIntervals },
    },
  };
  return {
    option,
    /** The diff of exactly these files, when the last question was asked of them. */
    diffOf: (files: readonly string[]): DiffResult | undefined => (last?.files === files.join('\0') ? last.diff : undefined),
  };
}
