// `leakhunt retainers <file> (--class NAME | --id N)`: what keeps an object, or a class, alive.

import type { Command } from 'commander';
import { findRetainers, type RetainersResult, type RetainersTarget } from '../../analysis/find-retainers.js';
import { HeapAnalysis } from '../../analysis/heap-analysis.js';
import { parseSnapshotFile } from '../../snapshot/parse.js';
import { buildRetainersDocument } from '../../report/retainers-report.js';
import { labelChain } from '../../diagnose/chain-labels.js';
import { UsageError } from '../../errors.js';
import { parseTop } from '../parse-options.js';
import { createProgress, wantsProgress, type Progress } from '../progress.js';
import { formatOf, writeResult } from '../output.js';
import type { GlobalOptions } from '../global-options.js';

interface RetainersFlags {
  class?: string;
  id?: string;
  paths: string;
  depth: string;
  showStrings?: boolean;
  json?: boolean;
  markdown?: boolean;
  progress?: boolean;
}

function targetOf(flags: RetainersFlags): RetainersTarget {
  if ((flags.class === undefined) === (flags.id === undefined)) {
    throw new UsageError('retainers needs exactly one of --class NAME or --id N');
  }
  if (flags.class !== undefined) return { className: flags.class };
  const id = Number(String(flags.id).replace(/^@/, ''));
  if (!Number.isInteger(id) || id < 0) throw new UsageError(`--id must be a V8 object id such as 4411 or @4411, got "${flags.id}"`);
  return { id };
}

/** `retainers`' work, shared with the MCP server: the chains of `target`, or a UsageError naming what is not there. */
export async function runRetainers(
  file: string, target: RetainersTarget, o: { paths: number; depth: number; showStrings: boolean; progress?: Progress },
): Promise<RetainersResult> {
  const graph = await parseSnapshotFile(file, { onProgress: (read, total) => o.progress?.bytes('reading', read, total) });
  const analysis = new HeapAnalysis(graph, { onPhase: (phase) => o.progress?.phase(phase) });
  const lookup = findRetainers(analysis, target, { paths: o.paths, depth: o.depth, showStrings: o.showStrings, labelChain });
  o.progress?.done();
  if (!lookup.found) {
    const what = 'id' in target ? `no object @${target.id}` : `no objects of class "${target.className}"`;
    const hint = lookup.suggestions.length ? ` (did you mean ${lookup.suggestions.map((s) => `"${s}"`).join(', ')}?)` : '';
    throw new UsageError(`${file}: ${what} in this snapshot${hint}`);
  }
  return lookup.result;
}

export function registerRetainers(program: Command, globals: () => GlobalOptions): void {
  program
    .command('retainers')
    .argument('<file>', 'a .heapsnapshot file')
    .description('show what keeps an object (--id) or every instance of a class (--class) alive, one hop a line')
    .option('--class <name>', 'every instance of this class, grouped by retainer path')
    .option('--id <n>', 'one object, by the V8 id DevTools shows as @n')
    .option('--paths <k>', 'how many chains (or path groups) to show', '5')
    .option('--depth <d>', 'longest chain to search, in hops', '64')
    .option('--show-strings', 'print string contents (they may hold prompts and keys; off by default)')
    .option('--json', 'print the result as JSON (schemaVersion 1)')
    .option('--markdown', 'print Markdown')
    .option('--progress', 'show progress on stderr even with --json')
    .option('--no-progress', 'never show progress')
    .addHelpText('after', `
Examples:
  $ leakhunt retainers prod.heapsnapshot --class CompiledStateGraph
  $ leakhunt retainers prod.heapsnapshot --id 4411 --paths 3
  $ leakhunt retainers prod.heapsnapshot --class RunTree --json | jq '.paths[0].chain'`)
    .action(async (file: string, flags: RetainersFlags, cmd: Command) => {
      const target = targetOf(flags);
      const paths = parseTop(flags.paths, '--paths');
      const depth = parseTop(flags.depth, '--depth');
      const format = formatOf(flags);
      const progress = createProgress(wantsProgress(cmd, flags.progress, format === 'text'));
      const result = await runRetainers(file, target, { paths, depth, showStrings: flags.showStrings === true, progress });
      await writeResult(format, result, () => buildRetainersDocument(result, file), globals().noColor);
    });
}
