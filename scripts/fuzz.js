#!/usr/bin/env node
// `npm run fuzz`: the seeded snapshot fuzzer (test/helpers/fuzz/fuzz-run.ts) at full length.
//   node scripts/fuzz.js [--seed N] [--cases 10000] [--from K] [--cli-every 50] [--keep DIR] [--snapshot FILE]
// Prints the seed first (a failing run is replayed with the same --seed; one case with --from K --cases 1),
// then the counts, and every failure with its case number, mutation and class. Exit 1 on any failure.
// Needs the build (`npm run fuzz` builds first).

import { mkdirSync } from 'node:fs';
import { runFuzz } from '../dist/test/helpers/fuzz/fuzz-run.js';
import { freshSeed } from '../dist/test/helpers/fuzz/prng.js';

function parseArgs(argv) {
  const o = { seed: undefined, cases: 10_000, from: 0, cliEvery: 50, keep: undefined, snapshot: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    const int = () => {
      const v = Number(value());
      if (!Number.isInteger(v) || v < 0) usage(`${a} takes a whole number`);
      return v;
    };
    if (a === '--seed') o.seed = int();
    else if (a === '--cases') o.cases = int();
    else if (a === '--from') o.from = int();
    else if (a === '--cli-every') o.cliEvery = int();
    else if (a === '--keep') o.keep = value();
    else if (a === '--snapshot') o.snapshot = value();
    else usage(`unknown argument ${a}`);
  }
  return o;
}

function usage(problem) {
  console.error(`fuzz: ${problem}\nusage: node scripts/fuzz.js [--seed N] [--cases N] [--from K] [--cli-every N] [--keep DIR] [--snapshot FILE]`);
  process.exit(2);
}

const o = parseArgs(process.argv.slice(2));
const seed = o.seed ?? freshSeed();
console.log(`fuzz: seed ${seed}, ${o.cases} cases from case ${o.from}, every ${o.cliEvery || 'no'}th through the CLI`);
if (o.keep) mkdirSync(o.keep, { recursive: true, mode: 0o700 });
const start = Date.now();
const report = await runFuzz({
  seed,
  cases: o.cases,
  from: o.from,
  cliEvery: o.cliEvery,
  keepDir: o.keep,
  realSnapshot: o.snapshot,
  onProgress: (done, r) => console.log(`fuzz: ${done} cases, ${r.cliCases} through the CLI, ${r.failures.length} failures, ${Math.round((Date.now() - start) / 1000)} s`),
});

const classes = new Map();
for (const f of report.failures) {
  const key = `${f.via}: ${f.problem}`;
  classes.set(key, [...(classes.get(key) ?? []), f]);
}
console.log(`fuzz: seed ${seed}: ${report.cases} cases (${report.cliCases} through the CLI) in ${(report.ms / 1000).toFixed(1)} s; `
  + `in-process outcomes ${JSON.stringify(report.outcomes)}; slowest ${report.slowestCase}: ${report.maxCaseMs} ms; `
  + `CLI peak RSS ${(report.maxCliPeakRssBytes / 2 ** 20).toFixed(0)} MiB`);
const byFirst = {};
for (const [kind, n] of Object.entries(report.mutations)) {
  const first = kind.split('+')[0];
  byFirst[first] = (byFirst[first] ?? 0) + n;
}
console.log(`fuzz: cases by (first) mutation ${JSON.stringify(byFirst)}`);
console.log(`fuzz: ${report.failures.length} failures in ${classes.size} classes`);
for (const [key, list] of classes) {
  const first = list[0];
  console.log(`\n  ${list.length} × ${key}`);
  console.log(`    first: case ${first.caseNumber} (${first.command}, base ${first.base}, mutation ${first.mutation})${first.savedAs ? `, input ${first.savedAs}` : ''}`);
  const base = report.baseSnapshot ?? o.snapshot;
  console.log(`    replay: node scripts/fuzz.js --seed ${seed} --from ${first.caseNumber} --cases 1${base ? ` --snapshot ${base}` : ' (rerun with --keep DIR to keep the base snapshot a replay needs)'}`);
  console.log(first.detail.split('\n').slice(0, 8).map((l) => `    | ${l}`).join('\n'));
}
process.exitCode = report.failures.length > 0 ? 1 : 0;
