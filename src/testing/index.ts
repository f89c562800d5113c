// `leakhunt/test`: keep a fixed leak fixed. `await assertNoLeak(fn)` in a node:test, vitest or jest
// test runs `fn` many times and fails with the growing class, its retainer chain and the fix.

export {
  assertNoLeak,
  LeakCheckTimeoutError,
  type AssertNoLeakOptions,
  type NoLeakResult,
  type UnitOfWork,
} from './assert-no-leak.js';
export { LeakAssertionError, type LeakReport, type LeakErrorData } from './leak-error.js';
export type { ChainHop, HopLabel } from '../analysis/chain-description.js';
