// `--markdown` shows every text as it is: each block kind, filled with names that Markdown would read as
// emphasis, raw HTML, entities, links, code, table pipes or block starts, is rendered by markdown-it
// (CommonMark + GFM tables) and the visible text compared with what the report meant to say.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { Block } from '../../src/report/document.js';
import { decodeEntities, elements, renderHtml, shown, tableRows, topLevel, visibleText } from '../helpers/markdown-visible.js';

/** Texts a heap can name (class names, edge names, file paths) that Markdown would otherwise eat. */
const HOSTILE = [
  '{__start__, next}',
  '<symbol lc:child_config>',
  '{<symbol kResourceStore>, run}',
  '(closure)',
  '__proto__',
  '_private_',
  '*star* and **bold**',
  'a * b * c',
  '`tick` and ``double``',
  '```fence',
  '~~~tilde',
  '~~strike~~',
  'a | b | c',
  '|',
  '[link](http://example.invalid)',
  '![image](x.png)',
  '[ref][1]',
  '<https://example.invalid>',
  '<user@example.invalid>',
  '<b>bold</b> <!-- comment -->',
  '<div>block</div>',
  '&amp; &lt; &copy; &#65; &#x42; & alone',
  '# heading',
  '## closed ##',
  'ends with #',
  '> quote',
  '- item',
  '+ item',
  '* item',
  '1. first',
  '2) second',
  '123456789. big',
  '---',
  '===',
  '***',
  '___',
  '- - -',
  'back\\slash and ends with \\',
  'trailing spaces   ',
  '    four leading spaces',
  '\tleading tab',
  '$x + y$ and $$z$$',
  'line one\nline two',
  'ret \\u2190 ← … @1234',
  '[15053] in (array) @214753',
  '.table in Map @214739',
  'node_modules/@grpc/grpc-js/build/src/channel.js:12:3',
  'a_b_c d__e__f',
  '\\*not escaped twice\\*',
];

const expectedText = (s: string): string => shown(s);

function render(block: Block): string {
  return renderHtml(renderMarkdown([block]));
}

function assertNoMarkup(inner: string, sample: string): void {
  // markdown-it escapes every literal `<`: one left is an element Markdown made (em, code, a, raw HTML).
  assert.ok(!inner.includes('<'), `markup in the rendering of ${JSON.stringify(sample)}: ${inner}`);
}

test('a heading shows its text as it is', () => {
  for (const s of HOSTILE) {
    const html = render({ kind: 'heading', text: s });
    const blocks = topLevel(html);
    assert.deepEqual(blocks.map(([t]) => t), ['h3'], `${JSON.stringify(s)} → ${html}`);
    assertNoMarkup(blocks[0]![1], s);
    assert.equal(visibleText(blocks[0]![1]), expectedText(s));
  }
});

test('fields show each key in bold and the value as it is, one list item a row', () => {
  const rows = HOSTILE.map((s) => [s, s] as const);
  const html = render({ kind: 'fields', rows });
  const blocks = topLevel(html);
  assert.deepEqual(blocks.map(([t]) => t), ['ul'], html);
  const items = elements(blocks[0]![1], 'li');
  assert.equal(items.length, rows.length, html);
  items.forEach((li, i) => {
    const [k, v] = rows[i]!;
    const m = /^<strong>([\s\S]*?)<\/strong>([\s\S]*)$/.exec(li);
    assert.ok(m, `no bold key in ${li}`);
    assertNoMarkup(m[1]!, k);
    assertNoMarkup(m[2]!, v);
    assert.equal(visibleText(m[1]!), expectedText(k));
    assert.equal(visibleText(m[2]!), `: ${expectedText(v)}`);
  });
});

test('lines are one paragraph, one line each, each shown as it is', () => {
  const html = render({ kind: 'lines', lines: HOSTILE });
  const blocks = topLevel(html);
  assert.deepEqual(blocks.map(([t]) => t), ['p'], html);
  const shownLines = blocks[0]![1].split(/<br>\n?/);
  assert.equal(shownLines.length, HOSTILE.length, html);
  shownLines.forEach((inner, i) => {
    assertNoMarkup(inner, HOSTILE[i]!);
    assert.equal(visibleText(inner), expectedText(HOSTILE[i]!));
  });
});

