#!/usr/bin/env node
// Runs the leak zoo (fixtures/zoo/, see fixtures/README.md) repeatedly on Node 20 and 24 and tabulates how
// often the diagnosis gives the expected answer: each look-alike --repeat times (default 10), each leak
// --leak-repeat times (default 3). Prints a table on stdout, progress on stderr, and writes every run's
// answer (verdict, evidence, findings with their chains) as JSON to --out (default zoo-results.json).
// Uses the compiled case runner (dist/test/helpers/zoo.js): run through `npm run zoo`, which builds first.
// --across-processes: each run is three instances of the case, a snapshot of each at a different age and
// `leakhunt diff --across-processes` (test/helpers/zoo.ts runZooCaseAcross); backlog cases are left out
// (the mode cannot tell a backlog from a leak) and a warm-up is expected to read `none`.
//   node scripts/zoo.js [--repeat 10] [--leak-repeat 3] [--nodes 20,24] [--cases map-cache,lru] [--out file] [--across-processes]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const USAGE = 'usage: node scripts/zoo.js [--repeat N] [--leak-repeat N] [--nodes 20,24] [--cases a,b] [--out file] [--across-processes]';
let parsed;
try {
  parsed = parseArgs({
    options: {
      help: { type: 'boolean', short: 'h' },
      repeat: { type: 'string', default: '10' },
      'leak-repeat': { type: 'string', default: '3' },
      nodes: { type: 'string', default: '20,24' },
      cases: { type: 'string' },
      out: { type: 'string', default: 'zoo-results.json' },
      'across-processes': { type: 'boolean', default: false },
    },
  });
} catch (err) {
  console.error(`zoo: ${err.message}\n${USAGE}`);
  process.exit(2);
}
const { values } = parsed;
if (values.help) {
  console.log(`${USAGE}\n  e.g. node scripts/zoo.js --repeat 1 --cases lru,pool   (after npm run build)`);
  process.exit(0);
}
const repeat = Number(values.repeat);
const leakRepeat = Number(values['leak-repeat']);
const nodes = values.nodes.split(',').map(Number);
if (!(repeat >= 1) || !(leakRepeat >= 1) || nodes.some((n) => ![20, 22, 24].includes(n))) {
  console.error(USAGE);
  process.exit(2);
}

const { acrossProcessesExpectation, describeAnswer, judgeZooRun, loadZooCases, renderChain, runZooCase, runZooCaseAcross } = await import('../dist/test/helpers/zoo.js');
const across = values['across-processes'];
const filters = values.cases?.split(',').filter(Boolean);
const cases = loadZooCases()
  .filter((c) => !filters || filters.some((f) => c.name.includes(f)))
  .map((c) => (across ? { ...c, expect: acrossProcessesExpectation(c.expect) } : c))
  .filter((c) => c.expect !== undefined);
if (cases.length === 0) {
  console.error(`no zoo case matches ${values.cases}`);
  process.exit(2);
}

const started = Date.now();
const rows = [];
for (const node of nodes) {
  for (const c of cases) {
    const runs = c.expect.kind === 'lookalike' ? repeat : leakRepeat;
    const row = { case: c.name, kind: c.expect.kind, expected: c.expect.verdict, node, nodeVersion: undefined, runs: [] };
    rows.push(row);
    for (let k = 0; k < runs; k++) {
      let record;
      try {
        const run = across ? await runZooCaseAcross(c, node) : await runZooCase(c, node);
        row.nodeVersion = run.nodeVersion;
        const judgement = run.out ? judgeZooRun(c.expect, run.out, across ? undefined : run.exitCode) : { right: false, wrong: ['no answer'], unchecked: [] };
        const right = judgement.right && run.problems.length === 0;
        record = {
          right,
          verdict: run.out?.verdict ?? null,
          top: run.out?.findings[0]?.className ?? null,
          exitCode: run.exitCode,
          wrong: judgement.wrong,
          unchecked: judgement.unchecked,
          problems: run.problems,
          durationMs: run.durationMs,
          counters: run.out?.snapshots?.map((s) => s.counter ?? null) ?? [],
          evidence: run.out?.evidence ?? [],
          findings: (run.out?.findings ?? []).map((f) => ({ kind: f.kind, className: f.className, count: f.count, drained: f.drained, chain: renderChain(f.chain, 12), fix: f.fix })),
        };
        if (!right && run.out) process.stderr.write(`${describeAnswer(run.out).replace(/^/gm, '    ')}\n`);
      } catch (err) {
        record = { right: false, verdict: null, top: null, error: String(err?.message ?? err), wrong: [], problems: [], evidence: [], findings: [] };
      }
      row.runs.push(record);
      process.stderr.write(`zoo: ${c.name} node ${node} run ${k + 1}/${runs}: ${record.right ? 'right' : 'WRONG'} (${record.verdict ?? record.error}${record.top ? `, top ${record.top}` : ''})${record.wrong?.length ? ` — ${record.wrong.join('; ')}` : ''}\n`);
    }
  }
}

/** Distinct wrong answers of a row: "leak/CacheEntry ×2". */
function wrongAnswers(row) {
  const seen = new Map();
  for (const r of row.runs.filter((x) => !x.right)) {
    const key = r.error ? `error: ${r.error.slice(0, 40)}` : `${r.verdict}${r.top ? `/${r.top}` : ''}${r.problems.length ? ' (attach problem)' : ''}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].map(([k, n]) => `${k} ×${n}`).join(', ');
}

const header = ['case', 'kind', 'expected', 'node', 'runs', 'right', 'wrong answers seen'];
const table = rows.map((r) => [r.case, r.kind, r.expected, String(r.node), String(r.runs.length), String(r.runs.filter((x) => x.right).length), wrongAnswers(r) || '-']);
const widths = header.map((h, k) => Math.max(h.length, ...table.map((row) => row[k].length)));
const line = (cells) => cells.map((cell, k) => (k === cells.length - 1 ? cell : cell.padEnd(widths[k]))).join('  ');
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of table) console.log(line(row));
const total = rows.reduce((n, r) => n + r.runs.length, 0);
const right = rows.reduce((n, r) => n + r.runs.filter((x) => x.right).length, 0);
console.log(`\n${right}/${total} runs right in ${((Date.now() - started) / 1000).toFixed(0)} s; results in ${values.out}`);

writeFileSync(values.out, `${JSON.stringify({ startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, repeat, leakRepeat, nodes, acrossProcesses: across, rows }, null, 2)}\n`);
