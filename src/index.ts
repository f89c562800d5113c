// The programmatic API: what the CLI calls, usable from scripts and tests.

import { HeapAnalysis, type AnalysisPhase } from './analysis/heap-analysis.js';
import { summarizeSnapshot, type SnapshotSummary, type SummarizeOptions } from './analysis/summarize-snapshot.js';
import { parseSnapshotFile } from './snapshot/parse.js';
import { labelChain } from './diagnose/chain-labels.js';
import type { Finding, Verdict } from './diagnose/finding.js';
import { findCapturedStores, findSuspects, inFlightNote } from './diagnose/suspects.js';

export { parseSnapshotFile, parseSnapshotChunks, type ParseOptions } from './snapshot/parse.js';
export { HeapGraph } from './snapshot/heap-graph.js';
export { HeapAnalysis, analyzeHeap, type AnalysisPhase } from './analysis/heap-analysis.js';
export { summarizeSnapshot, type SnapshotSummary, type ClassRow, type DominatorRow, type ClassSortKey } from './analysis/summarize-snapshot.js';
export { diffSnapshotFiles, type DiffResult, type DiffOptions } from './analysis/diff/diff-series.js';
export { diagnose } from './diagnose/diagnose.js';
export type { Diagnosis, Finding, Verdict } from './diagnose/finding.js';
export { labelChain } from './diagnose/chain-labels.js';
export { LeakhuntError, SnapshotFormatError, UsageError, AttachError, ExitCode } from './errors.js';

export interface AnalyzeFileOptions extends SummarizeOptions {
  readonly onBytes?: (read: number, total: number) => void;
  readonly onPhase?: (phase: AnalysisPhase) => void;
}

export interface AnalyzeFileResult extends SnapshotSummary {
  readonly verdict: Verdict;
  readonly evidence: readonly string[];
  readonly findings: readonly Finding[];
}

/** `leakhunt analyze` as a function: parse, analyse, summarise, and look for suspicious retention. */
export async function analyzeSnapshotFile(path: string, options: AnalyzeFileOptions): Promise<AnalyzeFileResult> {
  const graph = await parseSnapshotFile(path, { onProgress: options.onBytes });
  const analysis = new HeapAnalysis(graph, { onPhase: options.onPhase });
  // The suspects' pass over the edges needs no dominators: with those on the second thread, it runs meanwhile.
  const capturedStores = analysis.dominatorsUnderWay ? findCapturedStores(analysis) : undefined;
  const summary = summarizeSnapshot(analysis, options);
  options.onPhase?.('suspects' as AnalysisPhase);
  const { findings, heldInFlight } = findSuspects(analysis, labelChain, capturedStores);
  const verdict: Verdict = findings.length > 0 ? 'suspect' : 'none';
  const evidence = findings.length > 0
    ? [findings[0]!.evidence[0]!, 'one snapshot shows what is held, not what grows: confirm with `leakhunt diff` or `leakhunt attach`']
    : heldInFlight > 0
      ? [`nothing suspicious in one snapshot: no AsyncLocalStorage stores or duplicated singletons held beyond the turns in flight${inFlightNote(heldInFlight, false)}`]
      : ['nothing suspicious in one snapshot (no AsyncLocalStorage stores held by async resources, no duplicated singletons)'];
  return { ...summary, verdict, evidence, findings };
}
