// The leak zoo: the development set of small programs (fixtures/zoo/, docs/zoo.md), each
// with the answer a user should get beside it (<name>.expect.json), run through the product path —
// the program free-running, `leakhunt attach <pid> --json` paced by its request counter — on Node 20 and
// Node 24. Asserts EXACTLY the expected verdict, the top finding's class and the hop that holds it, and
// for two-leaks both findings; that the attach ran to the end and left the target alive with its
// inspector closed. A missing Node 24 binary fails. One case at a time (each runs a target and the CLI).
// `npm run zoo` (scripts/zoo.js) runs the same cases repeatedly and tabulates the answers.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeBinaryInfo, type NodeMajor } from '../helpers/node-binaries.js';
import { describeAnswer, judgeZooRun, loadZooCases, runZooCase } from '../helpers/zoo.js';

const NODES: readonly NodeMajor[] = [20, 24];
const TEST_TIMEOUT_MS = 180_000;
const cases = loadZooCases();

test('the zoo has its cases: at least 16, leaks and look-alikes', () => {
  assert.ok(cases.length >= 16, `${cases.length} cases`);
  assert.ok(cases.some((c) => c.expect.kind === 'leak') && cases.some((c) => c.expect.kind === 'lookalike'));
  for (const c of cases) {
    if (c.expect.kind === 'leak' && c.expect.verdict === 'leak') assert.ok(c.expect.top ?? c.expect.findings, `${c.name}: a leak names what holds it`);
  }
});

for (const major of NODES) {
  describe(`the zoo on Node ${major}`, { concurrency: 1 }, () => {
    test(`a Node ${major} binary is there`, () => {
      const info = nodeBinaryInfo(major);
      assert.ok(info.path, `no Node ${major}: ${info.reason}`);
    });
    for (const c of cases) {
      test(`${c.name} (${c.expect.kind}): ${c.expect.verdict}`, { timeout: TEST_TIMEOUT_MS }, async (t) => {
        const run = await runZooCase(c, major);
        t.diagnostic(`${c.name} on ${run.nodeVersion}: verdict ${run.out?.verdict ?? '-'}, top ${run.out?.findings[0]?.className ?? '-'}, ${(run.durationMs / 1000).toFixed(1)} s`);
        assert.deepEqual(run.problems, [], `${c.name} on Node ${major}: the attach itself went wrong`);
        const out = run.out!;
        const judgement = judgeZooRun(c.expect, out, run.exitCode);
        for (const note of judgement.unchecked) t.diagnostic(`not checked: ${note}`);
        assert.ok(judgement.right, `${c.name} on ${run.nodeVersion}: ${judgement.wrong.join('; ')}\n${describeAnswer(out)}`);
      });
    }
  });
}
