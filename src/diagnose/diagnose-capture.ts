// The diagnosis of a captured series: what `attach` runs once its capture is in, and `leakhunt report`
// runs again from the directory it left. The pauses and the times come from the snapshots, the work per
// interval from the counter read with each (matched to the diff's snapshots by file), per-minute rates
// over the time from the first snapshot to the last.

import type { DiffResult } from '../analysis/diff/diff-series.js';
import type { MemorySample } from './memory-trend.js';
import { diagnose } from './diagnose.js';
import type { Diagnosis } from './finding.js';
import type { HolderReads } from './finding.js';
import type { ModelParams } from './model-params.js';

/** What the diagnosis needs of each captured snapshot (attach/capture.ts writes it beside the file). */
export interface CapturedMoment {
  readonly file: string;
  /** ISO time the snapshot was asked for. */
  readonly takenAt: string;
  /** About how long the target was paused for it. */
  readonly durationMs: number;
  /** The work counter just before it (attach --counter). */
  readonly counter?: number;
}

export function diagnoseCapture(
  diff: DiffResult, kept: readonly CapturedMoment[], samples: readonly MemorySample[], unitCount: number | undefined,
  params?: ModelParams, holderReads?: readonly HolderReads[],
): Diagnosis {
  const elapsedMs = kept.length > 0 ? Date.parse(kept[kept.length - 1]!.takenAt) - Date.parse(kept[0]!.takenAt) : 0;
  const byFile = new Map(kept.map((s) => [s.file, s]));
  const series = diff.snapshots.map((info) => byFile.get(info.file));
  return diagnose({
    diff,
    samples,
    timelineHasSnapshots: true,
    pauses: kept.map((s) => ({ startMs: Date.parse(s.takenAt), endMs: Date.parse(s.takenAt) + s.durationMs })),
    unitsAt: series.map((s) => s?.counter),
    ...(series.every((s) => s !== undefined) ? { timesAt: series.map((s) => Date.parse(s!.takenAt)) } : {}),
    ...(elapsedMs > 0 ? { elapsedMs } : {}),
    ...(unitCount ? { unitCount } : {}),
    ...(params ? { params } : {}),
    ...(holderReads && holderReads.length > 0 ? { holderReads } : {}),
  });
}
