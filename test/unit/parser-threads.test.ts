// The two-thread parse (edges on a worker, parallel-edges.ts) against the one-thread parse of the same
// file: the same graph on a real snapshot, the same error and byte offset on damaged and truncated
// files, and a file the worker cannot place (strings before edges) parsed on the main thread alone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSnapshotFile } from '../../src/snapshot/parse.js';
import type { HeapGraph } from '../../src/snapshot/heap-graph.js';
import { SnapshotFormatError } from '../../src/errors.js';
import { buildSampleGraph } from '../helpers/sample-graphs.js';
import { removeSnapshots, takeSnapshot } from '../helpers/take-snapshot.js';
import { assertSameGraph } from '../helpers/same-graph.js';

function assertSameGraphAndLocations(a: HeapGraph, b: HeapGraph, label: string): void {
  assertSameGraph(a, b, label);
  assert.deepEqual(a.extras.locations, b.extras.locations, `${label}: locations`);
}

/** Whether the worker filled the edges: they are then on shared memory (a declined claim reallocates). */
function edgesFromWorker(g: HeapGraph): boolean {
  return g.edgeTarget.buffer instanceof SharedArrayBuffer;
}

async function outcome(path: string, threads: 1 | 2): Promise<string> {
  try {
    const g = await parseSnapshotFile(path, { threads, chunkBytes: 4096 });
    return `ok ${g.nodeCount} nodes, ${g.edgeCount} edges`;
  } catch (e) {
    if (e instanceof SnapshotFormatError) return `${e.reason} @${e.byteOffset}`;
    throw e;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'leakhunt-threads-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const text = buildSampleGraph().toJSON();

function write(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content, { mode: 0o600 });
  return path;
}

test('a real snapshot: the edges worker gives the same graph as one thread', { timeout: 120_000 }, async () => {
  const path = await takeSnapshot('map-cache', { requests: 200 });
  try {
    const one = await parseSnapshotFile(path, { threads: 1 });
    const two = await parseSnapshotFile(path, { threads: 2, chunkBytes: 64 * 1024 });
    assert.equal(edgesFromWorker(one), false);
    assert.equal(edgesFromWorker(two), true, 'the worker parsed the edges');
    assertSameGraphAndLocations(two, one, 'map-cache');
  } finally {
    removeSnapshots([path]);
  }
});

test('the sample graph: same graph and the worker used, at several read sizes', async () => {
  const path = write('sample.heapsnapshot', text);
  const one = await parseSnapshotFile(path, { threads: 1 });
  for (const chunkBytes of [7, 4096, 1 << 20]) {
    const two = await parseSnapshotFile(path, { threads: 2, chunkBytes });
    assert.equal(edgesFromWorker(two), true, `chunkBytes ${chunkBytes}`);
    assertSameGraphAndLocations(two, one, `chunkBytes ${chunkBytes}`);
  }
});

function mutate(find: RegExp, replace: string): string {
  assert.match(text, find);
  return text.replace(find, replace);
}

const damaged: [string, () => string][] = [
  ['an edge pointing outside the nodes', () => mutate(/"edges":\[(\d+),(\d+),(\d+)/, '"edges":[$1,$2,7000')],
  ['a bad byte in the edges', () => mutate(/"edges":\[(\d+),(\d+),(\d+)/, '"edges":[$1,x$2,$3')],
  ['an edge type not in meta', () => mutate(/"edges":\[(\d+)/, '"edges":[77')],
  ['too many edge values', () => mutate(/"edge_count":(\d+)/, '"edge_count":3')],
  ['too few edge values', () => mutate(/"edges":\[(\d+),(\d+),(\d+)\s*,/, '"edges":[')],
  ['an error in the nodes and another in the edges: the nodes one', () =>
    mutate(/"nodes":\[(\d+)/, '"nodes":[99').replace(/"edges":\[(\d+),(\d+),(\d+)/, '"edges":[$1,$2,7000')],
  ['an error in the edges and another in the strings: the edges one', () =>
    mutate(/"edges":\[(\d+),(\d+),(\d+)/, '"edges":[$1,$2,7000').replace(/"strings":\["/, '"strings":[x"')],
  ['an error in the strings only', () => mutate(/"strings":\["/, '"strings":[x"')],
  ['an edge naming a string outside the table', () => mutate(/"edges":\[(\d+),(\d+),(\d+)/, '"edges":[2,999999,$3')],
];

for (const [name, make] of damaged) {
  test(`damaged file, two threads report what one does: ${name}`, async () => {
    const path = write(`damaged-${name.replace(/\W+/g, '-')}.heapsnapshot`, make());
    const one = await outcome(path, 1);
    assert.doesNotMatch(one, /^ok/, 'the damage is an error');
    assert.equal(await outcome(path, 2), one);
  });
}

test('truncated files, two threads report what one does (cuts across every section)', async () => {
  const bytes = Buffer.from(text, 'utf8');
  const edgesAt = text.indexOf('"edges":[');
  const cuts = new Set<number>();
  for (let k = 1; k < 40; k++) cuts.add(Math.floor((bytes.length * k) / 40));
  for (let k = -3; k <= 12; k++) cuts.add(edgesAt + k); // around the key the worker looks for
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    const path = write('cut.heapsnapshot', bytes.subarray(0, cut).toString('latin1'));
    const one = await outcome(path, 1);
    assert.doesNotMatch(one, /^ok/, `cut at ${cut}`);
    assert.equal(await outcome(path, 2), one, `cut at ${cut}`);
  }
});

test('strings before edges, with a string "edges" among them: the worker declines, the main thread parses', async () => {
  const stringsAt = text.search(/,\s*"strings":\[/);
  const strings = text.slice(stringsAt, text.lastIndexOf('}')).replace('"strings":["', '"strings":["edges","');
  const edgesAt = text.search(/,\s*"edges":\[/);
  assert.ok(stringsAt > edgesAt && edgesAt > 0);
  const moved = `${text.slice(0, edgesAt)}${strings}${text.slice(edgesAt, stringsAt)}}`;
  // The extra string shifts the strings by one; every name still points inside the table.
  const path = write('reordered.heapsnapshot', moved);
  const g = await parseSnapshotFile(path, { threads: 2 });
  assert.equal(edgesFromWorker(g), false, 'the worker found "edges" as a string and gave up');
  const one = await parseSnapshotFile(path, { threads: 1 });
  assertSameGraphAndLocations(g, one, 'reordered');
});
