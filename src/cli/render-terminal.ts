// Renders a report document for the terminal: cli-table3 tables, chalk colours (terminalChalk: off when
// the stream is not a TTY, NO_COLOR is set or --no-color is given). Loaded only for text output (output.ts).

import { Chalk, type ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import type { Block, ReportDocument, Tone } from '../report/document.js';
import { colorLevel } from './color-level.js';

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

function renderBlock(block: Block, chalk: ChalkInstance): string {
  switch (block.kind) {
    case 'heading':
      return chalk.bold(block.text);
    case 'fields': {
      const width = Math.max(...block.rows.map(([k]) => k.length));
      return block.rows.map(([k, v]) => `${chalk.dim(k.padEnd(width))}  ${v}`).join('\n');
    }
    case 'code':
      return block.lines.join('\n');
    case 'lines': {
      const paint = toneOf(chalk, block.tone);
      return block.lines.map((line) => paint(line)).join('\n');
    }
    case 'table': {
      const table = new Table({
        head: [...block.head],
        colAligns: block.align ? [...block.align] : undefined,
        style: { head: chalk.level > 0 ? ['cyan'] : [], border: chalk.level > 0 ? ['grey'] : [], compact: true },
      });
      for (const row of block.rows) table.push([...row]);
      const title = block.title ? `${chalk.bold(block.title)}\n` : '';
      return block.rows.length === 0 ? `${title}${chalk.dim('(none)')}` : `${title}${table.toString()}`;
    }
  }
}

export function renderTerminal(doc: ReportDocument, chalk: ChalkInstance): string {
  return `${doc.map((b) => renderBlock(b, chalk)).join('\n\n')}\n`;
}
