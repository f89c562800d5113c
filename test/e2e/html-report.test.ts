// `--html` and `leakhunt report` end to end, in a real Chromium: a leaking fixture (map-cache: one
// CacheEntry per request, kept) attached over the real inspector with a work counter, its report loaded
// from file:// — no console errors, no request leaves the file, the growth and memory charts have drawn
// points, a chain opens to its hops, the class table sorts on a click, no heap string is in the page —
// then the same directory rebuilt by `leakhunt report`, and `diff --html` / `analyze --html` on the
// snapshots. A screenshot goes to test/artifacts/. Random inspector port: runs beside other files.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.js';
import { startTarget } from '../helpers/live-target.js';
import { startChromium, type Chromium, type OpenedPage } from '../helpers/browser.js';

const ARTIFACTS = fileURLToPath(new URL('../../../test/artifacts/', import.meta.url));
const COUNTER = 'globalThis.__leakhuntRequests';
/** Strings the fixture keeps in the heap (fixtures/map-cache.cjs): never in a report. */
const HEAP_STRINGS = ['item payload', 'GET /items/'];

let browser: Chromium | undefined;

async function withPage<T>(file: string, body: (o: OpenedPage) => Promise<T>): Promise<T> {
  browser ??= await startChromium();
  const opened = await browser.open(file);
  try {
    return await body(opened);
  } finally {
    await opened.close();
  }
}

/** What every report page must be: loaded clean, self-contained, nothing of the heap's strings. */
function assertSelfContained(html: string, o: OpenedPage, what: string): void {
  assert.deepEqual(o.errors, [], `${what}: no console or page errors`);
  assert.deepEqual(o.network, [], `${what}: no request leaves the file`);
  assert.doesNotMatch(html, /<(script|link|img)[^>]+(src|href)=/i, `${what}: nothing is loaded from elsewhere`);
  for (const s of HEAP_STRINGS) assert.ok(!html.includes(s), `${what}: the heap string "${s}" is not in the page`);
}

