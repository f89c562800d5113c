// assertNoLeak under jest, spawned as a user runs it (ES modules: node --experimental-vm-modules,
// `transform: {}`), with two test files so jest runs them in workers: child processes (the default)
// and worker threads (`workerThreads: true`). A clean function passes; a leak fails its test with the
// class, the rate and the chain (jest prints node:assert failures with operator 'fail' as
// "assert.fail(received, expected)" followed by the message as it is).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertCleanPassesLeakFails, runnerScript, runRunner } from './spawn-runner.js';

const jest = runnerScript('jest');

for (const [mode, threads, thread] of [['child-process workers', '0', 'main'], ['worker threads', '1', 'worker']] as const) {
  test(`jest, ${mode}: a clean function passes, a leak fails with its class and chain`, async (t) => {
    assert.ok(jest.path, jest.reason);
    const run = await runRunner(
      ['--experimental-vm-modules', jest.path, '--config', 'test/runners/jest.config.mjs', '--ci', '--maxWorkers', '2'],
      { LEAKHUNT_EXPECT_THREAD: thread, LEAKHUNT_JEST_THREADS: threads },
      (file) => ['--json', '--outputFile', file],
    );
    t.diagnostic(`jest, ${mode}: ${run.ms} ms`);
    const failure = assertCleanPassesLeakFails(run, thread);
    assert.match(failure, /assertNoLeak: each iteration leaves 1 RunRecord behind \(\d+ B per iteration\)/);
    assert.match(failure, /← \.history \(context\) in system \/ Context @\d+/);
    assert.match(failure, /fix: RunRecord objects are pushed into the array "history"/);
    assert.equal(run.code, 1, 'jest exits 1 for the failed test');
  });
}
