#!/usr/bin/env node
// Repeats test/e2e/real-programs (the three services of fixtures/real-programs/, attached time-paced as a
// user would) --runs times at --interval and prints each run's verdicts and findings, then how many runs
// gave every answer. Run after `npm run build`.
//   node scripts/real-programs.js [--runs 5] [--interval 15s] [--only b1|b2|n]
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const USAGE = 'usage: node scripts/real-programs.js [--runs N] [--interval 15s|1m] [--only b1|b2|n]';
let values;
try {
  ({ values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, interval: { type: 'string', default: '15s' }, only: { type: 'string' } } }));
} catch (err) {
  console.error(`real-programs: ${err.message}\n${USAGE}`);
  process.exit(2);
}
const runs = Number(values.runs);
if (!(runs >= 1)) {
  console.error(`real-programs: --runs takes a positive number\n${USAGE}`);
  process.exit(2);
}
const names = { b1: '^b1,', b2: '^b2,', n: '^n,' };
if (values.only !== undefined && !(values.only in names)) {
  console.error(`real-programs: --only takes b1, b2 or n\n${USAGE}`);
  process.exit(2);
}
const filter = values.only ? ['--test-name-pattern', names[values.only]] : [];
let passed = 0;
for (let i = 1; i <= runs; i++) {
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', ...filter, 'dist/test/e2e/real-programs.test.js'], {
    encoding: 'utf8', maxBuffer: 1e8, env: { ...process.env, LEAKHUNT_REAL_INTERVAL: values.interval },
  });
  const lines = r.stdout.split('\n').filter((l) => l.includes('# real:')).map((l) => l.replace(/^.*# real: /, ''));
  const oks = r.stdout.split('\n').filter((l) => /^(not )?ok \d/.test(l));
  if (r.status === 0) passed++;
  console.log(`run ${i}: ${r.status === 0 ? 'pass' : 'FAIL'} (${((Date.now() - started) / 1000).toFixed(0)} s, --interval ${values.interval})`);
  for (const l of [...oks, ...lines]) console.log(`  ${l}`);
}
console.log(`${passed} of ${runs} runs gave every answer`);
process.exit(passed === runs ? 0 : 1);
