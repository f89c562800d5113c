// vitest for test/testing/runners.test.ts: the pool comes from the command line (--pool threads|forks).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/runners/*.vitest.mjs'],
    testTimeout: 180_000,
    // assertNoLeak measures the whole heap of its thread: never run its tests concurrently.
    sequence: { concurrent: false },
  },
});
