// issue 13, defect 2: the inspector leakhunt closed must stay closed. Node answers one SIGUSR1 by two
// routes (a V8 interrupt and a libuv async handle); when the target is busy in one long callback, the
// interrupt opens the inspector and the async request waits for the loop's next poll. leakhunt used to
// close the inspector from a timer, and a timer can fire before that poll: the late request then opened
// the inspector again on the same port, for good (story B of attach-agents did this in most runs;
// docs/inspector-close.md). Here the target is busy in a setImmediate callback from before the signal
// until a second after the snapshot file is complete, so the whole session runs inside that callback,
// the way a loaded agent's does; once it is idle again, nothing may listen and Node's stderr must show
// the inspector opened once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { sleep, startTarget, waitFor } from '../helpers/live-target.js';

/** Busy (but answering the inspector through V8 interrupts) until DONE_FILE has existed for a second; 60 s at most. */
const BUSY = `
const fs = require('fs');
globalThis.keep = [];
setInterval(() => keep.push({ n: keep.length }), 50);
setImmediate(() => {
  process.stderr.write('busy\\n');
  const file = process.env.DONE_FILE, started = Date.now();
  let seen = 0, checked = 0;
  for (;;) {
    const now = Date.now();
    if (now - started > 60000 || (seen && now - seen > 1000)) break;
    if (!seen && now - checked > 5) { checked = now; if (fs.existsSync(file)) seen = now; }
  }
  process.stderr.write('idle\\n');
});`;

test('the inspector closed while the target was busy stays closed once the target is idle again', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-busy-close-'));
  const file = join(dir, 'busy.heapsnapshot');
  const target = await startTarget({ code: BUSY, nodeArgs: ['--inspect-port=0'], env: { DONE_FILE: file } });
  try {
    await waitFor(() => /^busy$/m.test(target.stderr()) || !target.alive(), 10_000, 'the target to be busy');
    const r = await runCli(['snapshot', String(target.pid), '-o', file, '--json', '--no-progress'], { timeoutMs: 90_000 });
    assert.equal(r.code, 0, `snapshot ran; stderr:\n${r.stderr}`);
    await waitFor(() => /^idle$/m.test(target.stderr()) || !target.alive(), 70_000, 'the target to be idle again');
    // The late request runs at the loop's first poll after the busy callback: a few turns of the 50 ms timer.
    await sleep(1000);
    assert.ok(target.alive(), `the target still runs; its stderr:\n${target.stderr()}`);
    assert.deepEqual(target.listeningPorts(), [], `nothing listens once the target is idle; its stderr:\n${target.stderr()}`);
    const opened = target.stderr().match(/^Debugger listening on /gm) ?? [];
    assert.equal(opened.length, 1, `the inspector opened once; its stderr:\n${target.stderr()}`);
  } finally {
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
