#!/usr/bin/env node
// Repeats test/e2e/story-b-time-paced (story B time-paced, no --counter: the async checkpoint backlog with
// long turns, and MemorySaver keeping every thread) --runs times and prints each run's verdicts and
// finding lines, then how many runs passed. Run after `npm run build`.
//   node scripts/story-b.js [--runs 5]
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

let values;
try {
  ({ values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } }));
} catch (err) {
  console.error(`story-b: ${err.message}\nusage: node scripts/story-b.js [--runs N]`);
  process.exit(2);
}
const runs = Number(values.runs);
if (!(runs >= 1)) {
  console.error('story-b: --runs takes a positive number');
  process.exit(2);
}
let passed = 0;
for (let i = 1; i <= runs; i++) {
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', 'dist/test/e2e/story-b-time-paced.test.js'], { encoding: 'utf8', maxBuffer: 1e8 });
  const lines = r.stdout.split('\n').filter((l) => l.includes('# story-b:')).map((l) => l.replace(/^.*# story-b: /, ''));
  const oks = r.stdout.split('\n').filter((l) => /^(not )?ok \d/.test(l));
  if (r.status === 0) passed++;
  console.log(`run ${i}: ${r.status === 0 ? 'pass' : 'FAIL'} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  for (const l of [...oks, ...lines]) console.log(`  ${l}`);
}
console.log(`${passed} of ${runs} runs gave both answers`);
process.exit(passed === runs ? 0 : 1);
