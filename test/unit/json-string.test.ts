// Decoding a JSON string's bytes (src/snapshot/json-string.ts) equals JSON.parse on the same text, for
// seeded random strings of raw UTF-8, every escape, surrogate pairs and lone surrogates as V8 writes
// them; and a name of millions of escapes costs linear memory through the real CLI (fuzz seed
// 1813134175, case 700: a 4 M-escape property name took 362 MiB and 13–17 s; it was decoded into a rope).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJsonStringBytes } from '../../src/snapshot/json-string.js';
import { GraphBuilder } from '../helpers/graph-builder.js';
import { runCliCase, writePeakPreload } from '../helpers/fuzz/cli-case.js';
import { Random } from '../helpers/fuzz/prng.js';

const PIECES = ['a', 'Z', ' ', 'é', '€', '😀', '\\n', '\\"', '\\\\', '\\/', '\\b', '\\f', '\\r', '\\t', '\\u0041', '\\u00e9', '\\u20ac',
  '\\ud83d\\ude00', '\\ud800', '\\udfff', '\\udc00\\ud800', '\\u0000', '\\u007f', '\\u0080', '\\u07ff', '\\u0800', '\\uffff'];

test('decoding equals JSON.parse on 5,000 seeded strings (raw UTF-8, every escape, pairs and lone surrogates)', () => {
  const seed = 20261202;
  const r = new Random(seed);
  for (let k = 0; k < 5000; k++) {
    const length = r.int(0, 40);
    let body = '';
    for (let i = 0; i < length; i++) body += PIECES[r.int(0, PIECES.length)];
    const bytes = Buffer.from(`xx${body}yy`);
    const got = decodeJsonStringBytes(bytes, 2, bytes.length - 2);
    assert.equal(got, JSON.parse(`"${body}"`), `seed ${seed}, case ${k}: ${JSON.stringify(body)}`);
  }
});

test('a bad escape is still refused', () => {
  for (const body of ['\\x', '\\u12G4', '\\u12', '\\', 'ab\\']) {
    const bytes = Buffer.from(body);
    assert.throws(() => decodeJsonStringBytes(bytes, 0, bytes.length), SyntaxError, body);
  }
});

test('a property name of 4 M escapes: analyze reads it in linear memory', { timeout: 90_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-escapes-'));
  try {
    const b = new GraphBuilder();
    const root = b.node('synthetic', '', 0);
    const a = b.node('object', 'Object', 100); // a plain Object: its class key is built from its property names
    const c = b.node('object', 'Held', 50);
    b.edge(root, a, 'shortcut', '1');
    b.edge(a, c, 'property', 'NAME_PLACEHOLDER');
    const file = join(dir, 'escapes.heapsnapshot');
    writeFileSync(file, b.toJSON().replace('"NAME_PLACEHOLDER"', `"${'\\\\'.repeat(4 << 20)}"`));
    const preload = writePeakPreload(dir);
    const run = await runCliCase(['analyze', file, '--json'], { preload, dir, timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.peakRssBytes !== undefined && run.peakRssBytes < 150 * 2 ** 20, `peak RSS ${Math.round((run.peakRssBytes ?? 0) / 2 ** 20)} MiB (was 362 MiB)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
