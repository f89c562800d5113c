// Run by test/testing/runners-vitest.test.ts with vitest (pool threads, then forks). The last test
// fails on purpose: the runner test reads its failure message from the JSON report.
import { isMainThread } from 'node:worker_threads';
import { expect, test } from 'vitest';
import { assertNoLeak } from 'leakhunt/test';
import { cleanRun, leakyRun, options } from './work.mjs';

test('runs in the expected kind of thread', () => {
  expect(isMainThread ? 'main' : 'worker').toBe(process.env.LEAKHUNT_EXPECT_THREAD);
});

test('a clean function passes', async () => {
  await assertNoLeak(cleanRun, options);
});

test('a leak fails the test (expected to fail)', async () => {
  await assertNoLeak(leakyRun, options);
});
