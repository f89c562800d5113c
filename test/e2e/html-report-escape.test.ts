// The HTML report with hostile names: class, edge and node names that look like markup (they come from
// the program's own code: a class called `<img src=x onerror=…>` is legal JavaScript) are shown as text,
// never run, in a real Chromium; a labelled hop is highlighted with its label; a chart draws its dots.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChainHop } from '../../src/analysis/chain-description.js';
import type { Finding } from '../../src/diagnose/finding.js';
import { buildAnalyzeHtml } from '../../src/report/html-report.js';
import { withChromiumPage } from '../helpers/browser.js';

const HOSTILE = '<img src=x onerror="document.title=\'owned\'">';
const SCRIPTED = '</script><script>document.title="owned"</script>';

function hop(id: number, className: string, edge: ChainHop['edge'], label?: ChainHop['label']): ChainHop {
  return { node: { id, name: className, type: 'object', className }, edge, selfSize: 32, retainedSize: 1024 * id, ...(label ? { label } : {}) };
}

test('names that look like markup are text in the page; a labelled hop is highlighted', async () => {
  const chain = [
    hop(11, HOSTILE, { type: 'property', name: SCRIPTED }),
    hop(12, 'Timeout', { type: 'property', name: '<symbol kResourceStore>' }, { kind: 'async-context', text: 'AsyncLocalStorage store captured by a <Timeout>' }),
    hop(13, '(GC roots)', null),
  ];
  const finding: Finding = {
    kind: 'suspect', className: HOSTILE, signature: null, count: 3, perInterval: 0, retainedSize: 4096, chain,
    fix: `close ${SCRIPTED}`, action: `close ${SCRIPTED}`, evidence: [`seen ${HOSTILE}`],
  };
  const html = buildAnalyzeHtml({
    snapshot: { nodeCount: 3, totalSize: 4096 },
    classCount: 2,
    classes: [{ name: HOSTILE, count: 3, selfSize: 96, retainedSize: 4096 }, { name: 'Timeout', count: 1, selfSize: 32, retainedSize: 64 }],
    dominators: [{ id: 11, name: SCRIPTED, className: HOSTILE, selfSize: 32, retainedSize: 4096 }],
    verdict: 'suspect',
    evidence: [HOSTILE],
    findings: [finding],
  }, `evil${SCRIPTED}.heapsnapshot`);
  assert.ok(!html.includes(HOSTILE) && !html.includes(SCRIPTED), 'no name reaches the page unescaped');
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-html-escape-'));
  const file = join(dir, 'page.html');
  writeFileSync(file, html);
  try {
    await withChromiumPage(file, async (o) => {
      assert.deepEqual(o.errors, []);
      assert.deepEqual(o.network, [], 'the injected <img> fetched nothing: it is text');
      assert.equal(await o.page.title(), 'leakhunt analyze — suspect', 'no injected script ran');
      assert.equal(await o.page.locator('img').count(), 0);
      assert.equal(await o.page.locator('script').count(), 1, 'only the page\'s own script');
      assert.equal(await o.page.locator('#finding-1 h3').textContent(), `suspect1. ${HOSTILE}`, 'shown as the text it is');
      await o.page.locator('#finding-1 summary').click();
      const labelled = o.page.locator('#finding-1 li.hop.labelled');
      assert.equal(await labelled.count(), 1, 'the labelled hop, and only it, is highlighted');
      assert.match((await labelled.textContent()) ?? '', /^@12 Timeout .*AsyncLocalStorage store captured by a <Timeout>/);
      assert.equal(await o.page.locator('#finding-1 .edge').first().textContent(), `held as ${SCRIPTED} (property) by`);
      assert.equal(await o.page.locator('#dominators tbody td').nth(2).textContent(), SCRIPTED);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
