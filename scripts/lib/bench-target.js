// A fixture run as a bench target: started free-running with its inspector on an ephemeral port, reached
// over the inspector the way leakhunt reaches it (chrome-remote-interface from this process), warmed up,
// and killed. Shared by the overhead benches (scripts/bench-attach.js --only overhead,
// scripts/bench-tracking.js, scripts/bench-profile.js through scripts/lib/overhead-windows.js).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import CDP from 'chrome-remote-interface';

const ROOT = new URL('../..', import.meta.url).pathname;

/** The story fixtures by short name; any other name is a path under fixtures/ without `.cjs`. */
export const BENCH_FIXTURES = {
  a: { file: 'agents/context-capture', rate: 1000, what: 'story A (LangGraph agent, grpc client per turn)' },
  c: { file: 'agents/callback-retention', rate: 1000, what: 'story C (LangGraph agent, callback keeps updates)' },
  zoo: { file: 'zoo/listener-per-request', rate: 2000, what: 'zoo listener-per-request (plain Node)' },
};

/** `a` → story A's entry; `agents/context-capture` → the same entry; an unknown path → rate 1000. */
export function benchFixture(name) {
  const known = BENCH_FIXTURES[name] ?? Object.values(BENCH_FIXTURES).find((f) => f.file === name);
  return { key: name, ...(known ?? { file: name, rate: 1000, what: name }) };
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function evaluate(client, expression) {
  const r = await client.Runtime.evaluate({ expression, returnByValue: true, includeCommandLineAPI: true });
  if (r.exceptionDetails) throw new Error(`evaluation failed: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
  return r.result.value;
}

/**
 * Starts `fixture` (benchFixture's shape) under `node`, serving as fast as it goes up to its rate, and
 * connects to its inspector. `stop()` closes the connection and SIGKILLs the target (and waits for it).
 */
export async function startBenchTarget(node, fixture) {
  const child = spawn(node, ['--inspect-port=0', '--inspect', join(ROOT, 'fixtures', `${fixture.file}.cjs`)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    // A story A turn under allocation tracking is 10–40× slower: its grpc call's 5 s deadline would end
    // the agent (fixtures/agents/lib/search-service.cjs), as the tests' and the demo's targets set too.
    env: { PATH: process.env.PATH ?? '', LEAKHUNT_FIXTURE_RATE: String(fixture.rate), LEAKHUNT_SEARCH_DEADLINE_MS: '120000' },
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stderr = [];
  let client;
  const stop = async () => {
    await client?.close().catch(() => {});
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  try {
    const port = await new Promise((resolve, reject) => {
      let text = '';
      child.stderr.setEncoding('utf8').on('data', (d) => {
        text += d;
        stderr.push(d);
        const m = /ws:\/\/127\.0\.0\.1:(\d+)\//.exec(text);
        if (m) resolve(Number(m[1]));
      });
      exited.then(({ code, signal }) => reject(new Error(`${fixture.file} exited (${code ?? signal}) before its inspector listened:\n${text}`)));
    });
    client = await CDP({ host: '127.0.0.1', port });
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    pid: child.pid,
    client,
    fixture,
    nodeVersion: await evaluate(client, 'process.version'),
    /** Why it is gone when it exited by itself (with its last stderr), else undefined; waits a moment for the exit. */
    died: async () => {
      await Promise.race([exited, sleep(500)]);
      return child.exitCode !== null || child.signalCode !== null ? `${fixture.file} exited by itself (${child.exitCode ?? child.signalCode}): ${stderr.join('').slice(-2000)}` : undefined;
    },
    stop,
  };
}

/** Waits until the target served `requests` turns and `minMs` passed (modules loaded, JIT settled). */
export async function warmUp(target, { requests = 30, minMs = 3000, timeoutMs = 120_000 } = {}) {
  const t0 = Date.now();
  for (;;) {
    const served = (await evaluate(target.client, 'globalThis.__leakhuntRequests')) ?? 0;
    if (served >= requests && Date.now() - t0 >= minMs) return served;
    if (Date.now() - t0 > timeoutMs) throw new Error(`${target.fixture.file} served ${served} of ${requests} warm-up turns in ${timeoutMs} ms`);
    await sleep(250);
  }
}
