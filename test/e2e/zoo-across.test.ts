// The leak zoo diffed across processes (`leakhunt diff --across-processes`): two free-running instances
// of a case, one snapshot each at a different age, as two replicas of a service. The cases here are
// those the signature mode got wrong before its rules were made general (docs/diff-modes.md, "From rows
// to findings"): a path that gained objects moved from another holder, a dictionary's per-process name,
// a carrier (timer, closure) heading the finding, memory in Buffers; plus a leak and two look-alikes
// it always answered. `npm run zoo -- --across-processes` runs every case.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acrossProcessesExpectation, describeAnswer, judgeZooRun, loadZooCases, runZooCaseAcross } from '../helpers/zoo.js';

const CASES = ['als-timer-client', 'buffers-kept', 'closure-array', 'graph-per-turn-released', 'map-cache', 'pool-at-limit', 'two-leaks', 'weakmap-metadata'];

for (const c of loadZooCases().filter((x) => CASES.includes(x.name))) {
  test(`across processes: ${c.name} (${c.expect.kind}) reads ${acrossProcessesExpectation(c.expect)?.verdict}`, async () => {
    const expect = acrossProcessesExpectation(c.expect);
    assert.ok(expect, `${c.name} is answerable across processes`);
    const run = await runZooCaseAcross(c, 20);
    assert.deepEqual(run.problems, []);
    assert.ok(run.out);
    assert.equal(run.out.mode, 'signatures');
    const judgement = judgeZooRun(expect, run.out);
    assert.ok(judgement.right, `${judgement.wrong.join('; ')}\n${describeAnswer(run.out)}`);
  });
}

test('every case named here is in the zoo', () => {
  const names = new Set(loadZooCases().map((c) => c.name));
  assert.deepEqual(CASES.filter((n) => !names.has(n)), []);
});
