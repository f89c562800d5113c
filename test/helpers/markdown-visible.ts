// What a reader sees of our Markdown: rendered by markdown-it (CommonMark, with GFM tables and
// strikethrough; raw HTML passed through as GitHub's parser reads it, then stripped as a browser hides
// tags), split into the blocks a report is made of, each block's visible text with entities decoded.
// Used by test/unit/markdown-render*.test.ts.

import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: true, linkify: false });

/** markdown-it's HTML for a Markdown text. */
export function renderHtml(markdown: string): string {
  return md.render(markdown);
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes the entities in HTML text; an entity we do not know fails (no guessing what is shown). */
export function decodeEntities(html: string): string {
  return html.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (all, body: string) => {
    if (body[0] === '#') return String.fromCodePoint(body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10));
    const named = NAMED[body.toLowerCase()];
    if (named === undefined) throw new Error(`unknown entity ${all} in ${html}`);
    return named;
  });
}

/** Visible text of an HTML fragment: tags removed, entities decoded, whitespace runs shown as one space. */
export function visibleText(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();
}

/** What a text in a paragraph, cell or heading should show: whitespace runs as one space. */
export function shown(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The inner HTML of every element `tag` (not nested in itself). */
export function elements(html: string, tag: string): string[] {
  const re = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'g');
  return [...html.matchAll(re)].map((m) => m[1]!);
}

/** A table's rows, header first, each the visible text of its cells. */
export function tableRows(tableHtml: string): string[][] {
  return elements(tableHtml, 'tr').map((tr) => [...tr.matchAll(/<(th|td)(?:\s[^>]*)?>([\s\S]*?)<\/\1>/g)].map((m) => visibleText(m[2]!)));
}

/** The top-level elements of markdown-it's HTML, in order: `[tag, innerHtml]`. */
export function topLevel(html: string): [string, string][] {
  const out: [string, string][] = [];
  const re = /<(h[1-6]|p|ul|ol|pre|table|blockquote|hr)(?:\s[^>]*)?(\/?)>/g;
  let pos = 0;
  for (;;) {
    re.lastIndex = pos;
    const m = re.exec(html);
    if (!m) break;
    const tag = m[1]!;
    if (tag === 'hr') {
      out.push([tag, '']);
      pos = m.index + m[0].length;
      continue;
    }
    // Same-tag nesting (a list in a list, a quote in a quote) is counted so the outer element is whole.
    const open = new RegExp(`<${tag}(?:\\s[^>]*)?>|</${tag}>`, 'g');
    open.lastIndex = m.index + m[0].length;
    let depth = 1;
    let end = -1;
    for (let n = open.exec(html); n; n = open.exec(html)) {
      depth += n[0][1] === '/' ? -1 : 1;
      if (depth === 0) {
        end = n.index;
        pos = n.index + n[0].length;
        break;
      }
    }
    if (end < 0) throw new Error(`unclosed <${tag}> in ${html}`);
    out.push([tag, html.slice(m.index + m[0].length, end)]);
  }
  return out;
}