test('attach --html: a page that loads clean, charts with points, chains that open, a class table that sorts; report rebuilds it', async () => {
  const target = await startTarget({ fixture: 'map-cache', nodeArgs: ['--inspect-port=0'], rate: 50, warmupMs: 300 });
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-html-'));
  try {
    const out = join(dir, 'capture');
    const html = join(dir, 'attach.html');
    const r = await runCli(['attach', String(target.pid), '--counter', COUNTER, '--every', '40', '--snapshots', '3', '--sample-every', '250ms', '--out', out, '--html', html, '--json'], { timeoutMs: 120_000 });
    assert.equal(r.code, 1, `a leak; stderr:\n${r.stderr}`);
    assert.equal(statSync(html).mode & 0o777, 0o600, 'the page is owner-only, like the snapshots');
    assert.equal(statSync(join(out, 'result.json')).mode & 0o777, 0o600, 'result.json is owner-only');
    assert.ok(r.stderr.includes(`HTML report: ${html}`), 'the path is said on stderr');
    const json = JSON.parse(r.stdout) as { findings: { className: string }[]; samples: unknown[] };
    assert.equal(json.findings[0]?.className, 'CacheEntry');
    const text = readFileSync(html, 'utf8');
    assert.ok(text.length < 500 * 1024, `small: ${text.length} bytes`);

    await withPage(html, async (o) => {
      const { page } = o;
      assertSelfContained(text, o, 'attach --html');
      assert.match((await page.locator('#verdict').textContent()) ?? '', /^LEAK/);
      const finding = page.locator('#finding-1');
      assert.match((await finding.locator('h3').textContent()) ?? '', /CacheEntry/);
      assert.match((await finding.locator('.rates').textContent()) ?? '', /per unit of work/, 'per-turn rate from the counter');
      // the finding's growth chart: a dot per snapshot for each series, on an axis of work done
      assert.equal(await finding.locator('svg circle').count(), 6, 'kept objects and all live CacheEntry: 3 snapshots each');
      assert.match((await finding.locator('svg').textContent()) ?? '', /units of work since snapshot 1/);
      // the memory timeline: one line per figure with its points, the 3 snapshot moments and their pauses
      const timeline = page.locator('#timeline svg');
      const points = await timeline.locator('path.line').evaluateAll((paths) => paths.map((p) => Number(p.getAttribute('data-points'))));
      assert.equal(points.length, 4, 'rss, heapUsed, external, arrayBuffers');
      assert.equal(points[0], json.samples.length, 'rss: a point per sample');
      assert.ok(points.every((n) => n > 3 && n <= json.samples.length), `the inspector's figures: a point per sample that has them (none while paused): ${points.join(', ')}`);
      assert.equal(await timeline.locator('line.mark').count(), 3, 'the snapshot moments');
      assert.equal(await timeline.locator('rect.band').count(), 3, 'the pauses');
      // the chain: collapsed, then its hops once opened, each with a node id
      const chain = finding.locator('details.chain');
      const firstHop = chain.locator('li.hop').first();
      assert.equal(await firstHop.isVisible(), false, 'collapsed at first');
      await chain.locator('summary').click();
      assert.equal(await firstHop.isVisible(), true, 'opened: the hops show');
      const hops = await chain.locator('li.hop').count();
      assert.ok(hops >= 3, `a chain to the root: ${hops} hops`);
      assert.match((await firstHop.textContent()) ?? '', /^@\d+ CacheEntry/);
      assert.match((await chain.locator('.edge').first().textContent()) ?? '', /held as/);
      // the class table, sorted by a click on a heading, then reversed by a second
      const table = page.locator('#classes table');
      const delta = table.locator('th', { hasText: 'Δ count' });
      const column = async (): Promise<number[]> => table.locator('tbody tr').evaluateAll((rows, i) => rows.map((r) => Number((r as unknown as { cells: { dataset: { v: string } }[] }).cells[i]!.dataset.v)), 3);
      await delta.click();
      const down = await column();
      assert.ok(down.length > 100, `every class: ${down.length}`);
      assert.deepEqual(down, [...down].sort((a, b) => b - a), 'largest growth first');
      const cacheEntry = Number(await table.locator('tbody tr', { has: page.locator('td:text-is("CacheEntry")') }).locator('td').nth(3).getAttribute('data-v'));
      assert.ok(cacheEntry > 0 && down.indexOf(cacheEntry) < down.length / 10, `CacheEntry (+${cacheEntry}) among the top tenth once sorted by growth`);
      await delta.click();
      const up = await column();
      assert.deepEqual(up, [...up].sort((a, b) => a - b), 'a second click: smallest first');
      await table.locator('th', { hasText: /^class$/ }).click();
      const names = await table.locator('tbody tr td:first-child').allTextContents();
      assert.deepEqual(names, [...names].sort((a, b) => b.localeCompare(a)), 'a text column sorts as text');
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.locator('summary').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, 'html-report-attach.png'), fullPage: false });
    });

    // leakhunt report: the same diagnosis from the directory, with the samples from result.json
    const rebuilt = join(dir, 'rebuilt.html');
    const rr = await runCli(['report', out, '--html', rebuilt], { timeoutMs: 60_000 });
    assert.equal(rr.code, 0, rr.stderr);
    assert.equal(rr.stdout.trim(), rebuilt, 'the path on stdout');
    const again = readFileSync(rebuilt, 'utf8');
    await withPage(rebuilt, async (o) => {
      assertSelfContained(again, o, 'report');
      const shown = await o.page.locator('#findings h3').allTextContents();
      assert.deepEqual(shown.map((h) => h.replace(/^\S+?\d+\. /, '')), json.findings.map((f) => f.className), 'the findings attach printed, in its order');
      const points = await o.page.locator('#timeline path.line').first().getAttribute('data-points');
      assert.equal(Number(points), json.samples.length, 'the timeline from result.json');
    });

    // an interrupted capture leaves no result.json: the page still comes, its timeline from the snapshots' readings
    rmSync(join(out, 'result.json'));
    const bare = join(dir, 'bare.html');
    const rb = await runCli(['report', out, '--html', bare, '--no-progress'], { timeoutMs: 60_000 });
    assert.equal(rb.code, 0, rb.stderr);
    assert.match(rb.stderr, /result\.json is missing/);
    await withPage(bare, async (o) => {
      assertSelfContained(readFileSync(bare, 'utf8'), o, 'report without result.json');
      assert.equal(await o.page.locator('#timeline path.line').first().getAttribute('data-points'), '3', 'a reading per snapshot');
      assert.match((await o.page.locator('.facts').textContent()) ?? '', /result\.json, is missing/);
      assert.doesNotMatch((await o.page.locator('.facts').textContent()) ?? '', /ended/, 'how the capture ended is not known');
    });

    // diff --html and analyze --html on the captured snapshots
    const snapshots = [1, 2, 3].map((n) => join(out, `${target.pid}-${n}.heapsnapshot`));
    assert.ok(snapshots.every((s) => existsSync(s)));
    const diffHtml = join(dir, 'diff.html');
    const d = await runCli(['diff', ...snapshots, '--html', diffHtml, '--json'], { timeoutMs: 60_000 });
    assert.ok(d.code === 0 || d.code === 1, d.stderr);
    await withPage(diffHtml, async (o) => {
      assertSelfContained(readFileSync(diffHtml, 'utf8'), o, 'diff --html');
      assert.match((await o.page.locator('#finding-1 h3').textContent()) ?? '', /CacheEntry/);
      assert.ok((await o.page.locator('#finding-1 svg circle').count()) > 0, 'a growth chart per snapshot');
    });
    const analyzeHtml = join(dir, 'analyze.html');
    const a = await runCli(['analyze', snapshots[2]!, '--html', analyzeHtml, '--json'], { timeoutMs: 60_000 });
    assert.equal(a.code, 0, a.stderr);
    await withPage(analyzeHtml, async (o) => {
      assertSelfContained(readFileSync(analyzeHtml, 'utf8'), o, 'analyze --html');
      assert.ok((await o.page.locator('#classes tbody tr').count()) > 0);
      assert.match((await o.page.locator('#dominators tbody').textContent()) ?? '', /@\d+/, 'node ids of the largest objects');
    });
  } finally {
    await target.stop();
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--html into a directory that does not exist is refused before any snapshot is read (exit 2)', async () => {
  const r = await runCli(['analyze', '/nonexistent-leakhunt.heapsnapshot', '--html', '/nonexistent-dir/r.html']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--html: directory \/nonexistent-dir does not exist/);
});
