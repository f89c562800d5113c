// assertNoLeak tracks allocations during its iterations: a failure names the function of the caller's
// own code that made the leaked objects (its file and line, found in this file's text at test time),
// in the error's data and in its message; when a closure of the caller's hooks them onto something
// older (a listener), the line that makes the closure; when that closure is the machinery of an object
// made per call (a timer it schedules for itself), where that object is made.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assertNoLeak, LeakAssertionError } from '../../src/testing/index.js';
import { lineOf } from '../helpers/fixture-lines.js';

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


/** This file as V8 runs it (the compiled test), whose lines the sites name. */
const THIS_FILE = fileURLToPath(import.meta.url);

const settings = new EventEmitter();
settings.setMaxListeners(0);
class Subscriber {
  readonly prefs: number[];
  constructor(readonly id: number) {
    this.prefs = Array.from({ length: 40 }, (_, k) => k * id);
  }
}

function subscribe(i: number): void {
  const sub = new Subscriber(i);
  settings.on('changed', () => sub.prefs.push(0)); // the line to change
}

test('a listener per call: the site is the on(...) line, not the function\'s first line', { timeout: 120_000 }, async () => {
  const err = await assertNoLeak(subscribe, { iterations: 40 }).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof LeakAssertionError, `the leak is found: ${String(err)}`);
  // The listener leads (one per call), its Subscriber held with it.
  const [leak] = err.leaks;
  assert.ok(leak, err.message);
  const frame = leak.allocation?.frames[0];
  assert.equal(frame?.line, lineOf(THIS_FILE, /settings\.on\('changed'/), `${leak.className}: ${JSON.stringify(leak.allocation)}`);
  assert.equal(frame?.function, 'subscribe');
  settings.removeAllListeners();
});

class Heartbeat {
  timer: NodeJS.Timeout | undefined;
  readonly log: number[] = Array.from({ length: 40 }, (_, k) => k);
  start(): void {
    // Its own machinery: the arrow runs for `this`. Unref'd: the test process may end with them.
    this.timer = setInterval(() => this.log.push(1), 600_000).unref();
  }
}

function startHeartbeat(): void {
  new Heartbeat().start(); // the line to change: one per call, never stopped, held by its timer only
}

test('a timer an object made per call schedules for itself: the site is where the object is made, not the timer\'s line', { timeout: 120_000 }, async () => {
  const err = await assertNoLeak(() => startHeartbeat(), { iterations: 40 }).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof LeakAssertionError, `the leak is found: ${String(err)}`);
  const frames = err.leaks.map((l) => `${l.className}: ${JSON.stringify(l.allocation)}`).join('\n');
  const timerLine = lineOf(THIS_FILE, /this\.timer = setInterval\(/);
  assert.ok(err.leaks.every((l) => l.allocation?.frames[0]?.line !== timerLine), `no finding names the timer's line:\n${frames}`);
  const [leak] = err.leaks;
  assert.equal(leak?.allocation?.frames[0]?.function, 'startHeartbeat', frames);
});
