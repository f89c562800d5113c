// Markdown rendering of a report document, for pull-request comments and $GITHUB_STEP_SUMMARY.

import type { Block, ReportDocument } from './document.js';

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function renderBlock(block: Block): string {
  switch (block.kind) {
    case 'heading':
      return `### ${block.text}`;
    case 'fields':
      return block.rows.map(([k, v]) => `- **${k}**: ${escapeCell(v)}`).join('\n');
    case 'lines':
      return block.lines.join('  \n');
    case 'code':
      return ['```', ...block.lines, '```'].join('\n');
    case 'table': {
      const align = block.head.map((_, i) => (block.align?.[i] === 'right' ? '---:' : ':---'));
      const lines = [
        ...(block.title ? [`**${block.title}**`, ''] : []),
        `| ${block.head.map(escapeCell).join(' | ')} |`,
        `| ${align.join(' | ')} |`,
        ...block.rows.map((r) => `| ${r.map(escapeCell).join(' | ')} |`),
      ];
      return lines.join('\n');
    }
  }
}

export function renderMarkdown(doc: ReportDocument): string {
  return `${doc.map(renderBlock).join('\n\n')}\n`;
}
