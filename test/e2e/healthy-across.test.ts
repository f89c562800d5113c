// No false alarm on a healthy service compared young against old (issue 23): two instances of
// fixtures/lazy-routes.mjs, whose route modules load on first use with `import()`, snapshotted at two
// ages with `leakhunt snapshot` and compared with `leakhunt diff --across-processes`. The older one holds
// more of Node's module loader caches and module records (bounded by the code: code-bounded.ts) and
// nothing more per request, so the verdict is never `leak`. Before the rule, such a pair read `leak`
// on `Generator` (module records) and `{javascript}` (LoadCache entries). Two pairs here;
// `node scripts/healthy-across.js` runs ten at the ages a user would pick (8 s and 35 s).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeAnswer, healthyLazyRoutes, runZooCaseAcross } from '../helpers/zoo.js';

// Young past its first 200 requests (about 20 of the 60 routes loaded), old with every route loaded.
const YOUNG_MS = 4000;
const OLDER_BY_MS = 12_000;

for (const pair of [1, 2]) {
  test(`healthy service with lazy imports, young against old (pair ${pair}): never a leak`, { timeout: 90_000 }, async () => {
    const run = await runZooCaseAcross(healthyLazyRoutes, 20, YOUNG_MS, OLDER_BY_MS);
    assert.deepEqual(run.problems, []);
    assert.ok(run.out);
    assert.equal(run.out.mode, 'signatures');
    assert.notEqual(run.out.verdict, 'leak', describeAnswer(run.out));
    assert.deepEqual(run.out.findings.filter((f) => f.kind === 'leak').map((f) => f.className), [], describeAnswer(run.out));
  });
}
