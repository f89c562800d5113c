// Run by test/testing/runners-jest.test.ts with jest. Fails on purpose: the runner test reads the
// failure message from the JSON report. (A second file, so that jest runs the two in workers.)
import { assertNoLeak } from 'leakhunt/test';
import { leakyRun, options } from './work.mjs';

test('a leak fails the test (expected to fail)', async () => {
  await assertNoLeak(leakyRun, options);
});
