// `--top all` and other large listings on real snapshots (issue 13, defect 4): an empty node process's
// snapshot, taken at test time, has ~40k objects and hundreds of classes; `analyze --top all` used to run
// for minutes (cli-table3's quadratic span layout) or overflow the stack. Every format must finish
// quickly and list every class; diff and retainers with large tops too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'leakhunt-top-all-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** Two snapshots of one empty node process (a few allocations between them), written by V8 itself. */
function emptyProcessSnapshots(): [string, string] {
  const a = join(dir, 'empty-1.heapsnapshot');
  const b = join(dir, 'empty-2.heapsnapshot');
  const code = `const v8 = require('node:v8'); v8.writeHeapSnapshot(${JSON.stringify(a)}); globalThis.kept = Array.from({ length: 500 }, (_, i) => ({ i })); v8.writeHeapSnapshot(${JSON.stringify(b)});`;
  const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return [a, b];
}

const [first, second] = emptyProcessSnapshots();
const LIMIT_MS = 60_000;

/** The rows of the text table that follows `title`: lines between the head rule and the bottom rule. */
function textTableRows(stdout: string, title: RegExp): string[] {
  const lines = stdout.split('\n');
  const at = lines.findIndex((l) => title.test(l));
  assert.ok(at >= 0, `no table titled ${title}`);
  const headRule = lines.findIndex((l, i) => i > at && l.startsWith('├'));
  const bottom = lines.findIndex((l, i) => i > headRule && l.startsWith('└'));
  return lines.slice(headRule + 1, bottom);
}

test('analyze --top all of an empty node process lists every class, in every format, quickly', async () => {
  const started = Date.now();
  const json = await runCli(['analyze', first, '--top', 'all', '--json'], { timeoutMs: LIMIT_MS });
  assert.equal(json.code, 0, json.stderr);
  const out = JSON.parse(json.stdout) as { classCount: number; classes: { name: string }[]; dominators: unknown[]; snapshot: { nodeCount: number } };
  assert.ok(out.classCount > 100, `an empty node process has hundreds of classes, got ${out.classCount}`);
  assert.equal(out.classes.length, out.classCount, 'every class row');
  assert.equal(out.dominators.length, 100, 'every class, and the 100 largest objects beside them');
  const every = await runCli(['analyze', first, '--top', 'all', '--objects', 'all', '--json'], { timeoutMs: LIMIT_MS });
  assert.equal(every.code, 0, every.stderr);
  const all = JSON.parse(every.stdout) as { dominators: unknown[] };
  assert.ok(all.dominators.length > 10_000, `every object with --objects all, got ${all.dominators.length}`);

  // Wide enough that no class name is cut with … (at the default 100 columns long names are).
  const text = await runCli(['analyze', first, '--top', 'all', '--objects', 'all'], { timeoutMs: LIMIT_MS, env: { COLUMNS: '1000' } });
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`Top ${out.classCount} of ${out.classCount} classes by retained size`));
  const rows = textTableRows(text.stdout, /^Top \d+ of \d+ classes/);
  assert.equal(rows.length, out.classCount, 'one text row per class');
  assert.deepEqual(rows.map((r) => r.split('│')[1]!.trim()), out.classes.map((c) => c.name.replace(/\s+/g, ' ')), 'the same classes in the same order');
  assert.equal(textTableRows(text.stdout, /^Largest \d+ objects/).length, all.dominators.length, 'one text row per object');

  const markdown = await runCli(['analyze', first, '--top', 'all', '--objects', 'all', '--markdown'], { timeoutMs: LIMIT_MS });
  assert.equal(markdown.code, 0, markdown.stderr);
  const mdRows = markdown.stdout.split('\n').filter((l) => l.startsWith('| ')).length;
  assert.equal(mdRows, out.classCount + 2 + all.dominators.length + 2, 'every class and object row plus each table\'s head and alignment lines');
  assert.ok(Date.now() - started < 3 * LIMIT_MS);
});

test('diff --top all and retainers with many paths finish on real snapshots', async () => {
  const diff = await runCli(['diff', first, second, '--top', 'all', '--groups', '1000'], { timeoutMs: LIMIT_MS });
  assert.equal(diff.code, 0, diff.stderr);
  const diffJson = await runCli(['diff', first, second, '--top', 'all', '--json'], { timeoutMs: LIMIT_MS });
  assert.equal(diffJson.code, 0, diffJson.stderr);
  const d = JSON.parse(diffJson.stdout) as { classes: { name: string }[] };
  assert.ok(d.classes.length > 100, `every class of the diff, got ${d.classes.length}`);
  const shown = Number(/Classes by size growth \((\d+) shown\)/.exec(diff.stdout)?.[1]);
  assert.ok(shown >= 1, diff.stdout.slice(0, 2000));
  assert.equal(textTableRows(diff.stdout, /^Classes by size growth/).length, shown, 'every class that changed, one row each');

  const retainers = await runCli(['retainers', second, '--class', 'Object', '--paths', '100000'], { timeoutMs: LIMIT_MS });
  assert.equal(retainers.code, 0, retainers.stderr);
  const retainersJson = await runCli(['retainers', second, '--class', 'Object', '--paths', '100000', '--json'], { timeoutMs: LIMIT_MS });
  assert.equal(retainersJson.code, 0, retainersJson.stderr);
  const groups = (JSON.parse(retainersJson.stdout) as { paths: unknown[] }).paths.length;
  assert.ok(groups > 1, `path groups of Object, got ${groups}`);
  assert.equal((retainers.stdout.match(/^\d+\. /gm) ?? []).length, groups, 'every path group in the text');
});
