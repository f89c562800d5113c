#!/usr/bin/env node
// `npm run demo`: the main job on a bundled example. Starts story A of the incidents
// (fixtures/agents/context-capture.cjs: a real LangGraph agent whose graph node creates a @grpc/grpc-js
// client per turn and never closes it, so the client's timers capture the turn's AsyncLocalStorage
// context) as an ordinary process — no --inspect — and runs `leakhunt attach` on it: preflight,
// inspector opened with SIGUSR1, three snapshots 40 turns apart (read from the agent's own request
// counter), the inspector closed again, then the diagnosis and the HTML report. Files go to ./demo-out
// (owner-only). The agent is stopped at the end. `npm run demo -- --simple` runs the small
// dependency-free fixtures/agent-demo.cjs instead (a tracer Map that keeps every run).
//
// What the terminal shows is leakhunt's own output (stdout and stderr) between one `demo:` line before
// and one after. The agent's stderr (Node's "Debugger listening on …" when leakhunt opens its inspector)
// is the target's, not leakhunt's: it goes to demo-out/agent.log, named in the first line, and
// its last lines are shown only if the agent ends early. test/e2e/demo-output.test.ts holds the whole
// output to 60 lines at 100 columns with the answer in the first 20: `--findings 1` shows the leak's
// finding in full and keeps a second cause or a backlog found beside it (about 1 run in 10) to a line.
import { spawn } from 'node:child_process';
import { mkdirSync, chmodSync, rmSync, openSync, closeSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, relative } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const shown = (path) => relative(process.cwd(), path) || '.';
const out = join(root, 'demo-out');
mkdirSync(out, { recursive: true, mode: 0o700 });
chmodSync(out, 0o700);
const captureDir = join(out, 'attach');
const reportFile = join(out, 'report.html');
const agentLog = join(out, 'agent.log');
rmSync(captureDir, { recursive: true, force: true });

const simple = process.argv.includes('--simple');
const fixture = simple ? 'fixtures/agent-demo.cjs' : 'fixtures/agents/context-capture.cjs';
const logFd = openSync(agentLog, 'w', 0o600);
// --inspect-port=0: the inspector SIGUSR1 opens takes a free port (9229 may be another process's).
const agent = spawn(process.execPath, ['--inspect-port=0', join(root, fixture)], {
  stdio: ['ignore', 'ignore', logFd],
  // A call in flight across a snapshot's pause must not fail by its deadline (fixtures/agents/lib/search-service.cjs).
  env: { ...process.env, LEAKHUNT_FIXTURE_RATE: simple ? '200' : '40', LEAKHUNT_SEARCH_DEADLINE_MS: '120000' },
});
closeSync(logFd);
const stopAgent = () => {
  if (agent.exitCode === null && agent.signalCode === null) agent.kill('SIGTERM');
};
/** The agent's last stderr lines, when it ended on its own (its log holds them all). */
const agentTail = () => readFileSync(agentLog, 'utf8').trimEnd().split('\n').slice(-8).map((l) => `agent | ${l}`).join('\n');
process.on('exit', stopAgent);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {}); // leakhunt (same group) handles Ctrl-C

const story = simple ? 'an agent loop whose tracer keeps every run' : 'a LangGraph agent leaking a gRPC client a turn';
console.error(`demo: pid ${agent.pid} is ${story} (its stderr: ${shown(agentLog)})`);
await new Promise((resolve) => setTimeout(resolve, simple ? 1500 : 3000)); // imports and a first few turns
if (agent.exitCode !== null) {
  console.error(`demo: the agent fixture exited early (${agent.exitCode}); its stderr:\n${agentTail()}`);
  process.exit(1);
}
const args = ['attach', String(agent.pid), '--counter', 'globalThis.__leakhuntRequests', '--every', simple ? '400' : '40', '--interval', '60s',
  '--sample-every', '500ms', '--top', '3', '--groups', '3', '--findings', '1', '--out', shown(captureDir), '--html', shown(reportFile)];
// Asynchronous, so that Ctrl-C reaches leakhunt while the demo waits.
const run = await new Promise((resolve) => {
  const child = spawn(process.execPath, [join(root, 'bin/leakhunt.js'), ...args], { stdio: 'inherit' });
  child.on('exit', (status) => resolve({ status }));
});
const alive = agent.exitCode === null && agent.signalCode === null;
stopAgent();
// attach exits 1 when its verdict is a leak: for this fixture that is the expected answer.
if (run.status === 1 || run.status === 0) {
  const as = run.status === 1 ? 'a leak, as expected' : 'NO leak: not what this agent should give';
  console.error(`demo: leakhunt exit ${run.status} (${as}); the agent ${alive ? 'ran until the end, now stopped' : `was gone; its stderr:\n${agentTail()}`}`);
  process.exit(run.status === 1 ? 0 : 1);
}
if (!alive) console.error(`demo: the agent ended during the run; its stderr:\n${agentTail()}`);
process.exit(run.status ?? 1);
