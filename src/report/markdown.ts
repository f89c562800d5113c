// Markdown rendering of a report document, for pull-request comments and $GITHUB_STEP_SUMMARY. Lines
// come out one at a time (a table of millions of rows is never one string).
//
// Every text a report carries is shown as it is: class names such as `{__start__, next}` or
// `<symbol lc:child_config>` would otherwise be read as emphasis or raw HTML (which GitHub strips), a
// `|` would split a table cell, a leading `-`, `#` or `1.` would start a list or a heading. So text is
// escaped with CommonMark's backslash escapes (any ASCII punctuation may be escaped), and preformatted
// lines go in a fence longer than any backtick run they hold. test/unit/markdown-render*.test.ts render
// the output with a real CommonMark/GFM parser and compare the visible text.

import type { Block, ReportDocument } from './document.js';

/**
 * Characters that mean something wherever they stand: emphasis (`*`, `_`), code spans, links and
 * images (`[`, `]`), raw HTML and autolinks (`<`, `>`), entities (`&`), GFM strikethrough (`~`) and
 * table cells (`|`), GitHub's math (`$`), ATX closing sequences (`#`), and the backslash itself.
 */
const INLINE_SPECIAL = /[\\`*_[\]<>&|~$#]/g;

/** What opens a block at the start of a line: a heading, a quote, a list item, a setext underline. */
const LINE_START_SPECIAL = /^([+\-=>])/;
/** An ordered list item: digits and `.` or `)`; escaping the delimiter keeps the digits as text. */
const ORDERED_ITEM = /^(\d{1,9})([.)])/;

/** Text on one line, shown literally wherever it stands inside a line. Newlines become spaces. */
export function escapeInline(text: string): string {
  return text.replace(/\r\n?|\n/g, ' ').replace(INLINE_SPECIAL, '\\$&');
}

/**
 * Text that starts a line of its own (a paragraph line): also keeps it from opening a block. Leading
 * whitespace is dropped (a paragraph line's indentation never shows, and four spaces would open an
 * indented code block), as is trailing whitespace (two spaces would be a line break).
 */
export function escapeLineStart(text: string): string {
  const inline = escapeInline(text).trim();
  return inline.replace(ORDERED_ITEM, '$1\\$2').replace(LINE_START_SPECIAL, '\\$1');
}

/** A table cell: inline text (the `|` already escaped), nothing around it. */
function escapeCell(text: string): string {
  return escapeInline(text).trim();
}

/** A fence of backticks longer than any run of backticks in the lines (at least three). */
function fenceFor(lines: readonly string[]): string {
  let longest = 0;
  for (const line of lines) for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

function* blockLines(block: Block): Generator<string> {
  switch (block.kind) {
    case 'heading':
      yield `### ${escapeInline(block.text).trim()}`;
      return;
    case 'fields':
      for (const [k, v] of block.rows) yield `- **${escapeInline(k).trim()}**: ${escapeInline(v).trim()}`;
      return;
    case 'lines': {
      // One paragraph with a hard break (two trailing spaces) between lines; an empty line ends it.
      const lines = block.lines.map(escapeLineStart);
      for (let i = 0; i < lines.length; i++) {
        const next = lines[i + 1];
        yield next !== undefined && next !== '' && lines[i] !== '' ? `${lines[i]!}  ` : lines[i]!;
      }
      return;
    }
    case 'code': {
      const fence = fenceFor(block.lines);
      yield fence;
      yield* block.lines;
      yield fence;
      return;
    }
    case 'table': {
      const align = block.head.map((_, i) => (block.align?.[i] === 'right' ? '---:' : ':---'));
      if (block.title) yield* [`**${escapeInline(block.title).trim()}**`, ''];
      yield `| ${block.head.map(escapeCell).join(' | ')} |`;
      yield `| ${align.join(' | ')} |`;
      for (const r of block.rows) yield `| ${r.map(escapeCell).join(' | ')} |`;
    }
  }
}

/** The document's Markdown lines, blocks separated by an empty line. */
export function* markdownLines(doc: ReportDocument): Generator<string> {
  for (let i = 0; i < doc.length; i++) {
    if (i > 0) yield '';
    let any = false;
    for (const line of blockLines(doc[i]!)) {
      any = true;
      yield line;
    }
    if (!any) yield ''; // an empty block still takes its line, as when blocks were joined as strings
  }
}

export function renderMarkdown(doc: ReportDocument): string {
  return `${[...markdownLines(doc)].join('\n')}\n`;
}
