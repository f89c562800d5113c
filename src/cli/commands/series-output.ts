// The result of a captured series, built in one place for `attach` (right after its capture), `report`
// (again, from the directory attach left) and the MCP server's `capture` tool: diff's result, each
// snapshot's capture facts matched to its diff entry by file, the diagnosis and the gates.

import type { DiffResult } from '../../analysis/diff/diff-series.js';
import type { CapturedSnapshot } from '../../attach/capture.js';
import type { MemorySample } from '../../attach/memory-sampler.js';
import { diagnoseCapture } from '../../diagnose/diagnose-capture.js';
import { verdictFields } from '../../diagnose/diagnose.js';
import type { Diagnosis } from '../../diagnose/finding.js';
import { evaluateGates, type GateLimits } from '../../diagnose/gates.js';
import type { AttachOutput } from '../../report/attach-report.js';

export interface SeriesInput {
  readonly diff: DiffResult;
  /** The snapshots as captured (or as read back from their JSON), any order; extra fields are dropped. */
  readonly kept: readonly (CapturedSnapshot & { readonly pid?: number; readonly nodeVersion?: string })[];
  readonly samples: readonly MemorySample[];
  readonly unitCount?: AttachOutput['capture']['unitCount'];
  readonly target: AttachOutput['target'];
  readonly capture: AttachOutput['capture'];
  /** Gates already evaluated (report: those of the attach run), else evaluated here with `limits`. */
  readonly gates?: AttachOutput['gates'];
  readonly limits?: GateLimits;
  /** Warnings beyond diff's own (capture, units, an earlier run's), each listed once. */
  readonly warnings?: readonly string[];
  readonly leakhunt: AttachOutput['leakhunt'];
}

export function buildSeriesOutput(input: SeriesInput): { output: AttachOutput; diagnosis: Diagnosis } {
  const { diff, kept } = input;
  const diagnosis = diagnoseCapture(diff, kept, input.samples, input.unitCount?.count, undefined, input.capture.holderReads);
  const byFile = new Map(kept.map((s) => [s.file, s]));
  const warnings = [...diff.warnings];
  for (const w of input.warnings ?? []) if (!warnings.includes(w)) warnings.push(w);
  const output: AttachOutput = {
    ...diff,
    gates: input.gates ?? evaluateGates(diff, input.limits ?? {}),
    snapshots: diff.snapshots.map((info) => {
      const { file: _file, pid: _pid, nodeVersion: _nodeVersion, ...captured } = byFile.get(info.file) ?? { file: info.file };
      return { ...info, ...captured };
    }),
    target: input.target,
    samples: input.samples,
    capture: input.capture,
    ...verdictFields(diagnosis),
    warnings,
    leakhunt: input.leakhunt,
  };
  return { output, diagnosis };
}
