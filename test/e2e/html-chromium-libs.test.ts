// The HTML tests' browser on a machine with Node and npm only (issue 22: `npm ci && npm test` with no
// apt step): no system Chromium, and none of the libraries the packaged one takes from the system (NSS,
// NSPR, expat). A private mount namespace stands in for that machine: an empty file is bound over each of
// those libraries, so the loader cannot load them. In it a child process finds the packaged Chromium
// (findPackagedChromium, test/helpers/find-chromium.ts) and opens a page in it with playwright-core, as
// browser.ts does. Before find-chromium unpacked the package's own copies of the libraries, the browser
// did not start there ("error while loading shared libraries: libnspr4.so: file too short") and the HTML
// tests failed; this machine has the libraries only because unrelated packages pulled them in.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findPackagedChromium } from '../helpers/find-chromium.js';

/** What the package's bin/al2023.tar.br holds: the libraries of the system it leans on. */
const LIBRARIES = ['libnss3.so', 'libnssutil3.so', 'libnspr4.so', 'libplc4.so', 'libplds4.so', 'libexpat.so.1', 'libsoftokn3.so', 'libfreebl3.so', 'libfreeblpriv3.so'];

/** Every file the loader would take one of LIBRARIES from here: ldconfig's cache and the binary's own resolution. */
function systemCopies(executablePath: string): string[] {
  const found = new Set<string>();
  const add = (name: string, path: string): void => {
    if (LIBRARIES.includes(name) && existsSync(path)) found.add(realpathSync(path));
  };
  for (const line of spawnSync('ldconfig', ['-p'], { encoding: 'utf8' }).stdout?.split('\n') ?? []) {
    const m = /^\s*(\S+) \(.*\) => (\S+)$/.exec(line);
    if (m) add(m[1]!, m[2]!);
  }
  for (const line of spawnSync('ldd', [executablePath], { encoding: 'utf8' }).stdout?.split('\n') ?? []) {
    const m = /^\s*(\S+) => (\/\S+) \(/.exec(line);
    if (m) add(m[1]!, m[2]!);
  }
  return [...found];
}

test('the packaged Chromium starts and loads a page where the system has no NSS, NSPR or expat', { timeout: 120_000 }, async () => {
  const { executablePath } = await findPackagedChromium();
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-chromium-libs-'));
  try {
    const empty = join(dir, 'empty');
    writeFileSync(empty, '');
    const page = join(dir, 'page.html');
    writeFileSync(page, '<!doctype html><title>loaded</title><p>ok</p>');
    const require = createRequire(import.meta.url);
    const helper = pathToFileURL(require.resolve('../helpers/find-chromium.js')).href;
    const playwright = pathToFileURL(require.resolve('playwright-core')).href;
    const child = `
      import { spawnSync } from 'node:child_process';
      const bare = spawnSync(${JSON.stringify(executablePath)}, ['--version'], { encoding: 'utf8' }).stderr;
      const { findPackagedChromium } = await import(${JSON.stringify(helper)});
      const pw = await import(${JSON.stringify(playwright)});
      const chromium = pw.chromium ?? pw.default.chromium;
      const found = await findPackagedChromium();
      const browser = await chromium.launch({ executablePath: found.executablePath, env: found.env, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
      const tab = await browser.newPage();
      await tab.goto(${JSON.stringify(pathToFileURL(page).href)}, { waitUntil: 'load' });
      console.log(JSON.stringify({ bare, title: await tab.title(), ldLibraryPath: found.env.LD_LIBRARY_PATH ?? null }));
      await browser.close();
    `;
    const hidden = systemCopies(executablePath);
    const script = 'empty=$1; shift; while [ "$1" != -- ]; do mount --bind "$empty" "$1" || exit 97; shift; done; shift; exec "$@"';
    const r = spawnSync('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', script, 'sh', empty, ...hidden, '--', process.execPath, '--input-type=module', '-e', child], { encoding: 'utf8', timeout: 110_000 });
    assert.equal(r.status, 0, `exit ${r.status} (hidden: ${hidden.join(' ') || 'none, the system has none'})\n${r.stderr}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { bare: string; title: string; ldLibraryPath: string | null };
    assert.match(out.bare, /error while loading shared libraries/, 'in the namespace the bare binary cannot start: the stand-in holds');
    assert.equal(out.title, 'loaded');
    assert.match(out.ldLibraryPath ?? '', /\/al2023\/lib(:|$)/, 'the package\'s own libraries are on the browser\'s LD_LIBRARY_PATH');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
