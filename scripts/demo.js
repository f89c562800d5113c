#!/usr/bin/env node
// `npm run demo`: the main job on a bundled example. Starts story A of the incidents
// (fixtures/agents/context-capture.cjs: a real LangGraph agent whose graph node creates a @grpc/grpc-js
// client per turn and never closes it, so the client's timers capture the turn's AsyncLocalStorage
// context) as an ordinary process — no --inspect — and runs `leakhunt attach` on it: preflight,
// inspector opened with SIGUSR1, three snapshots 40 turns apart (read from the agent's own request
// counter), the inspector closed again, then the diagnosis. Snapshots go to ./demo-out (owner-only).
// The agent is stopped at the end. `npm run demo -- --simple` runs the small dependency-free
// fixtures/agent-demo.cjs instead (a tracer Map that keeps every run).
import { spawn } from 'node:child_process';
import { mkdirSync, chmodSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'demo-out');
mkdirSync(out, { recursive: true, mode: 0o700 });
chmodSync(out, 0o700);
const captureDir = join(out, 'attach');
const reportFile = join(out, 'report.html');
rmSync(captureDir, { recursive: true, force: true });

const simple = process.argv.includes('--simple');
const fixture = simple ? 'fixtures/agent-demo.cjs' : 'fixtures/agents/context-capture.cjs';
// --inspect-port=0: the inspector SIGUSR1 opens takes a free port (9229 may be another process's).
const agent = spawn(process.execPath, ['--inspect-port=0', join(root, fixture)], {
  stdio: ['ignore', 'ignore', 'pipe'],
  env: { ...process.env, LEAKHUNT_FIXTURE_RATE: simple ? '200' : '40' },
});
// The agent's own stderr (its "Debugger listening on …" when leakhunt opens its inspector) is the
// target's, not leakhunt's: each of its lines is marked `agent | `.
let partial = '';
agent.stderr.setEncoding('utf8');
agent.stderr.on('data', (chunk) => {
  const lines = (partial + chunk).split('\n');
  partial = lines.pop() ?? '';
  for (const line of lines) process.stderr.write(`agent | ${line}\n`);
});
const stopAgent = () => {
  if (agent.exitCode === null) agent.kill('SIGTERM');
};
process.on('exit', stopAgent);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {}); // leakhunt (same group) handles Ctrl-C

await new Promise((resolve) => setTimeout(resolve, simple ? 1500 : 3000)); // imports and a first few turns
if (agent.exitCode !== null) {
  console.error(`demo: the agent fixture exited early (${agent.exitCode})`);
  process.exit(1);
}
const args = ['attach', String(agent.pid), '--snapshots', '3', '--counter', 'globalThis.__leakhuntRequests', '--every', simple ? '400' : '40',
  '--interval', '60s', '--sample-every', '500ms', '--out', captureDir, '--top', '3', '--groups', '3', '--html', reportFile];
console.error(`demo: a leaking agent runs as pid ${agent.pid} (its own stderr marked "agent | ")`);
const shown = args.map((a) => a.replace(`${root}/`, ''));
console.error(`demo: leakhunt ${shown.slice(0, 7).join(' ')}\n        ${shown.slice(7).join(' ')}`);
// Asynchronous, so that the agent's stderr keeps flowing (and is marked) while leakhunt runs.
const run = await new Promise((resolve) => {
  const child = spawn(process.execPath, [join(root, 'bin/leakhunt.js'), ...args], { stdio: 'inherit' });
  child.on('exit', (status) => resolve({ status }));
});
const alive = agent.exitCode === null;
stopAgent();
// attach exits 1 when its verdict is a leak: for this fixture that is the expected answer.
if (run.status === 1 || run.status === 0) {
  console.error(`demo: done (leakhunt exit ${run.status}${run.status === 1 ? ': a leak, as expected' : ''}); the agent ${alive ? 'still ran when leakhunt left' : 'was gone'}`);
  console.error(`demo: the HTML report: ${reportFile.replace(`${root}/`, '')}`);
  process.exit(0);
}
process.exit(run.status ?? 1);
