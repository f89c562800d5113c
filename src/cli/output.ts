// Where command results go: stdout for results, stderr for progress and warnings; colour decided once.

import { Chalk, type ChalkInstance } from 'chalk';
import type { ReportDocument } from '../report/document.js';
import { renderMarkdown } from '../report/markdown.js';
import { renderTerminal } from './render-terminal.js';

export type OutputFormat = 'text' | 'json' | 'markdown';

export function terminalChalk(stream: NodeJS.WriteStream, noColor: boolean): ChalkInstance {
  const disabled = noColor || !stream.isTTY || 'NO_COLOR' in process.env;
  return new Chalk({ level: disabled ? 0 : 1 });
}

export function writeResult(format: OutputFormat, json: unknown, doc: () => ReportDocument, noColor: boolean): void {
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else if (format === 'markdown') {
    process.stdout.write(renderMarkdown(doc()));
  } else {
    process.stdout.write(renderTerminal(doc(), terminalChalk(process.stdout, noColor)));
  }
}

export function warn(message: string): void {
  process.stderr.write(`leakhunt: warning: ${message}\n`);
}

export function formatOf(options: { json?: boolean; markdown?: boolean }): OutputFormat {
  return options.json ? 'json' : options.markdown ? 'markdown' : 'text';
}
