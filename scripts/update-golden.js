#!/usr/bin/env node
// Regenerates test/golden/expected/ from the built CLI (the only writer of those files; the golden test
// only reads them). Run through `npm run golden:update`, which builds first, then review the diff.
// Each case must still give its expected exit code, or nothing is written.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const cases = new URL('../dist/test/golden/golden-cases.js', import.meta.url);
if (!existsSync(cases)) {
  console.error('dist/test/golden/golden-cases.js is missing: run `npm run build` first (npm run golden:update does)');
  process.exit(2);
}
const { GOLDEN_DIR, prepareGoldenInputs, runGoldenCase } = await import(cases.href);

const inputs = prepareGoldenInputs();
let status = 0;
try {
  const outputs = [];
  for (const c of inputs.cases) {
    const r = await runGoldenCase(inputs, c);
    if (r.code !== c.code) {
      console.error(`${c.name}: leakhunt ${inputs.describe(c.args)} exited ${r.code}, expected ${c.code}; nothing written\n${r.stderr}`);
      status = 1;
    }
    outputs.push([c.name, r.output]);
  }
  if (status === 0) {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    for (const [name, output] of outputs) {
      const file = join(GOLDEN_DIR, name);
      const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
      writeFileSync(file, output);
      console.log(`${before === undefined ? 'created  ' : before === output ? 'unchanged' : 'updated  '} test/golden/expected/${name}`);
    }
  }
} finally {
  inputs.remove();
}
process.exit(status);
