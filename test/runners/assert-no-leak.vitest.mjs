// Run by test/testing/runners.test.ts with vitest (pool threads and forks); the last test fails on purpose.
import { AssertionError } from 'node:assert';
import { isMainThread } from 'node:worker_threads';
import { expect, test } from 'vitest';
import { assertNoLeak } from 'leakhunt/test';
import { cleanRun, leakyRun, options } from './work.mjs';

test(`runs in a ${process.env.LEAKHUNT_EXPECT_THREAD} thread`, () => {
  expect(isMainThread ? 'main' : 'worker').toBe(process.env.LEAKHUNT_EXPECT_THREAD);
});

test('a clean function passes', async () => {
  await assertNoLeak(cleanRun, options);
});

test('a leaking function is rejected with the class and its holder', async () => {
  const err = await assertNoLeak(leakyRun, options).then(() => undefined, (e) => e);
  expect(err).toBeInstanceOf(AssertionError);
  expect(err.message).toMatch(/1 RunRecord behind/);
  expect(err.message).toContain('.history');
  expect(err.leaks[0].className).toBe('RunRecord');
});

test('a leak fails the test (expected to fail)', async () => {
  await assertNoLeak(leakyRun, options);
});
