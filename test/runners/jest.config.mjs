// jest for test/testing/runners.test.ts. leakhunt is ESM only, so jest runs the test files as ES
// modules: node --experimental-vm-modules, `transform: {}`. testEnvironment node (the default).
export default {
  rootDir: '../..',
  testMatch: ['<rootDir>/test/runners/*.jest.mjs'],
  testEnvironment: 'node',
  transform: {},
  testTimeout: 180_000,
  // Each file runs in its own worker (a child process by default; `workerThreads: true` via
  // LEAKHUNT_JEST_THREADS=1): assertNoLeak measures the heap of the thread it runs in.
  workerThreads: process.env.LEAKHUNT_JEST_THREADS === '1',
};
