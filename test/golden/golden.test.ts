// Golden output: the built CLI on small hand-built snapshots, text / JSON / Markdown, normalised (temp
// paths) and compared with test/golden/expected/. This test only reads those files: a missing one is a
// failure. After an intended change, regenerate them with `npm run golden:update`
// (scripts/update-golden.js) and review the diff like code.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GOLDEN_DIR, prepareGoldenInputs, runGoldenCase } from './golden-cases.js';

const inputs = prepareGoldenInputs();
test.after(() => inputs.remove());

for (const c of inputs.cases) {
  test(`golden: leakhunt ${inputs.describe(c.args)}`, async () => {
    const file = join(GOLDEN_DIR, c.name);
    assert.ok(existsSync(file), `missing golden file test/golden/expected/${c.name}: run \`npm run golden:update\` and review it`);
    const r = await runGoldenCase(inputs, c);
    assert.equal(r.code, c.code, r.stderr);
    assert.equal(r.output, readFileSync(file, 'utf8'), `${c.name} differs from the golden file (after an intended change: npm run golden:update)`);
  });
}
