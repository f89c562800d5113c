// Bad input to `diff` and `retainers` through the built binary: exit 3 and one line for a bad
// snapshot (with the file and byte offset), exit 2 for a bad command line.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { buildSampleGraph } from '../helpers/sample-graphs.js';

const dir = mkdtempSync(join(tmpdir(), 'leakhunt-diff-errors-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const good = join(dir, 'good.heapsnapshot');
buildSampleGraph().writeFile(good);
const truncated = join(dir, 'truncated.heapsnapshot');
writeFileSync(truncated, readFileSync(good).subarray(0, 500));

const cases: [string, string[], number, RegExp][] = [
  ['diff with a missing snapshot', ['diff', good, join(dir, 'missing.heapsnapshot')], 3, /missing\.heapsnapshot: no such file$/],
  ['diff with a truncated snapshot', ['diff', good, truncated], 3, /truncated\.heapsnapshot: file ends early .* at byte 500$/],
  ['diff with one snapshot', ['diff', good], 2, /at least two snapshots/],
  ['diff with a bad gate', ['diff', good, good, '--max-growth', 'lots'], 2, /--max-growth must be a size/],
  ['diff with a bad class gate', ['diff', good, good, '--max-class-growth', 'RunTree'], 2, /NAME=COUNT/],
  ['retainers without a target', ['retainers', good], 2, /exactly one of --class NAME or --id N/],
  ['retainers of an unknown id', ['retainers', good, '--id', '999999'], 2, /no object @999999/],
  ['retainers of an unknown class', ['retainers', good, '--class', 'bigblob'], 2, /no objects of class "bigblob" .*did you mean "BigBlob"/],
  ['retainers of a truncated snapshot', ['retainers', truncated, '--class', 'X'], 3, /at byte 500$/],
];

for (const [name, args, code, message] of cases) {
  test(`${name} → exit ${code} and one line`, async () => {
    const r = await runCli(args);
    assert.equal(r.code, code, r.stderr);
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^leakhunt: /);
    assert.match(lines[0]!, message);
  });
}
