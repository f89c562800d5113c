// Renders a report document for the terminal, no line wider than the terminal (100 columns when not one):
// long lines wrap with a hanging indent (wrap-lines.ts), tables narrow their widest left-aligned column
// with … (render-table.ts) and are drawn by cli-table3 in its compact style, or past 1,000 rows by
// render-table.ts in the same look; chalk colours (terminalChalk: --no-color, NO_COLOR, FORCE_COLOR and whether the stream is a TTY,
// color-level.ts). Loaded only for text output (output.ts). Lines come out one at a time so that a table of
// millions of rows (`analyze --top all`) is never one string.

import { Chalk, type ChalkInstance } from 'chalk';
import type { Block, ReportDocument, Tone } from '../report/document.js';
import { colorLevel } from './color-level.js';
import Table from 'cli-table3';
import { fitTable, tableLines, type TableInput } from './render-table.js';
import { wrapLine } from './wrap-lines.js';

/** Columns a report may use: the terminal's width; when stdout is not a terminal, COLUMNS, else 100. */
export function outputWidth(stream: NodeJS.WriteStream = process.stdout, env: NodeJS.ProcessEnv = process.env): number {
  if (stream.isTTY && stream.columns) return stream.columns;
  const columns = Number(env['COLUMNS']);
  return Number.isInteger(columns) && columns >= 40 ? columns : 100;
}

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

function* blockLines(block: Block, chalk: ChalkInstance, width: number): Generator<string> {
  switch (block.kind) {
    case 'heading':
      for (const piece of wrapLine(block.text, width, 2)) yield chalk.bold(piece);
      return;
    case 'fields': {
      const keys = Math.max(...block.rows.map(([k]) => k.length));
      for (const [k, v] of block.rows) {
        const [first, ...rest] = wrapLine(`${k.padEnd(keys)}  ${v}`, width, keys + 2);
        yield `${chalk.dim(k.padEnd(keys))}${first!.slice(keys)}`;
        yield* rest;
      }
      return;
    }
    case 'code':
      // Chains: a continuation goes under the hop's text, past its `← `.
      for (const line of block.lines) yield* wrapLine(line, width, (/^\s*(← )?/.exec(line)?.[0].length ?? 0) + 4);
      return;
    case 'lines': {
      const paint = toneOf(chalk, block.tone);
      for (const line of block.lines) for (const piece of wrapLine(line, width)) yield paint(piece);
      return;
    }
    case 'table':
      if (block.title) yield chalk.bold(block.title);
      if (block.rows.length === 0) yield chalk.dim('(none)');
      else if (block.rows.length > CLI_TABLE_MAX_ROWS) yield* tableLines(block, chalk, width);
      else yield* cliTable(fitTable(block, width), chalk).split('\n');
  }
}

/**
 * Tables up to this many rows are drawn by cli-table3 (measured: 1,000 rows 0.17 s, 2,000 rows 0.42 s: its
 * span logic is quadratic in the rows); longer ones by render-table.ts, in the same look.
 */
const CLI_TABLE_MAX_ROWS = 1000;

function cliTable(table: TableInput, chalk: ChalkInstance): string {
  const drawn = new Table({
    head: [...table.head],
    ...(table.align ? { colAligns: [...table.align] } : {}),
    style: { head: chalk.level > 0 ? ['cyan'] : [], border: chalk.level > 0 ? ['grey'] : [], compact: true },
  });
  for (const row of table.rows) drawn.push([...row]);
  return drawn.toString();
}

/** The document's lines, blocks separated by an empty line (a heading sits on its block), none wider than `width` columns. */
export function* terminalLines(doc: ReportDocument, chalk: ChalkInstance, width = 100): Generator<string> {
  for (let i = 0; i < doc.length; i++) {
    if (i > 0 && doc[i - 1]!.kind !== 'heading') yield '';
    let any = false;
    for (const line of blockLines(doc[i]!, chalk, width)) {
      any = true;
      yield line;
    }
    if (!any) yield ''; // an empty block still takes its line, as when blocks were joined as strings
  }
}

export function renderTerminal(doc: ReportDocument, chalk: ChalkInstance, width = 100): string {
  return `${[...terminalLines(doc, chalk, width)].join('\n')}\n`;
}
