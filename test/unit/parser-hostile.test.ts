// Crafted and fuzz-found inputs the parser must refuse cheaply (issue 13, defect 5, and the fuzzer's
// finds): declared counts the file cannot hold are refused before anything is allocated, at the byte
// where the header ends, through the real CLI with a small peak RSS; a self size over 2^32 costs no more
// memory than the nodes read; a string of many escapes parses in linear time. Files are built here.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSnapshotChunks, parseSnapshotFile } from '../../src/snapshot/parse.js';
import { SnapshotFormatError } from '../../src/errors.js';
import { GraphBuilder } from '../helpers/graph-builder.js';
import { runCliCase, writePeakPreload } from '../helpers/fuzz/cli-case.js';

const MiB = 2 ** 20;
const meta = new GraphBuilder().meta();

/** A snapshot whose header declares `counts` over the given `nodes` values (one string, no edges). */
function crafted(counts: { node_count: number; edge_count: number }, nodes: string, tail = ''): { text: string; headerEnd: number } {
  const head = `{"snapshot":${JSON.stringify({ meta, ...counts, trace_function_count: 0 })}`;
  return { text: `${head},"nodes":[${nodes}],"edges":[],"strings":["a"]${tail}}`, headerEnd: head.length };
}

function refusal(fn: () => unknown): SnapshotFormatError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SnapshotFormatError) return e;
    throw e;
  }
  assert.fail('the file was accepted');
}

function withDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-hostile-'));
  return fn(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

const ONE_NODE = '3,0,1,5000000000,0,0,0'; // self_size over 2^32: the Float64 path

test('counts the file cannot hold are refused where the header ends, before any allocation', () => {
  const cases = [
    { node_count: 500_000_000, edge_count: 0 },
    { node_count: 4294967295, edge_count: 0 },
    { node_count: 1, edge_count: 4294967295 },
    { node_count: 200, edge_count: 0 }, // 200 × 7 values need 2,799 bytes; the file has a few dozen
  ];
  for (const counts of cases) {
    const { text, headerEnd } = crafted(counts, ONE_NODE);
    const e = refusal(() => parseSnapshotChunks([Buffer.from(text)], 'crafted'));
    assert.equal(e.byteOffset, headerEnd, JSON.stringify(counts));
    assert.match(e.reason, new RegExp(`node_count ${counts.node_count} and edge_count ${counts.edge_count}`));
  }
});

test('counts that fit are not refused: the one-node file parses, its size over 2^32 kept exactly', () => {
  const { text } = crafted({ node_count: 1, edge_count: 0 }, ONE_NODE);
  const g = parseSnapshotChunks([Buffer.from(text)]);
  assert.equal(g.nodeCount, 1);
  assert.equal(g.nodeSelfSize[0], 5_000_000_000);
});

test('the CLI on issue 13\'s crafted files: exit 3, one line with the byte offset, small peak RSS', { timeout: 60_000 }, async () => {
  await withDir(async (dir) => {
    const preload = writePeakPreload(dir);
    for (const node_count of [500_000_000, 4294967295]) {
      const { text, headerEnd } = crafted({ node_count, edge_count: 0 }, ONE_NODE);
      const file = join(dir, `count-${node_count}.heapsnapshot`);
      writeFileSync(file, text);
      const run = await runCliCase(['analyze', file, '--json'], { preload, dir, timeoutMs: 20_000 });
      assert.equal(run.code, 3, run.stderr);
      assert.equal(run.stderr, `leakhunt: ${file}: "snapshot" declares node_count ${node_count} and edge_count 0: their values need at least ${2 * node_count * 7 - 1} bytes, the file has ${text.length - headerEnd} after the header at byte ${headerEnd}\n`);
      assert.ok(run.peakRssBytes !== undefined && run.peakRssBytes < 150 * MiB, `peak RSS ${run.peakRssBytes} (was 3.96 GB for 500,000,000)`);
    }
  });
});

test('a self size over 2^32 in a (sparse) file big enough for its counts: Float64 sizes cost only the nodes read', { timeout: 60_000 }, async () => {
  // 30M declared nodes and a file long enough to hold them (a sparse tail that is never reached): the
  // first node's size widens the self sizes to Float64 (240 MB of array). Copying the whole array made
  // every page resident (~300 MB more); only the one node read needs copying.
  await withDir(async (dir) => {
    const preload = writePeakPreload(dir);
    const nodeCount = 30_000_000;
    const { text } = crafted({ node_count: nodeCount, edge_count: 0 }, ONE_NODE, `,"pad":"`);
    const file = join(dir, 'sparse.heapsnapshot');
    const nodesEnd = text.indexOf('],"edges"');
    writeFileSync(file, text.slice(0, text.indexOf('"pad":"') + 7));
    truncateSync(file, text.length + 14 * nodeCount);
    const run = await runCliCase(['analyze', file, '--json'], { preload, dir, timeoutMs: 20_000 });
    assert.equal(run.code, 3, run.stderr);
    assert.equal(run.stderr, `leakhunt: ${file}: "nodes" has 7 values, expected ${7 * nodeCount} (node_count ${nodeCount} × 7 fields) at byte ${nodesEnd}\n`);
    assert.ok(run.peakRssBytes !== undefined && run.peakRssBytes < 150 * MiB, `peak RSS ${run.peakRssBytes}`);
  });
});

test('a string of a million escapes parses in linear time (fuzz find: each escape searched for the closing quote again)', { timeout: 60_000 }, async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'escapes.heapsnapshot');
    const { text } = crafted({ node_count: 1, edge_count: 0 }, '2,0,1,0,0,0,0');
    writeFileSync(file, text.replace('["a"]', `["${'\\n'.repeat(1 << 20)}"]`));
    const started = Date.now();
    const g = await parseSnapshotFile(file, { threads: 1 });
    const ms = Date.now() - started;
    assert.equal(g.nodeNameOf(0), '\n'.repeat(1 << 20));
    assert.ok(ms < 3000, `${ms} ms (was 12 s)`);
  });
});

