// The programmatic API: what the CLI calls, usable from scripts and tests.

import { HeapAnalysis, type AnalysisPhase } from './analysis/heap-analysis.js';
import { summarizeSnapshot, type SnapshotSummary, type SummarizeOptions } from './analysis/summarize-snapshot.js';
import { parseSnapshotFile } from './snapshot/parse.js';

export { parseSnapshotFile, parseSnapshotChunks, type ParseOptions } from './snapshot/parse.js';
export { HeapGraph } from './snapshot/heap-graph.js';
export { HeapAnalysis, analyzeHeap, type AnalysisPhase } from './analysis/heap-analysis.js';
export { summarizeSnapshot, type SnapshotSummary, type ClassRow, type DominatorRow, type ClassSortKey } from './analysis/summarize-snapshot.js';
export { LeakhuntError, SnapshotFormatError, UsageError, AttachError, ExitCode } from './errors.js';

export interface AnalyzeFileOptions extends SummarizeOptions {
  readonly onBytes?: (read: number, total: number) => void;
  readonly onPhase?: (phase: AnalysisPhase) => void;
}

/** `leakhunt analyze` as a function: parse, analyse, summarise. */
export async function analyzeSnapshotFile(path: string, options: AnalyzeFileOptions): Promise<SnapshotSummary> {
  const graph = await parseSnapshotFile(path, { onProgress: options.onBytes });
  const analysis = new HeapAnalysis(graph, { onPhase: options.onPhase });
  return summarizeSnapshot(analysis, options);
}
