#!/usr/bin/env node
// Makes sure the tests' Node binaries are there before `npm test` runs (CI: .ci/run): Node 20, 22 and
// 24, found or fetched exactly as the tests do, by test/helpers/node-binaries.ts (the pinned versions
// and integrity live there, nowhere else) into ${LEAKHUNT_CACHE_DIR:-~/.cache/leakhunt}/node.
// Needs the build (`npm ci` runs it through `prepare`). Exits 1, with the reason, if a major is missing.
import { existsSync } from 'node:fs';

const helper = new URL('../dist/test/helpers/node-binaries.js', import.meta.url);
if (!existsSync(helper)) {
  console.error('dist/test/helpers/node-binaries.js is missing: run `npm run build` first');
  process.exit(2);
}
const { nodeBinaryInfo, PINNED_VERSIONS } = await import(helper.href);

let status = 0;
for (const major of [20, 22, 24]) {
  const started = Date.now();
  const info = nodeBinaryInfo(major);
  const ms = Date.now() - started;
  if (info.path === undefined) {
    console.error(`Node ${major}: missing — ${info.reason}`);
    status = 1;
  } else {
    console.log(`Node ${major}: ${info.version} (${info.source}, pinned ${PINNED_VERSIONS[major]}) ${info.path} [${ms} ms]`);
  }
}
process.exit(status);
