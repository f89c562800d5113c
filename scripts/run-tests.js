#!/usr/bin/env node
// Runs the compiled test files under dist/test with node's own runner. Node 20's `--test` takes no
// globs, so the files are listed here. Pass a substring to run only matching files while working:
//   node scripts/run-tests.js parser
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('../dist/test/', import.meta.url).pathname;
const filter = process.argv[2];
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.test.js') && (!filter || p.includes(filter))) files.push(p);
  }
})(root);
if (files.length === 0) {
  console.error(`no test files under ${root}${filter ? ` matching "${filter}"` : ''}`);
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
