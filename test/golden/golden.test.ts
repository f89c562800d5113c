// Golden output: the built CLI on small hand-built snapshots, text / JSON / Markdown, normalised (temp
// paths) and compared with test/golden/expected/. Regenerate after an intended change with
//   UPDATE_GOLDEN=1 node scripts/run-tests.js golden
// and review the diff like code.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.js';
import { buildSampleGraph, buildSeriesGraphs } from '../helpers/sample-graphs.js';

const EXPECTED = fileURLToPath(new URL('../../../test/golden/expected/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'leakhunt-golden-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

const sample = join(dir, 'sample.heapsnapshot');
buildSampleGraph().writeFile(sample);
const series = buildSeriesGraphs().map((b, i) => {
  const path = join(dir, `series-${i + 1}.heapsnapshot`);
  b.writeFile(path);
  return path;
});

function normalise(text: string): string {
  return text.split(dir).join('<dir>');
}

const cases: [name: string, args: string[], code: number][] = [
  ['analyze.txt', ['analyze', sample], 0],
  ['analyze.json', ['analyze', sample, '--json'], 0],
  ['analyze.md', ['analyze', sample, '--markdown'], 0],
  ['diff.txt', ['diff', ...series, '--max-growth', '100B'], 1],
  ['diff.json', ['diff', ...series, '--json'], 0],
  ['diff.md', ['diff', ...series, '--markdown'], 0],
  ['retainers-class.txt', ['retainers', series[2]!, '--class', 'Session'], 0],
  ['retainers-id.json', ['retainers', series[2]!, '--id', '2131', '--json'], 0],
];

for (const [name, args, code] of cases) {
  test(`golden: leakhunt ${args.map((a) => a.replace(dir, '<dir>')).join(' ')}`, async () => {
    const r = await runCli(args);
    assert.equal(r.code, code, r.stderr);
    const actual = normalise(r.stdout);
    const file = join(EXPECTED, name);
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
      if (process.env.CI === 'true' && !existsSync(file)) assert.fail(`missing golden file ${name}`);
      writeFileSync(file, actual);
    }
    assert.equal(actual, readFileSync(file, 'utf8'), `${name} differs from the golden file`);
  });
}
