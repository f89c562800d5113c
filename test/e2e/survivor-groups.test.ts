// Survivor groups a user can trust, on real snapshots (issue 12, points 6-9): `leakhunt diff` on the
// web-stream fixture, whose per-request objects hang under the pending read of a long-lived
// ReadableStream reader (on Node 20 DevTools' shortest path to the stream runs through Node's cleanup
// list), and on the AsyncLocalStorage timer fixture under Node 24's AsyncContextFrame. A group must
// never count more objects of its class than the snapshot holds, and must name every member's class.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { takeSnapshotSeries, removeSnapshots } from '../helpers/take-snapshot.js';
import { runCli } from '../helpers/cli.js';
import type { NodeMajor } from '../helpers/node-binaries.js';
import { parseSnapshotFile } from '../../src/snapshot/parse.js';
import { HeapAnalysis } from '../../src/analysis/heap-analysis.js';
import { RetainerPaths } from '../../src/analysis/retainer-paths.js';
import { hopName, PathSignatures } from '../../src/analysis/path-signatures.js';
import { groupSurvivors } from '../../src/analysis/diff/survivors.js';
import { maxHeapObjectId } from '../../src/analysis/diff/id-table.js';

const REQUESTS = 100;

interface DiffJson {
  classes: { name: string; counts: number[] }[];
  survivors: {
    groups: {
      signature: string; className: string; count: number; heldBy: string; plumbing?: string;
      chain: { node: { className: string }; label?: { kind: string } }[];
    }[];
  };
}

async function diffSeries(fixture: string, node: NodeMajor): Promise<{ out: DiffJson; files: string[] }> {
  const files = await takeSnapshotSeries(fixture, 3, { node, requests: REQUESTS, requestsBetween: REQUESTS, timeoutMs: 120_000 });
  const r = await runCli(['diff', ...files, '--json', '--groups', '1000'], { timeoutMs: 120_000 });
  assert.ok(r.code === 0 || r.code === 1, `diff exited ${r.code}: ${r.stderr}`);
  return { out: JSON.parse(r.stdout) as DiffJson, files };
}

/** No group counts more objects of its class than the newest snapshot holds. */
function assertGroupsFitTheirClass(out: DiffJson): void {
  const last = new Map(out.classes.map((c) => [c.name, c.counts[c.counts.length - 1]!]));
  for (const g of out.survivors.groups) {
    assert.ok(g.count <= (last.get(g.className) ?? 0), `${g.className} × ${g.count} but the snapshot holds ${last.get(g.className)}: ${g.signature}`);
    assert.ok(!g.signature.includes('(unreachable)'), g.signature);
  }
}

/** Every member of every group has the class its signature starts with (checked member by member). */
async function assertMembersShareTheirClass(files: string[]): Promise<void> {
  const maxIds: number[] = [];
  let analysis: HeapAnalysis | undefined;
  for (const file of files) {
    analysis = new HeapAnalysis(await parseSnapshotFile(file));
    maxIds.push(maxHeapObjectId(analysis));
  }
  const paths = new RetainerPaths(analysis!);
  const signatures = new PathSignatures(analysis!, paths);
  const data = groupSurvivors(analysis!, paths, signatures, maxIds);
  const { nodeId, nodeCount } = analysis!.graph;
  const inGroup = new Set(data.groups.map((g) => g.signature));
  let checked = 0;
  for (let n = 0; n < nodeCount; n++) {
    if (nodeId[n]! <= maxIds[0]! || !inGroup.has(signatures.signatureOf(n))) continue;
    assert.equal(hopName(analysis!, n), signatures.className(signatures.signatureOf(n)));
    checked++;
  }
  assert.ok(checked >= 2 * REQUESTS, `checked ${checked} members`);
}

for (const node of [20, 24] as const) {
  test(`web streams (Node ${node}): objects kept under a pending ReadableStream read are one group of their own class, held through the request`, async () => {
    const { out, files } = await diffSeries('web-stream-reader', node);
    try {
      assertGroupsFitTheirClass(out);
      const chunks = out.survivors.groups.filter((g) => g.className === 'UploadChunk');
      assert.equal(chunks.length, 1, chunks.map((g) => g.signature).join(' | '));
      const group = chunks[0]!;
      assert.equal(group.count, 2 * REQUESTS);
      assert.equal(group.heldBy, 'lasting');
      assert.match(group.signature, /^UploadChunk ← Array\[\] ← .*DefaultReadRequest.* ← IncomingMessage\._events ← /);
      assert.ok(!group.chain.some((hop) => /CleanupQueue|JSTransferable/.test(hop.node.className)), 'the cleanup list is not blamed');
      assert.equal(out.survivors.groups.filter((g) => g.className === 'DefaultReadRequest').reduce((sum, g) => sum + g.count, 0) <= 1, true);
      await assertMembersShareTheirClass(files);
    } finally {
      removeSnapshots(files);
    }
  });
}

test('Node 24: AsyncContextFrame groups are marked as plumbing, the stores they carry are not', async () => {
  const { out, files } = await diffSeries('als-timer', 24);
  try {
    assertGroupsFitTheirClass(out);
    const frames = out.survivors.groups.filter((g) => g.className === 'AsyncContextFrame');
    assert.ok(frames.length > 0 && frames.every((g) => g.plumbing === 'async-context-frame'), JSON.stringify(frames.map((g) => [g.signature, g.plumbing])));
    // One frame per request's timer, and the odd frame of the serving loop.
    assert.ok(frames.reduce((sum, g) => sum + g.count, 0) >= 2 * REQUESTS);
    const stores = out.survivors.groups.filter((g) => g.className === 'RequestContext');
    assert.equal(stores.reduce((sum, g) => sum + g.count, 0), 2 * REQUESTS);
    assert.ok(stores.every((g) => g.plumbing === undefined && /AsyncContextFrame\.table/.test(g.signature)));
    assert.ok(out.survivors.groups.every((g) => g.plumbing === undefined || g.className === 'AsyncContextFrame' || /^\(/.test(g.className)));
  } finally {
    removeSnapshots(files);
  }
});
