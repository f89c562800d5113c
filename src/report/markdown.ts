// Markdown rendering of a report document, for pull-request comments and $GITHUB_STEP_SUMMARY. Lines
// come out one at a time (a table of millions of rows is never one string).

import type { Block, ReportDocument } from './document.js';

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function* blockLines(block: Block): Generator<string> {
  switch (block.kind) {
    case 'heading':
      yield `### ${block.text}`;
      return;
    case 'fields':
      for (const [k, v] of block.rows) yield `- **${k}**: ${escapeCell(v)}`;
      return;
    case 'lines':
      for (let i = 0; i < block.lines.length; i++) yield i + 1 < block.lines.length ? `${block.lines[i]!}  ` : block.lines[i]!;
      return;
    case 'code':
      yield '```';
      yield* block.lines;
      yield '```';
      return;
    case 'table': {
      const align = block.head.map((_, i) => (block.align?.[i] === 'right' ? '---:' : ':---'));
      if (block.title) yield* [`**${block.title}**`, ''];
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
