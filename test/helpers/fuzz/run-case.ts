// One fuzz case run in-process through the engine, as the CLI would run it (parse, analyse, diagnose,
// build the report and render JSON and Markdown), without spawning a process. The outcome says whether
// the engine answered, refused the file the way a user is owed (a SnapshotFormatError with a byte offset
// inside the file: exit 3), or failed any other way (a crash the CLI would turn into exit 70).

import { statSync } from 'node:fs';
import { analyzeSnapshotFile } from '../../../src/index.js';
import { parseSnapshotFile } from '../../../src/snapshot/parse.js';
import { HeapAnalysis } from '../../../src/analysis/heap-analysis.js';
import { findRetainers } from '../../../src/analysis/find-retainers.js';
import { diffSnapshotFiles } from '../../../src/analysis/diff/diff-series.js';
import { labelChain } from '../../../src/diagnose/chain-labels.js';
import { diagnose } from '../../../src/diagnose/diagnose.js';
import { evaluateGates } from '../../../src/diagnose/gates.js';
import { buildAnalyzeDocument } from '../../../src/report/analyze-report.js';
import { buildDiffDocument } from '../../../src/report/diff-report.js';
import { buildRetainersDocument } from '../../../src/report/retainers-report.js';
import { renderMarkdown } from '../../../src/report/markdown.js';
import { SnapshotFormatError } from '../../../src/errors.js';

export type CaseCommand = 'analyze' | 'retainers' | 'diff' | 'threads';

export interface CaseRequest {
  readonly command: CaseCommand;
  readonly path: string;
  /** diff: the unmutated base, compared with the case. */
  readonly basePath?: string;
  /** retainers: the class asked for. */
  readonly className?: string;
}

export type CaseOutcome =
  | { readonly outcome: 'answered' }
  | { readonly outcome: 'not-found' }
  | { readonly outcome: 'refused'; readonly byteOffset: number; readonly reason: string }
  | { readonly outcome: 'failed'; readonly problem: string; readonly detail: string };

export async function runCase(req: CaseRequest): Promise<CaseOutcome> {
  try {
    switch (req.command) {
      case 'analyze': {
        const summary = await analyzeSnapshotFile(req.path, { top: 20, sort: 'retained' });
        JSON.stringify(summary);
        renderMarkdown(buildAnalyzeDocument(summary, req.path, 'retained', summary));
        return { outcome: 'answered' };
      }
      case 'retainers': {
        const analysis = new HeapAnalysis(await parseSnapshotFile(req.path));
        const lookup = findRetainers(analysis, { className: req.className ?? 'Object' }, { paths: 5, depth: 64, showStrings: false, labelChain });
        if (!lookup.found) return { outcome: 'not-found' };
        JSON.stringify(lookup.result);
        renderMarkdown(buildRetainersDocument(lookup.result, req.path));
        return { outcome: 'answered' };
      }
      case 'diff': {
        const result = await diffSnapshotFiles([req.basePath!, req.path], { groups: 50, labelChain });
        const diagnosis = diagnose({ diff: result });
        const gates = evaluateGates(result, {});
        JSON.stringify({ ...result, diagnosis, gates });
        renderMarkdown(buildDiffDocument(result, gates, { top: 20, groups: 10 }, diagnosis));
        return { outcome: 'answered' };
      }
      case 'threads':
        return await compareThreads(req.path);
    }
  } catch (e) {
    return classify(e, req.path);
  }
}

function classify(e: unknown, path: string): CaseOutcome {
  if (e instanceof SnapshotFormatError) {
    const size = statSync(path).size;
    if (e.byteOffset === undefined || !(e.byteOffset >= 0 && e.byteOffset <= size)) {
      return { outcome: 'failed', problem: 'refused without a byte offset in the file', detail: `offset ${e.byteOffset}, file ${size} bytes: ${e.reason}` };
    }
    return { outcome: 'refused', byteOffset: e.byteOffset, reason: e.reason };
  }
  const err = e instanceof Error ? e : new Error(String(e));
  return { outcome: 'failed', problem: `${err.name}: ${firstFrame(err)}`, detail: err.stack ?? err.message };
}

/** The first stack frame in leakhunt's own code: the crash's class (message texts vary per input). */
function firstFrame(err: Error): string {
  const frames = (err.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
  const own = frames.find((l) => /\/dist\/src\//.test(l)) ?? frames[0] ?? '';
  return own.trim().replace(/^at /, '').replace(/\(?file:\/\/.*\/dist\//, '').replace(/:\d+\)?$/, '');
}

/** The one-thread and two-thread parses must agree: the same graph size, or the same error at the same byte. */
async function compareThreads(path: string): Promise<CaseOutcome> {
  const parse = async (threads: 1 | 2): Promise<CaseOutcome & { nodes?: number }> => {
    try {
      const g = await parseSnapshotFile(path, { threads });
      return { outcome: 'answered', nodes: g.nodeCount * 1e9 + g.edgeCount };
    } catch (e) {
      return classify(e, path);
    }
  };
  const one = await parse(1);
  const two = await parse(2);
  if (one.outcome === 'failed') return one;
  if (two.outcome === 'failed') return two;
  const same = one.outcome === 'answered'
    ? two.outcome === 'answered' && two.nodes === one.nodes
    : one.outcome === 'refused' && two.outcome === 'refused' && two.byteOffset === one.byteOffset && two.reason === one.reason;
  if (!same) {
    return { outcome: 'failed', problem: 'one and two parse threads disagree', detail: `${JSON.stringify(one)} vs ${JSON.stringify(two)}` };
  }
  return one.outcome === 'answered' ? { outcome: 'answered' } : one;
}