test('each hostile line also shows as it is when it opens a lines block by itself', () => {
  for (const s of HOSTILE) {
    const html = render({ kind: 'lines', lines: [s, s] });
    const blocks = topLevel(html);
    assert.deepEqual(blocks.map(([t]) => t), ['p'], `${JSON.stringify(s)} → ${html}`);
    const parts = blocks[0]![1].split(/<br>\n?/);
    assert.equal(parts.length, 2, html);
    for (const p of parts) {
      assertNoMarkup(p, s);
      assert.equal(visibleText(p), expectedText(s));
    }
  }
});

test('an empty line in a lines block separates paragraphs; what follows is still a paragraph', () => {
  const html = render({ kind: 'lines', lines: ['first', '', '    indented after a gap', '- not a list'] });
  const blocks = topLevel(html);
  assert.deepEqual(blocks.map(([t]) => t), ['p', 'p'], html);
  assert.equal(visibleText(blocks[0]![1]), 'first');
  assert.deepEqual(blocks[1]![1].split(/<br>\n?/).map(visibleText), ['indented after a gap', '- not a list']);
});

test('code keeps every line exactly, whatever backtick runs it holds', () => {
  const lines = [...HOSTILE.filter((s) => !s.includes('\n')), '````', '`````` six', '  ← .x (property) in A @1'];
  const html = render({ kind: 'code', lines });
  const blocks = topLevel(html);
  assert.deepEqual(blocks.map(([t]) => t), ['pre'], html);
  const code = /^<code>([\s\S]*)<\/code>$/.exec(blocks[0]![1]);
  assert.ok(code, blocks[0]![1]);
  assert.equal(decodeEntities(code[1]!), `${lines.join('\n')}\n`);
});

test('a table shows its title, head and every cell as they are, one cell per column', () => {
  const head = ['class | name', 'count', '*self*'];
  const rows = HOSTILE.map((s, i) => [s, String(i), `${s} again`]);
  const title = 'Top {__start__, next} of <symbol x> | *all*';
  const html = render({ kind: 'table', title, head, rows, align: ['left', 'right', 'right'] });
  const blocks = topLevel(html);
  assert.deepEqual(blocks.map(([t]) => t), ['p', 'table'], html);
  const strong = /^<strong>([\s\S]*)<\/strong>$/.exec(blocks[0]![1]);
  assert.ok(strong, blocks[0]![1]);
  assertNoMarkup(strong[1]!, title);
  assert.equal(visibleText(strong[1]!), title);
  const table = blocks[1]![1];
  for (const cell of [...elements(table, 'td'), ...elements(table, 'th')]) assertNoMarkup(cell, cell);
  assert.deepEqual(tableRows(table), [head.map(expectedText), ...rows.map((r) => r.map(expectedText))]);
});

test('a whole document keeps its blocks apart', () => {
  const doc: Block[] = [
    { kind: 'fields', rows: [['class', '{__start__, next}']] },
    { kind: 'heading', text: 'Verdict: <symbol lc:child_config>' },
    { kind: 'lines', lines: ['- not a list', '1. not a list'] },
    { kind: 'table', head: ['a'], rows: [['__proto__']] },
    { kind: 'code', lines: ['RunTree @1', '  ← ["<symbol lc:child_config>"] (property) in RunnableConfig @2'] },
  ];
  const html = renderHtml(renderMarkdown(doc));
  assert.deepEqual(topLevel(html).map(([t]) => t), ['ul', 'h3', 'p', 'table', 'pre'], html);
  assert.equal(
    visibleText(html),
    shown('class: {__start__, next} Verdict: <symbol lc:child_config> - not a list 1. not a list a __proto__ ' +
      'RunTree @1 ← ["<symbol lc:child_config>"] (property) in RunnableConfig @2'),
  );
});
