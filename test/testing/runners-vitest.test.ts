// assertNoLeak under vitest, spawned as a user runs it: in worker threads (pool threads: the inspector
// session connects to the worker's own isolate) and in child processes (pool forks, vitest 4's
// default). A clean function passes; a leak fails its test with the class, the rate and the chain.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertCleanPassesLeakFails, runnerScript, runRunner } from './spawn-runner.js';

const vitest = runnerScript('vitest');

for (const [pool, thread] of [['threads', 'worker'], ['forks', 'main']] as const) {
  test(`vitest --pool ${pool}: a clean function passes, a leak fails with its class and chain`, async (t) => {
    assert.ok(vitest.path, vitest.reason);
    const run = await runRunner(
      [vitest.path, 'run', '--config', 'test/runners/vitest.config.mjs', '--root', '.', '--pool', pool],
      { LEAKHUNT_EXPECT_THREAD: thread },
      (file) => ['--reporter', 'json', '--outputFile', file],
    );
    t.diagnostic(`vitest --pool ${pool}: ${run.ms} ms`);
    const failure = assertCleanPassesLeakFails(run, thread);
    assert.match(failure, /AssertionError( \[ERR_ASSERTION\])?: assertNoLeak: each iteration leaves 1 RunRecord behind \(\d+ B per iteration\)/);
    assert.match(failure, /RunRecord @\d+ +\(retains/);
    assert.match(failure, /← \[\d+\] \(element\) in Array @\d+/);
    assert.match(failure, /fix: RunRecord objects are pushed into the array/);
    assert.equal(run.code, 1, 'vitest exits 1 for the failed test');
  });
}
