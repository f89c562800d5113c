// A real Chromium for the HTML report tests (a system one or the packaged one, find-chromium.ts, driven by
// playwright-core): one headless browser per test file with a fresh profile and no network features; each
// page opened in it counts its console errors and every request that is not for a file (all refused). A
// Chromium that cannot be found or started is a failure, never a skip.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { findChromium } from './find-chromium.js';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface OpenedPage {
  readonly page: Page;
  /** Console errors and uncaught page errors, as they come. */
  readonly errors: string[];
  /** Every request that was not for a file:// URL (all of them refused). */
  readonly network: string[];
  close(): Promise<void>;
}

export interface Chromium {
  /** Opens `file` (an absolute path) in a new page and waits for it to load. */
  open(file: string): Promise<OpenedPage>;
  close(): Promise<void>;
}

export async function startChromium(viewport = { width: 1200, height: 900 }): Promise<Chromium> {
  const found = await findChromium();
  const profile = mkdtempSync(join(tmpdir(), 'leakhunt-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, { executablePath: found.executablePath, env: found.env, headless: true, args: ARGS, viewport });
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
  return {
    async open(file) {
      const page = await context.newPage();
      const errors: string[] = [];
      const network: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.route('**', async (route) => {
        const url = route.request().url();
        if (url.startsWith('file://')) return route.continue();
        network.push(url);
        return route.abort();
      });
      await page.goto(`file://${file}`, { waitUntil: 'load' });
      return { page, errors, network, close: () => page.close() };
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** One page in a browser of its own, for a test that needs one page. */
export async function withChromiumPage<T>(file: string, body: (o: OpenedPage) => Promise<T>): Promise<T> {
  const browser = await startChromium();
  try {
    return await body(await browser.open(file));
  } finally {
    await browser.close();
  }
}
