// assertNoLeak tracks allocations during its iterations: a failure names the function of the caller's
// own code that made the leaked objects (its file and line, found in this file's text at test time),
// in the error's data and in its message.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assertNoLeak, LeakAssertionError } from '../../src/testing/index.js';

class SessionRecord {
  readonly payload: number[];
  constructor(readonly id: number) {
    this.payload = Array.from({ length: 40 }, (_, k) => k + id);
  }
}
const sessions: SessionRecord[] = [];

function addSession(i: number): void {
  sessions.push(new SessionRecord(i));
}

test('a failing assertNoLeak names the line that made the leaked objects', { timeout: 120_000 }, async () => {
  const file = fileURLToPath(import.meta.url);
  const line = readFileSync(file, 'utf8').split('\n').findIndex((l) => l.startsWith('function addSession(')) + 1;
  assert.ok(line > 0);
  const err = await assertNoLeak(addSession, { iterations: 40 }).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof LeakAssertionError, `the leak is found: ${String(err)}`);
  const leak = err.leaks.find((l) => l.className === 'SessionRecord');
  assert.ok(leak, err.message);
  const frame = leak.allocation?.frames[0];
  assert.equal(frame?.url, import.meta.url, JSON.stringify(leak.allocation)); // an ES module: V8 names it by URL
  assert.equal(frame?.function, 'addSession');
  assert.equal(frame?.line, line);
  assert.ok(err.message.includes(`${import.meta.url}:${line}`), err.message);
  sessions.length = 0;
});
