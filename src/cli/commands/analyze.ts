// `leakhunt analyze <file>`: one-off triage of one snapshot.

import type { Command } from 'commander';
import { analyzeSnapshotFile } from '../../index.js';
import { buildAnalyzeDocument } from '../../report/analyze-report.js';
import { buildAnalyzeHtml } from '../../report/html-report.js';
import { checkHtmlPath, writeHtmlReport } from '../html-output.js';
import { parseChoice, parseTop } from '../parse-options.js';
import { createProgress, wantsProgress } from '../progress.js';
import { formatOf, writeResult } from '../output.js';
import type { GlobalOptions } from '../global-options.js';

interface AnalyzeFlags {
  top: string;
  objects?: string;
  sort: string;
  json?: boolean;
  markdown?: boolean;
  progress?: boolean;
  html?: string;
}

export function registerAnalyze(program: Command, globals: () => GlobalOptions): void {
  program
    .command('analyze')
    .argument('<file>', 'a .heapsnapshot file (from DevTools, v8.writeHeapSnapshot, or leakhunt snapshot)')
    .description('summarise one heap snapshot: top classes and largest objects by retained size')
    .option('--top <n|all>', 'how many classes to list (and objects, unless --objects)', '20')
    .option('--objects <n|all>', 'how many of the largest objects to list (default: --top; 100 with --top all)')
    .option('--sort <key>', 'order classes by retained, self or count', 'retained')
    .option('--json', 'print the result as JSON (schemaVersion 1)')
    .option('--markdown', 'print the result as Markdown')
    .option('--html <file>', 'also write the result as one self-contained HTML page')
    .option('--progress', 'show progress on stderr even with --json')
    .option('--no-progress', 'never show progress')
    .addHelpText('after', `
Examples:
  $ leakhunt analyze prod.heapsnapshot
  $ leakhunt analyze prod.heapsnapshot --top 50 --sort self
  $ leakhunt analyze prod.heapsnapshot --top all --sort count     every class; the 100 largest objects
  $ leakhunt analyze prod.heapsnapshot --json | jq '.classes[0]'`)
    .action(async (file: string, flags: AnalyzeFlags, command: Command) => {
      const top = parseTop(flags.top);
      const objects = flags.objects === undefined ? undefined : parseTop(flags.objects, '--objects');
      const sort = parseChoice('--sort', flags.sort, ['retained', 'self', 'count'] as const);
      const format = formatOf(flags);
      checkHtmlPath(flags.html);
      const progress = createProgress(wantsProgress(command, flags.progress, format === 'text'));
      const summary = await analyzeSnapshotFile(file, {
        top,
        ...(objects === undefined ? {} : { objects }),
        sort,
        onBytes: (read, total) => progress.bytes('reading', read, total),
        onPhase: (phase) => progress.phase(phase),
      });
      progress.done();
      if (flags.html !== undefined) writeHtmlReport(flags.html, buildAnalyzeHtml(summary, file));
      await writeResult(format, summary, () => buildAnalyzeDocument(summary, file, sort, summary), globals().noColor);
    });
}
