// A long string's length measured from the file piece by piece (StringTable.lengthOf) equals the length
// of the string read whole, for seeded random strings of raw UTF-8, invalid bytes, every escape, pairs
// and lone surrogates, cut into pieces of every small size (so every cut lands everywhere).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringTableBuilder } from '../../src/snapshot/string-table.js';
import { Random } from '../helpers/fuzz/prng.js';

const PIECES: (string | number[])[] = ['a', ' ', 'é', '€', '😀', '日本', '\\n', '\\"', '\\\\', '\\u0041', '\\u00e9', '\\u20ac',
  '\\ud83d\\ude00', '\\ud800', '\\udfff', '\\udc00\\ud800', '\\u0000',
  // Bytes no encoder writes: a lone continuation byte, cut sequences, an overlong form, a surrogate in UTF-8.
  [0x80], [0xbf, 0x80], [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff], [0xf4, 0x90, 0x80, 0x80]];

test('lengthOf a long string equals the length of the string read whole, cut into pieces of 1 to 24 bytes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-strlen-'));
  try {
    const r = new Random(20261204);
    const chunks: Buffer[] = [];
    const builder = new StringTableBuilder();
    let offset = 0;
    for (let k = 0; k < 400; k++) {
      const parts: Buffer[] = [];
      const count = r.int(1, 30);
      for (let i = 0; i < count; i++) {
        const p = PIECES[r.int(0, PIECES.length)]!;
        parts.push(typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p));
      }
      const bytes = Buffer.concat(parts);
      builder.addLong(offset, bytes.length);
      chunks.push(bytes);
      offset += bytes.length;
    }
    const file = join(dir, 'strings.bin');
    writeFileSync(file, Buffer.concat(chunks));
    const table = builder.build(file);
    for (let i = 0; i < table.count; i++) {
      const whole = table.get(i).length;
      for (let piece = 1; piece <= 24; piece++) assert.equal(table.lengthOf(i, piece), whole, `string ${i}, pieces of ${piece} bytes`);
      assert.equal(table.lengthOf(i), whole);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
