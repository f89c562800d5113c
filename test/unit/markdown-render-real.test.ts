// `--markdown` on real snapshots (fixtures/markdown-names.cjs: class names such as `{__start__, next}`,
// `{<symbol lc:child_config>, run}`, `(closure)`, `__proto__`, `<b>Bold</b>`), rendered by markdown-it:
// every table row's visible cells, and the retainers target and paths, equal what `--json` says.

import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { takeSnapshotSeries, removeSnapshots } from '../helpers/take-snapshot.js';
import { decodeEntities, renderHtml, shown, tableRows, topLevel, visibleText } from '../helpers/markdown-visible.js';
import { truncate } from '../../src/report/analyze-report.js';
import { formatCount } from '../../src/report/format.js';

const PLANTED = ['{__start__, next}', '{<symbol lc:child_config>, run}', '(closure)', '__proto__', '<b>Bold</b>', '*Star* _under_ `tick` [l](u) a|b &amp; #1'];

let files: string[] = [];
before(async () => {
  files = await takeSnapshotSeries('markdown-names', 3, { requests: 40 });
});
after(() => removeSnapshots(files));

async function both(args: string[]): Promise<{ json: any; html: string }> {
  const j = await runCli([...args, '--json', '--no-progress']);
  assert.equal(j.code, 0, j.stderr);
  const m = await runCli([...args, '--markdown', '--no-progress']);
  assert.equal(m.code, 0, m.stderr);
  return { json: JSON.parse(j.stdout), html: renderHtml(m.stdout) };
}

function tables(html: string): string[][][] {
  return topLevel(html).filter(([t]) => t === 'table').map(([, inner]) => tableRows(inner));
}

test('analyze --markdown: every class and object row shows the names --json gives', async () => {
  const { json, html } = await both(['analyze', files[2]!, '--top', 'all']);
  const [classes, objects] = tables(html);
  assert.ok(classes && objects, html.slice(0, 2000));
  assert.deepEqual(classes[0], ['class', 'count', 'self size', 'retained size', '% of heap']);
  const names: string[] = json.classes.map((c: { name: string }) => c.name);
  assert.deepEqual(classes.slice(1).map((r) => r[0]), names.map(shown));
  for (const p of PLANTED) assert.ok(names.includes(p), `${p} not among the classes`);
  assert.deepEqual(
    objects.slice(1).map((r) => [r[0], r[1]]),
    json.dominators.map((d: { name: string; className: string; id: number }) => [
      shown(`${truncate(d.name || d.className, 48)} @${d.id}`),
      shown(truncate(d.className, 40)),
    ]),
  );
});

test('diff --markdown: the growth table shows the class names --json gives, the planted ones growing', async () => {
  const { json, html } = await both(['diff', ...files, '--top', 'all']);
  const growth = tables(html).find((t) => t[0]![0] === 'class' && t[0]!.includes('Δ count'));
  assert.ok(growth, html.slice(0, 2000));
  // The table lists the classes that grew in count or size (src/report/diff-report.ts), in --json's order.
  const grown = json.classes.filter((c: { sizeDelta: number; countDelta: number }) => c.sizeDelta > 0 || c.countDelta > 0);
  assert.deepEqual(
    growth.slice(1).map((r) => [r[0], r[r.length - 1]]),
    grown.map((c: { name: string; grewEveryInterval: boolean }) => [shown(truncate(c.name, 40)), c.grewEveryInterval ? 'grew' : '–']),
  );
  for (const p of PLANTED) {
    const c = json.classes.find((x: { name: string }) => x.name === p);
    assert.ok(c && c.countDelta >= 80, `${p} did not grow: ${JSON.stringify(c)}`);
  }
});

for (const name of PLANTED) {
  test(`retainers --class ${name} --markdown: the target, each path and each chain as --json gives them`, async () => {
    const { json, html } = await both(['retainers', files[2]!, '--class', name]);
    assert.equal(json.target.className, name);
    const blocks = topLevel(html);
    const fields = blocks[0]!;
    assert.equal(fields[0], 'ul');
    assert.match(visibleText(fields[1]), new RegExp(`target: ${escapeRegExp(`${formatCount(json.target.count)} × ${name}`)} retains:`));
    const paragraphs = blocks.filter(([t]) => t === 'p').map(([, inner]) => inner.split(/<br>\n?/).map(visibleText));
    const codes = blocks.filter(([t]) => t === 'pre').map(([, inner]) => decodeEntities(inner.replace(/^<code>|<\/code>$/g, '')));
    assert.ok(json.paths.length > 0);
    assert.equal(paragraphs.length, json.paths.length);
    assert.equal(codes.length, json.paths.length);
    json.paths.forEach((p: { signature: string; chain: { node: { id: number; className: string } }[] }, i: number) => {
      assert.equal(paragraphs[i]![1], shown(`path: ${p.signature}`));
      const first = codes[i]!.split('\n')[0]!.trim();
      assert.ok(first.startsWith(`${p.chain[0]!.node.className} @${p.chain[0]!.node.id} `), first);
    });
  });
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
