#!/usr/bin/env node
// `npm run demo`: the main job on a bundled example. Runs the leaking agent fixture
// (fixtures/agent-demo.cjs) until it has served some turns, has it write a heap snapshot, then runs
// `leakhunt analyze` on that snapshot. Files go to ./demo-out (owner-only).
import { spawnSync } from 'node:child_process';
import { mkdirSync, chmodSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'demo-out');
mkdirSync(out, { recursive: true, mode: 0o700 });
chmodSync(out, 0o700);
const snapshot = join(out, 'agent-demo.heapsnapshot');

console.error('demo: running fixtures/agent-demo.cjs (an agent loop whose tracer keeps every run) for 2,000 turns…');
const fixture = spawnSync(process.execPath, [join(root, 'fixtures/agent-demo.cjs')], {
  stdio: 'inherit',
  env: { ...process.env, LEAKHUNT_SNAPSHOT_AFTER: '2000', LEAKHUNT_SNAPSHOT_PATH: snapshot, LEAKHUNT_FIXTURE_RATE: '100000' },
  timeout: 120_000,
});
if (fixture.status !== 0) {
  console.error(`demo: the fixture failed (exit ${fixture.status ?? fixture.signal})`);
  process.exit(1);
}
console.error(`demo: snapshot written to ${snapshot}; now: leakhunt analyze ${snapshot} --top 10\n`);
const run = spawnSync(process.execPath, [join(root, 'bin/leakhunt.js'), 'analyze', snapshot, '--top', '10'], { stdio: 'inherit' });
process.exit(run.status ?? 1);
