// The terminal table (src/cli/render-table.ts) draws what cli-table3 drew before it, character for
// character, on seeded random tables (widths, alignments, wide and empty cells), so text output keeps
// its look; and the chunked JSON writer (src/cli/json-chunks.ts) gives JSON.stringify's exact text.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import Table from 'cli-table3';
import { Chalk } from 'chalk';
import { tableLines } from '../../src/cli/render-table.js';
import { jsonChunks } from '../../src/cli/json-chunks.js';
import type { Align } from '../../src/report/document.js';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const WORDS = ['', 'a', 'RunTree', '(string)', '<string, 12 chars> @31', '1.05 KiB', '100%', '日本語', 'é', 'x'.repeat(50), '{id, name}'];

test('tables look exactly as cli-table3 drew them (seeded random tables)', () => {
  const seed = 1313;
  const rnd = random(seed);
  const plain = new Chalk({ level: 0 });
  for (let t = 0; t < 200; t++) {
    const columns = 1 + Math.floor(rnd() * 5);
    const head = Array.from({ length: columns }, () => WORDS[1 + Math.floor(rnd() * (WORDS.length - 1))]!);
    const align: Align[] = Array.from({ length: columns }, () => (rnd() < 0.5 ? 'left' : 'right'));
    const rows = Array.from({ length: 1 + Math.floor(rnd() * 12) }, () =>
      Array.from({ length: columns }, () => WORDS[Math.floor(rnd() * WORDS.length)]!));
    const reference = new Table({ head, colAligns: align, style: { head: [], border: [], compact: true } });
    for (const row of rows) reference.push([...row]);
    const ours = [...tableLines({ head, rows, align }, plain)].join('\n');
    assert.equal(ours, reference.toString(), `seed ${seed}, table ${t}`);
  }
});

test('a table of a million rows renders in time proportional to its rows', () => {
  const rows = Array.from({ length: 1_000_000 }, (_, i) => [`Class${i}`, String(i), '1.00 KiB']);
  const started = Date.now();
  let lines = 0;
  for (const _ of tableLines({ head: ['class', 'count', 'size'], rows, align: ['left', 'right', 'right'] }, new Chalk({ level: 0 }))) lines++;
  assert.equal(lines, rows.length + 4);
  assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
});

test('chunked JSON is JSON.stringify(value, null, 2), also for arrays of thousands of rows', () => {
  const big = { schemaVersion: 1, empty: [], nested: { rows: Array.from({ length: 2500 }, (_, i) => ({ id: i, name: `n${i}`, skip: undefined, list: [i, null] })) }, tail: 'x', gone: undefined };
  for (const value of [big, [], {}, [1, undefined, 'a'], { a: [{}] }, 'str', 3, null, Array.from({ length: 1200 }, (_, i) => (i % 2 ? [i] : { i }))]) {
    assert.equal([...jsonChunks(value)].join(''), JSON.stringify(value, null, 2));
  }
});
