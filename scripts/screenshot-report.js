#!/usr/bin/env node
// Screenshots an HTML report for the README: `node scripts/screenshot-report.js [report.html] [out.png]`
// (default: the demo's demo-out/report.html → test/artifacts/demo-report.png). The tests' Chromium
// (dist/test/helpers/find-chromium.js: a system one or the packaged one; run `npm run build` first) through
// playwright-core, a fresh profile, every request that is not the file refused; the first finding's
// chain opened so the picture shows a chain's hops.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { findChromium } from '../dist/test/helpers/find-chromium.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const file = resolve(process.argv[2] ?? join(root, 'demo-out/report.html'));
const png = resolve(process.argv[3] ?? join(root, 'test/artifacts/demo-report.png'));
const found = await findChromium();
const profile = mkdtempSync(join(tmpdir(), 'leakhunt-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: found.executablePath,
  env: found.env,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1100, height: 1400 },
});
try {
  await context.route('**', (route) => (route.request().url().startsWith('file://') ? route.continue() : route.abort()));
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`file://${file}`, { waitUntil: 'load' });
  await page.locator('#finding-1 details.chain summary').click();
  await page.screenshot({ path: png });
  console.error(`screenshot: ${png}`);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
