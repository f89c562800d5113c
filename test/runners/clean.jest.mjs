// Run by test/testing/runners-jest.test.ts with jest (workers as child processes, then as threads).
import { isMainThread } from 'node:worker_threads';
import { assertNoLeak } from 'leakhunt/test';
import { cleanRun, options } from './work.mjs';

test('runs in the expected kind of thread', () => {
  expect(isMainThread ? 'main' : 'worker').toBe(process.env.LEAKHUNT_EXPECT_THREAD);
});

test('a clean function passes', async () => {
  await assertNoLeak(cleanRun, options);
});
