// A real Chromium for the HTML report tests (Debian's /usr/bin/chromium, driven by playwright-core): a
// fresh profile each time, no network features, every request the page makes counted. A missing
// Chromium is a failure (.ci/run installs it), never a skip.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.LEAKHUNT_CHROMIUM ?? '/usr/bin/chromium';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface OpenedPage {
  readonly page: Page;
  /** Console errors and uncaught page errors, as they come. */
  readonly errors: string[];
  /** Every request that was not for a file:// URL (all of them refused). */
  readonly network: string[];
  close(): Promise<void>;
}

/** Opens `file` (an absolute path) in a fresh headless Chromium and waits for it to load. */
export async function openInChromium(file: string, viewport = { width: 1200, height: 900 }): Promise<OpenedPage> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does)`);
  const profile = mkdtempSync(join(tmpdir(), 'leakhunt-chromium-'));
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport });
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    const network: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await context.route('**', async (route) => {
      const url = route.request().url();
      if (url.startsWith('file://')) return route.continue();
      network.push(url);
      return route.abort();
    });
    await page.goto(`file://${file}`, { waitUntil: 'load' });
    const opened = context;
    return {
      page, errors, network,
      close: async () => {
        await opened.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
}