test('a bad escape in a long string (kept on disk) is refused while parsing, at its byte, whatever the chunking (fuzz find: exit 70 when analyze read the name)', { timeout: 60_000 }, async () => {
  await withDir(async (dir) => {
    const preload = writePeakPreload(dir);
    for (const [escape, badAt] of [['\\q', 0], ['\\u12G4', 4], ['\\u12', 4]] as const) {
      // One object node whose class name is the long string: analyze reads it for the class table.
      const { text } = crafted({ node_count: 1, edge_count: 0 }, '3,0,1,16,0,0,0');
      const name = `${'Name'.repeat(30)}${escape}`;
      const bytes = Buffer.from(text.replace('["a"]', `["${name}"]`));
      const at = bytes.indexOf(escape) + badAt;
      for (const chunkBytes of [1, 7, 64, 1 << 20]) {
        const file = join(dir, 'escape.heapsnapshot');
        writeFileSync(file, bytes);
        await assert.rejects(parseSnapshotFile(file, { chunkBytes }), (e: unknown) => {
          assert.ok(e instanceof SnapshotFormatError, String(e));
          assert.equal(e.byteOffset, at, `${escape}, chunks of ${chunkBytes}: ${e.message}`);
          return true;
        });
      }
      const file = join(dir, 'escape.heapsnapshot');
      const run = await runCliCase(['analyze', file, '--json'], { preload, dir, timeoutMs: 20_000 });
      assert.equal(run.code, 3, run.stderr);
      assert.match(run.stderr, new RegExp(`^leakhunt: ${file}: bad .*escape in string 0: .* at byte ${at}\\n$`));
    }
  });
});

test('trace_tree is kept where it is and parsed when read: exact from a file and from memory, a bad one refused on reading', async () => {
  const tree = [[1, 0, 3, 48, [[2, 1, 1, 16, []]]], 'é \u2028 "q"'];
  const good = crafted({ node_count: 1, edge_count: 0 }, '2,0,1,0,0,0,0', `,"trace_tree":${JSON.stringify(tree)}`);
  const bad = crafted({ node_count: 1, edge_count: 0 }, '2,0,1,0,0,0,0', ',"trace_tree":[1,[2,x]]');
  const badAt = bad.text.indexOf('[1,[2,x');
  await withDir(async (dir) => {
    const file = join(dir, 'tree.heapsnapshot');
    writeFileSync(file, good.text);
    assert.deepEqual((await parseSnapshotFile(file, { chunkBytes: 5 })).extras.traceTree, tree);
    assert.deepEqual(parseSnapshotChunks([Buffer.from(good.text)]).extras.traceTree, tree);
    writeFileSync(file, bad.text);
    const graph = await parseSnapshotFile(file);
    const e = refusal(() => graph.extras.traceTree);
    assert.equal(e.byteOffset, badAt);
  });
});

test('a trace_tree of millions of empty arrays costs the CLI nothing (it was parsed into ~30× its size: 21 MB → 615 MB, 11 s)', { timeout: 60_000 }, async () => {
  await withDir(async (dir) => {
    const preload = writePeakPreload(dir);
    const { text } = crafted({ node_count: 1, edge_count: 0 }, '2,0,1,0,0,0,0', `,"trace_tree":[${'[],'.repeat(3_500_000)}[]]`);
    const file = join(dir, 'tree.heapsnapshot');
    writeFileSync(file, text);
    const run = await runCliCase(['analyze', file, '--json'], { preload, dir, timeoutMs: 30_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.peakRssBytes !== undefined && run.peakRssBytes < 150 * MiB, `peak RSS ${run.peakRssBytes}`);
  });
});

test('a "snapshot" header over 1 MiB is refused as it is read, not parsed into many times its size', () => {
  const head = `{"snapshot":{"meta":${JSON.stringify(meta)},"pad":[${'[],'.repeat(400_000)}[]]`;
  const text = `${head},"node_count":1,"edge_count":0},"nodes":[2,0,1,0,0,0,0],"edges":[],"strings":["a"]}`;
  const e = refusal(() => parseSnapshotChunks([Buffer.from(text)]));
  assert.match(e.reason, /"snapshot" is larger than 1048576 bytes/);
  assert.equal(e.byteOffset, '{"snapshot":'.length + 1024 * 1024);
});
