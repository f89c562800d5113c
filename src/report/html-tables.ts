// Tables for the HTML report: escaped cells, numbers kept raw in data-v so the page's few lines of
// script (html-page.ts) sort a column on a click of its heading; paths in text cells readable (paths.ts).

import { element, escapeHtml } from './html-escape.js';
import { readablePaths } from './paths.js';

export interface HtmlColumn<Row> {
  readonly head: string;
  /** The shown text. */
  readonly text: (row: Row) => string;
  /** The sort key of a numeric column (absent: the column sorts as text). */
  readonly value?: (row: Row) => number;
}

export function htmlTable<Row>(columns: readonly HtmlColumn<Row>[], rows: readonly Row[], sortable: boolean): string {
  const head = columns.map((c) => element('th', { 'data-type': c.value ? 'num' : 'text', scope: 'col' }, escapeHtml(c.head))).join('');
  const body = rows
    .map((r) => `<tr>${columns.map((c) => (c.value ? `<td class="n" data-v="${c.value(r)}">${escapeHtml(c.text(r))}</td>` : `<td>${escapeHtml(readablePaths(c.text(r)))}</td>`)).join('')}</tr>`)
    .join('\n');
  return `<table${sortable ? ' class="sortable"' : ''}><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}
