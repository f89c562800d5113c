// The streaming parser against its own whole-buffer result: every chunk size, every truncation point,
// and the structural errors a damaged file can have, each with its byte offset.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSnapshotChunks, parseSnapshotFile } from '../../src/snapshot/parse.js';
import type { HeapGraph } from '../../src/snapshot/heap-graph.js';
import { assertSameGraph } from '../helpers/same-graph.js';
import { SnapshotFormatError } from '../../src/errors.js';
import { buildSampleGraph } from '../helpers/sample-graphs.js';
import { GraphBuilder } from '../helpers/graph-builder.js';

function split(bytes: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}

const builder = buildSampleGraph();
const bytes = Buffer.from(builder.toJSON(), 'utf8');
const expected = builder.toGraph();

test('the parser reads what the builder wrote, strings decoded exactly', () => {
  const whole = parseSnapshotChunks([bytes]);
  assertSameGraph(whole, expected, 'whole');
  assert.equal(whole.nodeSelfSize[10], 5 * 2 ** 32, 'sizes above 2^32 survive');
});

test('cutting the file at every chunk size gives the same graph', () => {
  const whole = parseSnapshotChunks([bytes]);
  for (let size = 1; size <= bytes.length; size += size < 64 ? 1 : 37) {
    assertSameGraph(parseSnapshotChunks(split(bytes, size)), whole, `chunk size ${size}`);
  }
});

test('a file parse with tiny reads keeps long strings on disk and reads them back', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-parser-'));
  try {
    const path = join(dir, 'sample.heapsnapshot');
    writeFileSync(path, bytes, { mode: 0o600 });
    for (const chunkBytes of [1, 3, 4096, 1 << 20]) {
      const graph = await parseSnapshotFile(path, { chunkBytes });
      assertSameGraph(graph, expected, `file chunkBytes ${chunkBytes}`);
      const longIndex = graph.nodeName[7]!;
      assert.equal(graph.strings.isLong(longIndex), true, 'the 3,000-char string is left on disk');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file truncated at any byte fails with SnapshotFormatError at that offset, never anything else', () => {
  // Trailing whitespace after the final '}' is not content: a cut there leaves a whole file.
  const contentEnd = bytes.toString('latin1').trimEnd().length;
  assert.ok(contentEnd > 100);
  for (let cut = 0; cut < contentEnd; cut++) {
    assert.throws(
      () => parseSnapshotChunks(split(bytes.subarray(0, cut), 97)),
      (e: unknown) => {
        assert.ok(e instanceof SnapshotFormatError, `cut at ${cut}: ${String(e)}`);
        // Either "ends early" at the cut, or a structural error found before it.
        assert.ok(e.byteOffset !== undefined && e.byteOffset <= cut, `cut at ${cut}: offset ${e.byteOffset}`);
        return true;
      },
    );
  }
});

function mutate(find: RegExp, replace: string): Buffer {
  const text = bytes.toString('utf8');
  assert.match(text, find);
  return Buffer.from(text.replace(find, replace), 'utf8');
}

const damaged: [string, () => Buffer, RegExp][] = [
  ['node_count larger than the nodes', () => mutate(/"node_count":(\d+)/, '"node_count":12'), /"nodes" has \d+ values, expected 84/],
  ['edge_count smaller than the edges', () => mutate(/"edge_count":(\d+)/, '"edge_count":3'), /edge counts add up to more than edge_count 3|more values than edge_count/],
  ['an edge pointing outside the nodes', () => mutate(/"edges":\[(\d+),(\d+),(\d+)/, '"edges":[$1,$2,7000'), /points to node offset 7000, outside the 11 nodes/],
  ['an edge not at a node boundary', () => mutate(/"edges":\[(\d+),(\d+),(\d+)/, '"edges":[$1,$2,8'), /points to node offset 8/],
  ['a name outside the strings', () => mutate(/"nodes":\[(\d+),(\d+)/, '"nodes":[$1,999'), /node name 999 is outside the \d+ strings/],
  ['a node type not in meta', () => mutate(/"nodes":\[(\d+)/, '"nodes":[99'), /node type 99 is not in meta.node_types/],
  ['a float in the nodes', () => mutate(/"nodes":\[(\d+)/, '"nodes":[1.5'), /expected an integer/],
  ['garbage after the end', () => Buffer.concat([bytes, Buffer.from(' x')]), /after the end of the snapshot/],
  ['no meta', () => mutate(/"meta":/, '"mota":'), /snapshot.meta/],
  ['not a snapshot', () => Buffer.from('{"hello": [1,2,3]}'), /first key is "hello"/],
  ['not JSON', () => Buffer.from('PK\u0003\u0004 zip file'), /expected '\{'/],
];

for (const [name, make, message] of damaged) {
  test(`damaged file: ${name}`, () => {
    const input = make();
    assert.throws(() => parseSnapshotChunks(split(input, 5)), (e: unknown) => {
      assert.ok(e instanceof SnapshotFormatError, String(e));
      assert.match(e.message, message);
      assert.match(e.message, / at byte \d+$/);
      return true;
    });
  });
}

test('runs of backslashes before quotes, cut at every byte: each string ends at its own closing quote', async () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const texts = ['\\', '\\\\', '"', '\\"', '\\\\"\\', 'a\\"b\\\\', '\\'.repeat(7) + '"'.repeat(3), `${'\\"'.repeat(40)}x`, 'é\\ü"€'];
  texts.forEach((text, i) => b.edge(root, b.node('string', text, 16), 'element', i));
  const input = Buffer.from(b.toJSON(), 'utf8');
  const names = (g: HeapGraph): string[] => texts.map((_, i) => g.strings.get(g.nodeName[i + 1]!));
  for (let size = 1; size <= 200; size++) assert.deepEqual(names(parseSnapshotChunks(split(input, size))), texts, `chunk size ${size}`);
  // And through a file, where strings over 64 bytes stay on disk and are read back.
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-parser-'));
  try {
    const path = join(dir, 'backslashes.heapsnapshot');
    writeFileSync(path, input, { mode: 0o600 });
    for (const chunkBytes of [1, 2, 3, 5, 64, 4096]) assert.deepEqual(names(await parseSnapshotFile(path, { chunkBytes })), texts, `file chunkBytes ${chunkBytes}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('strings kept packed or decoded: indexOf finds either kind, get decodes once and the same each time', () => {
  const g = parseSnapshotChunks([bytes]);
  const texts = Array.from({ length: g.strings.count }, (_, i) => g.strings.get(i));
  const escaped = texts.findIndex((t) => t.includes('"quoted"'));
  const plain = texts.indexOf('prompt');
  const unicode = texts.findIndex((t) => /é|😀/.test(t));
  assert.ok(escaped >= 0 && plain >= 0 && unicode >= 0);
  for (const i of [escaped, plain, unicode]) assert.equal(g.strings.indexOf(texts[i]!), i, JSON.stringify(texts[i]));
  assert.equal(g.strings.indexOf('no such string anywhere'), -1);
  assert.equal(g.strings.get(plain), g.strings.get(plain));
  assert.throws(() => g.strings.get(g.strings.count), RangeError);
});
