// Where command results go: stdout for results, stderr for progress and warnings. The terminal renderer
// (chalk, cli-table3: ~30 ms of module loading) loads only for text output, not for --json.

import type { ReportDocument } from '../report/document.js';
import { renderMarkdown } from '../report/markdown.js';

export type OutputFormat = 'text' | 'json' | 'markdown';

export async function writeResult(format: OutputFormat, json: unknown, doc: () => ReportDocument, noColor: boolean): Promise<void> {
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else if (format === 'markdown') {
    process.stdout.write(renderMarkdown(doc()));
  } else {
    const { renderTerminal, terminalChalk } = await import('./render-terminal.js');
    process.stdout.write(renderTerminal(doc(), terminalChalk(process.stdout, noColor)));
  }
}

export function warn(message: string): void {
  process.stderr.write(`leakhunt: warning: ${message}\n`);
}

export function formatOf(options: { json?: boolean; markdown?: boolean }): OutputFormat {
  return options.json ? 'json' : options.markdown ? 'markdown' : 'text';
}
