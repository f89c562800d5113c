// The typed signature keys (path-signatures.ts, signature-parts.ts: interned ids, one signature id per
// node) against the obvious string ones (test/helpers/reference-signatures.ts: each node's whole chain
// folded into text), on real snapshots of zoo programs taken now. What `diff --across-processes` reads
// off a snapshot must be the same under both: which nodes share a signature and its text, the class it
// starts with, and per comparison key (the series-wide text) the live objects and their self sizes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countBySignature, SignatureTexts } from '../../src/analysis/diff/signature-counts.js';
import { HeapAnalysis } from '../../src/analysis/heap-analysis.js';
import { hopName } from '../../src/analysis/path-signatures.js';
import { RetainerPaths } from '../../src/analysis/retainer-paths.js';
import { parseSnapshotFile } from '../../src/snapshot/parse.js';
import { referenceComparisonKey, referenceSignature } from '../helpers/reference-signatures.js';
import { removeSnapshots, takeSnapshot } from '../helpers/take-snapshot.js';

// Map entries, listener arrays, timer lists and V8's promise reaction lists (folded links), closures.
const FIXTURES = ['zoo/map-cache', 'zoo/interval-closure', 'zoo/never-settles', 'zoo/listener-per-request', 'zoo/closure-array', 'reaction-list'];

for (const fixture of FIXTURES) {
  test(`${fixture}: typed signature keys equal the string ones, node by node and key by key`, async () => {
    const file = await takeSnapshot(fixture, { requests: 300 });
    try {
      const analysis = new HeapAnalysis(await parseSnapshotFile(file));
      const texts = new SignatureTexts();
      const { counts, index } = countBySignature(analysis, texts);
      const reference = new RetainerPaths(analysis);
      reference.preferLasting();
      const counted = (n: number): boolean => analysis.selfSizes[n] !== 0 && index.paths.isReachable(n);

      const textOfId = new Map<number, string>();
      const idOfText = new Map<string, number>();
      const firstOfText = new Map<string, number>();
      let nodes = 0;
      const wrong: string[] = [];
      for (let n = 0; n < analysis.graph.nodeCount; n++) {
        if (!counted(n)) continue;
        nodes++;
        const want = referenceSignature(analysis, reference, n);
        const id = index.signatures.signatureOf(n);
        const text = index.signatures.text(id, Infinity);
        if (text !== want && wrong.length < 5) wrong.push(`node ${n}: ${text} ≠ ${want}`);
        if (index.signatures.className(id) !== hopName(analysis, n) && wrong.length < 5) wrong.push(`node ${n}: class ${index.signatures.className(id)}`);
        if ((textOfId.get(id) ?? want) !== want && wrong.length < 5) wrong.push(`signature ${id} is two texts`);
        if ((idOfText.get(want) ?? id) !== id && wrong.length < 5) wrong.push(`"${want}" is two signatures`);
        textOfId.set(id, want);
        idOfText.set(want, id);
        if (!firstOfText.has(want)) firstOfText.set(want, n);
      }
      assert.deepEqual(wrong, []);
      assert.ok(nodes > 10_000 && idOfText.size > 100, `a real heap: ${nodes} nodes, ${idOfText.size} signatures`);

      // Per comparison key (read off each signature's first member, as signature-counts.ts does): objects and bytes.
      const want = new Map<string, { count: number; size: number }>();
      const keyOfText = new Map([...firstOfText].map(([t, first]) => [t, referenceComparisonKey(analysis, reference, first)]));
      for (let n = 0; n < analysis.graph.nodeCount; n++) {
        if (!counted(n)) continue;
        const key = keyOfText.get(referenceSignature(analysis, reference, n))!;
        const row = want.get(key) ?? { count: 0, size: 0 };
        row.count++;
        row.size += analysis.selfSizes[n]!;
        want.set(key, row);
      }
      const got = new Map(texts.texts.map((t, id) => [t, { count: counts.count[id]!, size: counts.size[id]! }]));
      assert.deepEqual(got, want);
      assert.ok([...got.keys()].some((k) => k.endsWith(' ← …')), 'some keys are cut at a shared holder');
    } finally {
      removeSnapshots([file]);
    }
  });
}
