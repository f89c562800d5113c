#!/usr/bin/env node
// `npm run bench:sites`: how often `attach --trace-allocations` names the line the user should change,
// run after run (issue 15). Not a test: the answer depends on which stacks V8 keeps, which varies from
// run to run (docs/allocation-sites.md, Limits), so it is a rate, measured here and quoted in the docs.
// Per fixture and Node major, N runs one at a time: the fixture free-running with its inspector opened
// by SIGUSR1 (--inspect-port=0), `leakhunt attach --snapshots 3 --counter … --every E --trace-allocations
// --json`, the top finding's first frame compared with the expected line, found in the fixture's text:
//   story A (agents/context-capture): the line with `new SearchClient(`;
//   per-request-client: the line of the function that encloses `new PulseClient(`;
//   zoo listener-per-request: the line of the `settingsBus.on(` call (the listener made there holds them).
// One line per run on stdout (site, share, holder), then the rate per fixture and Node.
//   node scripts/bench-sites.js [--runs 5] [--nodes 20,22,24] [--fixtures a,pulse,listener]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { enclosingFunctionLine, lineOf } from '../dist/test/helpers/fixture-lines.js';
import { startTarget } from '../dist/test/helpers/live-target.js';
import { requireNodeBinary } from '../dist/test/helpers/node-binaries.js';

const ROOT = new URL('..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin', 'leakhunt.js');
const { values: opts } = parseArgs({ options: { runs: { type: 'string', default: '5' }, nodes: { type: 'string', default: '20,22,24' }, fixtures: { type: 'string', default: 'a,pulse,listener' } } });
const log = (line) => process.stderr.write(`bench:sites: ${line}\n`);

const FIXTURES = {
  a: { name: 'agents/context-capture', every: 6, rate: 50, expected: (f) => lineOf(f, /new SearchClient\(/) },
  listener: { name: 'zoo/listener-per-request', every: 100, rate: 100, expected: (f) => lineOf(f, /settingsBus\.on\(/) },
  pulse: { name: 'per-request-client', every: 100, rate: 100, expected: (f) => enclosingFunctionLine(f, lineOf(f, /new PulseClient\(/)) },
};

async function oneRun(fixture, node) {
  const file = join(ROOT, 'fixtures', `${fixture.name}.cjs`);
  // Attach once it serves (its counter is a number from then on), as the tests do.
  const target = await startTarget({ fixture: fixture.name, node, nodeArgs: ['--inspect-port=0'], rate: fixture.rate, serving: true, warmupMs: 2000 });
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-bench-sites-'));
  try {
    const args = [BIN, 'attach', String(target.pid), '--snapshots', '3', '--counter', 'globalThis.__leakhuntRequests', '--every', String(fixture.every),
      '--interval', '120s', '--sample-every', '250ms', '--out', join(dir, 'out'), '--trace-allocations', '--json', '--no-progress'];
    const cli = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    cli.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    cli.stderr.setEncoding('utf8').on('data', (d) => (err = (err + d).slice(-2000)));
    const code = await new Promise((resolve) => cli.on('exit', resolve));
    let json;
    try {
      json = JSON.parse(out);
    } catch {
      return { ok: false, text: `attach exited ${code} without JSON: ${err.trim().split('\n').at(-1) ?? ''}` };
    }
    const top = json.findings[0];
    const frame = top?.allocation?.frames?.[0];
    const expected = fixture.expected(file);
    const ok = frame !== undefined && frame.url.endsWith(`fixtures/${fixture.name}.cjs`) && frame.line === expected;
    const where = frame ? `${frame.url.replace(/^.*\/(fixtures|node_modules)\//, '$1/')}:${frame.line} (${frame.function})` : 'no site';
    const holder = top?.allocation?.holder ? ` holder ${top.allocation.holder.className}${top.allocation.holder.owner ? ` → ${top.allocation.holder.owner}` : ''}` : '';
    return { ok, text: `${json.verdict}, top ${top?.className ?? '-'}, ${where}, share ${top?.allocation?.share?.toFixed(2) ?? '-'}${holder}; expected line ${expected}` };
  } finally {
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const runs = Math.max(1, Number(opts.runs));
const rows = [];
for (const key of opts.fixtures.split(',')) {
  const fixture = FIXTURES[key];
  if (!fixture) throw new Error(`unknown fixture ${key} (a, pulse, listener)`);
  for (const major of opts.nodes.split(',').map(Number)) {
    const node = requireNodeBinary(major).path;
    let right = 0;
    for (let i = 1; i <= runs; i++) {
      log(`${fixture.name} on Node ${major}, run ${i} of ${runs}`);
      const r = await oneRun(fixture, node);
      if (r.ok) right++;
      console.log(`${fixture.name}\tNode ${major}\trun ${i}\t${r.ok ? 'right' : 'WRONG'}\t${r.text}`);
    }
    rows.push(`| ${fixture.name} | ${major} | ${right} of ${runs} |`);
  }
}
console.log(`\n| fixture | Node | the expected line |\n|---|---:|---:|\n${rows.join('\n')}`);
