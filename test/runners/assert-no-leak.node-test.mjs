// Run by test/testing/runners-node.test.ts with `node --test` of Node 20, 22 and 24. The last test
// fails on purpose: the runner test reads its failure from the TAP output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoLeak } from 'leakhunt/test';
import { cleanRun, leakyHeartbeat, options } from './work.mjs';

test('a clean function passes', async () => {
  await assertNoLeak(cleanRun, options);
});

test('a timer per request that captured the AsyncLocalStorage store is named with the store', async () => {
  await assert.rejects(assertNoLeak(leakyHeartbeat, options), (err) => {
    assert.ok(err instanceof assert.AssertionError);
    assert.match(err.message, /RequestContext @\d+ .*⟵ AsyncLocalStorage store.*captured by a timer/);
    assert.match(err.message, /in Timeout @\d+/);
    assert.match(err.message, /fix: a Timeout created inside a request's AsyncLocalStorage context/);
    return true;
  });
});

test('a leak fails the test (expected to fail)', async () => {
  await assertNoLeak(leakyHeartbeat, options);
});
