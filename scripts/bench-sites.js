#!/usr/bin/env node
// `npm run bench:sites`: how often `attach --trace-allocations` names the line the user should change,
// run after run (issue 15). Not a test: the answer depends on which stacks V8 keeps, which varies from
// run to run (docs/allocation-sites.md, Limits), so it is a rate, measured here and quoted in the docs.
// Per fixture and Node major, N runs one at a time: the fixture free-running with its inspector opened
// by SIGUSR1 (--inspect-port=0), `leakhunt attach --snapshots 3 --counter … --every E --trace-allocations
// --json`, the top finding's first frame compared with the lines to change, found in the fixture's text
// (FIXTURES below): story A, the line with `new SearchClient(`; per-request-client, `new PulseClient(`
// or the function around it; the zoo's leaks, their `BUG` lines or the functions around them.
// One line per run on stdout (site, share, holder, grade: the line, its function, or WRONG), then the
// rate per fixture and Node.
//   node scripts/bench-sites.js [--runs 5] [--nodes 20,22,24] [--fixtures a,pulse,zoo | a,listener,…]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runCli } from '../dist/test/helpers/cli.js';
import { enclosingFunctionLine, lineOf } from '../dist/test/helpers/fixture-lines.js';
import { startTarget } from '../dist/test/helpers/live-target.js';
import { requireNodeBinary } from '../dist/test/helpers/node-binaries.js';

const ROOT = new URL('..', import.meta.url).pathname;
const { values: opts } = parseArgs({ options: { runs: { type: 'string', default: '5' }, nodes: { type: 'string', default: '20,22,24' }, fixtures: { type: 'string', default: 'a,pulse,zoo' } } });
const log = (line) => process.stderr.write(`bench:sites: ${line}\n`);

// Per fixture: the lines to change (`exact`), and the first line of the function around them (`fn`):
// V8 records functions, not statements, so naming that function is right too, at a coarser grain. The
// zoo cases' lines are their `BUG` markers (or the call that makes the closure a marker is in): the zoo
// was written to test verdicts, but the site rules were adjusted after these runs: a development set too.
// `fn` defaults to the `function` declaration around the first line.
const zoo = (name, exact, { rate = 100, fn } = {}) => ({
  name: `zoo/${name}`, every: rate, rate,
  lines: (f) => { const lines = exact(f); return { exact: lines, fn: fn ? fn(f) : enclosingFunctionLine(f, lines[0]) }; },
});
const bug = (f) => lineOf(f, /\/\/ BUG/);
const FIXTURES = {
  a: { name: 'agents/context-capture', every: 6, rate: 50, lines: (f) => ({ exact: [lineOf(f, /new SearchClient\(/)] }) },
  pulse: { name: 'per-request-client', every: 100, rate: 100, lines: (f) => { const at = lineOf(f, /new PulseClient\(/); return { exact: [at], fn: enclosingFunctionLine(f, at) }; } },
  listener: zoo('listener-per-request', (f) => [lineOf(f, /settingsBus\.on\(/)]),
  'als-timer': zoo('als-timer-client', (f) => [bug(f)], { fn: (f) => lineOf(f, /return als\.run\(/) }),
  buffers: zoo('buffers-kept', (f) => [lineOf(f, /Buffer\.alloc\(/), bug(f)], { rate: 20 }),
  'closure-array': zoo('closure-array', (f) => [bug(f)]),
  interval: zoo('interval-closure', (f) => [lineOf(f, /setInterval\(/)]),
  'module-array': zoo('module-array', (f) => [bug(f)]),
  // The BUG line awaits a reply that never comes; what piles up first is the `{ resolve, reject }` record
  // each call stores in the gateway's map and never deletes: that line (in the Promise's executor) too.
  'never-settles': zoo('never-settles', (f) => [bug(f), lineOf(f, /new OrderRequest\(/), lineOf(f, /this\.waiting\.set\(/)], { fn: (f) => lineOf(f, /return new Promise\(/) }),
  'two-leaks': zoo('two-leaks', (f) => [lineOf(f, /BUG 1/), lineOf(f, /BUG 2/), lineOf(f, /new Session\(/)]),
};
const ZOO = ['listener', 'als-timer', 'buffers', 'closure-array', 'interval', 'module-array', 'never-settles', 'two-leaks'];

async function oneRun(fixture, node) {
  const file = join(ROOT, 'fixtures', `${fixture.name}.cjs`);
  // Attach once it serves (its counter is a number from then on), as the tests do.
  const target = await startTarget({ fixture: fixture.name, node, nodeArgs: ['--inspect-port=0'], rate: fixture.rate, serving: true, warmupMs: 2000 });
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-bench-sites-'));
  try {
    const r = await runCli(['attach', String(target.pid), '--snapshots', '3', '--counter', 'globalThis.__leakhuntRequests', '--every', String(fixture.every),
      '--interval', '120s', '--sample-every', '250ms', '--out', join(dir, 'out'), '--trace-allocations', '--json', '--no-progress'], { timeoutMs: 600_000 });
    let json;
    try {
      json = JSON.parse(r.stdout);
    } catch {
      return { grade: 'WRONG', text: `attach exited ${r.code} without JSON: ${r.stderr.trim().split('\n').at(-1) ?? ''}` };
    }
    const top = json.findings[0];
    const frame = top?.allocation?.frames?.[0];
    const expected = fixture.lines(file);
    const inFile = frame !== undefined && frame.url.endsWith(`fixtures/${fixture.name}.cjs`);
    const grade = inFile && expected.exact.includes(frame.line) ? 'line' : inFile && frame.line === expected.fn ? 'function' : 'WRONG';
    const where = frame ? `${frame.url.replace(/^.*\/(fixtures|node_modules)\//, '$1/')}:${frame.line} (${frame.function})` : 'no site';
    const holder = top?.allocation?.holder ? ` holder ${top.allocation.holder.className}${top.allocation.holder.owner ? ` → ${top.allocation.holder.owner}` : ''}` : '';
    const wanted = `expected line ${expected.exact.join(' or ')}${expected.fn ? ` (function: ${expected.fn})` : ''}`;
    return { grade, text: `${json.verdict}, top ${top?.className ?? '-'}, ${where}, share ${top?.allocation?.share?.toFixed(2) ?? '-'}${holder}; ${wanted}` };
  } finally {
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const runs = Math.max(1, Number(opts.runs));
const rows = [];
for (const key of opts.fixtures.split(',').flatMap((k) => (k === 'zoo' ? ZOO : [k]))) {
  const fixture = FIXTURES[key];
  if (!fixture) throw new Error(`unknown fixture ${key} (${Object.keys(FIXTURES).join(', ')}, or zoo for all the zoo's)`);
  for (const major of opts.nodes.split(',').map(Number)) {
    const node = requireNodeBinary(major).path;
    let line = 0, fn = 0;
    for (let i = 1; i <= runs; i++) {
      log(`${fixture.name} on Node ${major}, run ${i} of ${runs}`);
      const r = await oneRun(fixture, node);
      if (r.grade === 'line') line++;
      if (r.grade === 'function') fn++;
      console.log(`${fixture.name}\tNode ${major}\trun ${i}\t${r.grade}\t${r.text}`);
    }
    rows.push(`| ${fixture.name} | ${major} | ${line + fn} of ${runs} | ${line} | ${fn} |`);
  }
}
console.log(`\n| fixture | Node | right | the line | its function |\n|---|---:|---:|---:|---:|\n${rows.join('\n')}`);
