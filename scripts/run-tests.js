#!/usr/bin/env node
// Runs the compiled test files under dist/test with node's own runner. Node 20's `--test` takes no
// globs, so the files are listed here. Pass substrings to run only the files matching any of them:
//   node scripts/run-tests.js parser
//   node scripts/run-tests.js /unit/ /golden/     (npm run test:quick)
// The files that run real agents (several LangGraph processes, snapshots, analyses each) run after the
// others and one at a time: beside each other on 2 cores they starve the agents they attach to.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('../dist/test/', import.meta.url).pathname;
const filters = process.argv.slice(2);
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    // The filter matches the path under dist/test only: a checkout's own path (e.g. a worktree named
    // wt-zoo) must not match every file.
    else if (name.endsWith('.test.js') && (filters.length === 0 || filters.some((f) => `/${relative(root, p)}`.includes(f)))) files.push(p);
  }
})(root);
if (files.length === 0) {
  console.error(`no test files under ${root}${filters.length ? ` matching ${filters.map((f) => `"${f}"`).join(' or ')}` : ''}`);
  process.exit(1);
}
const ALONE = ['/e2e/agent-fixtures.test.js', '/e2e/attach-agents.test.js', '/e2e/zoo.test.js', '/e2e/demo-output.test.js', '/e2e/profile.test.js', '/e2e/eval-sample.test.js'];
const alone = files.filter((f) => ALONE.some((a) => f.endsWith(a)));
const together = files.filter((f) => !alone.includes(f));
let status = 0;
for (const [group, concurrency] of [[together, 2], [alone, 1]]) {
  if (group.length === 0) continue;
  const r = spawnSync(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...group], { stdio: 'inherit' });
  if (r.status !== 0) status = r.status ?? 1;
}
process.exit(status);
