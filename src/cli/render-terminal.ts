// Renders a report document for the terminal: tables by cli-table3 in its compact style, and tables too
// long for it (its span logic is quadratic in the rows) by render-table.ts in the same look,
// chalk colours (terminalChalk: --no-color, NO_COLOR, FORCE_COLOR and whether the stream is a TTY,
// color-level.ts). Loaded only for text output (output.ts). Lines come out one at a time so that a table of
// millions of rows (`analyze --top all`) is never one string.

import { Chalk, type ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import type { Block, ReportDocument, Tone } from '../report/document.js';
import { colorLevel } from './color-level.js';
import { tableLines } from './render-table.js';

/** Colours for `stream`: --no-color, FORCE_COLOR, NO_COLOR and whether it is a terminal (color-level.ts). */
export function terminalChalk(stream: NodeJS.WriteStream, noColor: boolean): ChalkInstance {
  return new Chalk({ level: colorLevel(stream.isTTY === true, noColor) });
}

function toneOf(chalk: ChalkInstance, tone: Tone | undefined): (s: string) => string {
  switch (tone) {
    case 'dim': return chalk.dim;
    case 'good': return chalk.green;
    case 'warn': return chalk.yellow;
    case 'bad': return chalk.red.bold;
    default: return (s) => s;
  }
}

function* blockLines(block: Block, chalk: ChalkInstance): Generator<string> {
  switch (block.kind) {
    case 'heading':
      yield chalk.bold(block.text);
      return;
    case 'fields': {
      const width = Math.max(...block.rows.map(([k]) => k.length));
      for (const [k, v] of block.rows) yield `${chalk.dim(k.padEnd(width))}  ${v}`;
      return;
    }
    case 'code':
      yield* block.lines;
      return;
    case 'lines': {
      const paint = toneOf(chalk, block.tone);
      for (const line of block.lines) yield paint(line);
      return;
    }
    case 'table':
      if (block.title) yield chalk.bold(block.title);
      if (block.rows.length === 0) yield chalk.dim('(none)');
      else if (block.rows.length > CLI_TABLE_MAX_ROWS) yield* tableLines(block, chalk);
      else yield* cliTable(block, chalk).split('\n');
  }
}

/** Rows cli-table3 draws in well under a second (measured: 1,000 rows 0.17 s, 2,000 rows 0.42 s). */
const CLI_TABLE_MAX_ROWS = 1000;

function cliTable(block: Extract<Block, { kind: 'table' }>, chalk: ChalkInstance): string {
  const table = new Table({
    head: [...block.head],
    ...(block.align ? { colAligns: [...block.align] } : {}),
    style: { head: chalk.level > 0 ? ['cyan'] : [], border: chalk.level > 0 ? ['grey'] : [], compact: true },
  });
  for (const row of block.rows) table.push([...row]);
  return table.toString();
}

/** The document's lines, blocks separated by an empty line. */
export function* terminalLines(doc: ReportDocument, chalk: ChalkInstance): Generator<string> {
  for (let i = 0; i < doc.length; i++) {
    if (i > 0) yield '';
    let any = false;
    for (const line of blockLines(doc[i]!, chalk)) {
      any = true;
      yield line;
    }
    if (!any) yield ''; // an empty block still takes its line, as when blocks were joined as strings
  }
}

export function renderTerminal(doc: ReportDocument, chalk: ChalkInstance): string {
  return `${[...terminalLines(doc, chalk)].join('\n')}\n`;
}
