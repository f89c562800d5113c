// A report table as fixed-width text, drawn with the box characters cli-table3 uses in its compact style
// (heading rule under the head, no rules between rows, one space of padding), so text output looks as it
// always did. Our own layout because cli-table3 cannot print a large table: its span logic is quadratic
// in the rows (an `analyze --top all` of a 4 MB snapshot ran for minutes) and it spreads all rows into
// one call (a 24 MB snapshot overflowed the stack). Here widths take one pass over the cells and the
// table comes out line by line, so a table of millions of rows costs time in proportion to its text.

import type { ChalkInstance } from 'chalk';
import type { Align } from '../report/document.js';

export interface TableInput {
  readonly head: readonly string[];
  readonly rows: readonly (readonly string[])[];
  readonly align?: readonly Align[];
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Columns a cell takes on a terminal: wide East Asian characters take two, combining marks none. */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length; // the common case, without a loop over characters
  let width = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x300) width += c < 0x20 || (c >= 0x7f && c < 0xa0) ? 0 : 1;
    else if (c <= 0x36f || (c >= 0x200b && c <= 0x200f) || (c >= 0xfe00 && c <= 0xfe0f)) width += 0;
    else width += isWide(c) ? 2 : 1;
  }
  return width;
}

function isWide(c: number): boolean {
  return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf && c !== 0x303f) || (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6) ||
    (c >= 0x1f300 && c <= 0x1f64f) || (c >= 0x1f900 && c <= 0x1f9ff) || (c >= 0x20000 && c <= 0x3fffd);
}

/** A cell on one line: line breaks and tabs become spaces (a table row is one line). */
function flat(cell: string): string {
  return /[\n\r\t]/.test(cell) ? cell.replace(/[\n\r\t]/g, ' ') : cell;
}

/** A column is never narrowed below this (its cells then end in …). */
const MIN_COLUMN = 6;

/** `text` cut to `width` columns, ending in … when cut. */
export function fitCell(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  for (const ch of text) {
    if (displayWidth(`${out}${ch}…`) > width) break;
    out += ch;
  }
  return `${out}…`;
}

/**
 * Column widths that fit `maxWidth` (a row is the widths plus 3 columns a column for padding and rule,
 * plus one): the widest left-aligned columns (names) give up columns first, down to MIN_COLUMN.
 */
function fitWidths(widths: number[], align: readonly string[] | undefined, maxWidth: number): number[] {
  const total = (): number => widths.reduce((a, w) => a + w + 3, 1);
  const shrinkable = widths.map((_, i) => i).filter((i) => (align?.[i] ?? 'left') === 'left');
  while (total() > maxWidth) {
    const widest = shrinkable.reduce((a, i) => (a < 0 || widths[i]! > widths[a]! ? i : a), -1);
    if (widest < 0 || widths[widest]! <= MIN_COLUMN) break;
    widths[widest]! -= Math.min(total() - maxWidth, widths[widest]! - MIN_COLUMN);
  }
  return widths;
}

function naturalWidths(table: TableInput): number[] {
  const natural = table.head.map((h) => displayWidth(flat(h)));
  for (const row of table.rows) {
    for (let i = 0; i < natural.length; i++) {
      const w = displayWidth(flat(row[i] ?? ''));
      if (w > natural[i]!) natural[i] = w;
    }
  }
  return natural;
}

/** The same table with its cells flattened and cut as tableLines would: drawn by cli-table3, it fits `maxWidth`. */
export function fitTable(table: TableInput, maxWidth: number): TableInput {
  const natural = naturalWidths(table);
  const widths = fitWidths([...natural], table.align, maxWidth);
  const fit = (cells: readonly string[]): string[] =>
    natural.map((n, i) => {
      const cell = flat(cells[i] ?? '');
      return widths[i]! < n ? fitCell(cell, widths[i]!) : cell;
    });
  return { head: fit(table.head), rows: table.rows.map(fit), ...(table.align ? { align: table.align } : {}) };
}

/**
 * The table's lines, top rule to bottom rule; `chalk` colours the head cyan and the rules grey. With
 * `maxWidth`, left-aligned columns are narrowed (cells cut with …) until a row fits.
 */
export function* tableLines(table: TableInput, chalk: ChalkInstance, maxWidth = Infinity): Generator<string> {
  const columns = table.head.length;
  const natural = naturalWidths(table);
  const widths = fitWidths([...natural], table.align, maxWidth);
  const grey = chalk.level > 0 ? chalk.grey : (s: string) => s;
  const cyan = chalk.level > 0 ? chalk.cyan : (s: string) => s;
  const rule = (left: string, join: string, right: string): string =>
    grey(`${left}${widths.map((w) => '─'.repeat(w + 2)).join(join)}${right}`);
  const bar = grey('│');
  const line = (cells: readonly string[], paint: (s: string) => string): string => {
    let out = bar;
    for (let i = 0; i < columns; i++) {
      const cell = flat(cells[i] ?? '');
      const text = widths[i]! < natural[i]! ? fitCell(cell, widths[i]!) : cell;
      const pad = ' '.repeat(widths[i]! - displayWidth(text));
      out += paint(table.align?.[i] === 'right' ? ` ${pad}${text} ` : ` ${text}${pad} `) + bar;
    }
    return out;
  };
  yield rule('┌', '┬', '┐');
  yield line(table.head, cyan);
  yield rule('├', '┼', '┤');
  for (const row of table.rows) yield line(row, (s) => s);
  yield rule('└', '┴', '┘');
}
