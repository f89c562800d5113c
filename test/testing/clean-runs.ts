// Shared by clean-runs-*.test.ts: a clean unit of work must pass assertNoLeak run after run (two files,
// so node --test runs them side by side on two cores).

import assert from 'node:assert/strict';
import { assertNoLeak, LeakAssertionError } from '../../src/testing/index.js';

export const RUNS = 20;

export async function passesEveryRun(fn: (i: number) => unknown): Promise<void> {
  for (let run = 1; run <= RUNS; run++) {
    try {
      const result = await assertNoLeak(fn, { iterations: 20, warmup: 3 });
      assert.deepEqual(result.tolerated, [], `run ${run}: nothing grew in proportion`);
    } catch (err) {
      if (err instanceof LeakAssertionError) assert.fail(`run ${run} of ${RUNS} reported a leak in a clean function:\n${err.message}`);
      throw err;
    }
  }
}
