// survivorCurves (the newest snapshot analysed, the earlier two known by the largest id streamed past)
// gives the same survivor groups, curves, retained sizes and chains as `leakhunt diff`'s
// diffSnapshotFiles on the same three in-process snapshots; the streamed ids equal the parsed ones;
// snapshot files are private.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { diffSnapshotFiles } from '../../src/analysis/diff/diff-series.js';
import { labelChain } from '../../src/diagnose/chain-labels.js';
import { InProcessHeap, type TakenSnapshot } from '../../src/testing/in-process-heap.js';
import { survivorCurves } from '../../src/testing/survivor-curves.js';
import { dropLeakedWork, handleWithHeartbeat, queueOrder } from './units.js';

test('survivor curves equal diffSnapshotFiles survivors on the same snapshots', async (t) => {
  t.after(dropLeakedWork);
  const heap = InProcessHeap.open();
  t.after(() => heap.close(false));
  assert.equal(statSync(heap.dir).mode & 0o777, 0o700);
  const taken: TakenSnapshot[] = [];
  let i = 0;
  const work = async (n: number): Promise<void> => {
    for (const end = i + n; i < end; i++) {
      queueOrder(i);
      await handleWithHeartbeat(i);
    }
  };
  await work(3);
  taken.push(await heap.snapshot('1', true));
  await work(15);
  taken.push(await heap.snapshot('2', true));
  await work(15);
  taken.push(await heap.snapshot('3', true));
  const unwritten = await heap.snapshot('4', false);
  assert.equal(unwritten.file, undefined);
  assert.ok(unwritten.maxId > taken[2]!.maxId);
  const files = taken.map((s) => s.file!);
  for (const f of files) assert.equal(statSync(f).mode & 0o777, 0o600);

  const diff = await diffSnapshotFiles(files, { groups: 1_000_000, labelChain });
  const curves = await survivorCurves([taken[0]!.maxId, taken[1]!.maxId], files[2]!);
  assert.deepEqual(taken.map((s) => s.maxId), diff.snapshots.map((s) => s.maxId), 'streamed ids equal parsed ones');
  assert.deepEqual(curves.maxIds, diff.snapshots.map((s) => s.maxId));
  const expected = diff.survivors!.groups.map((g) => ({ signature: g.signature, className: g.className, counts: g.counts, retainedSize: g.retainedSize }));
  const actual = curves.groups.map((g) => ({ signature: g.signature, className: g.className, counts: g.counts, retainedSize: g.retainedSize }));
  assert.deepEqual(actual, expected);
  const order = curves.groups.find((g) => g.className === 'Order');
  assert.deepEqual(order?.counts, [0, 15, 30]);
  const store = diff.survivors!.groups.find((g) => g.className === 'RequestContext')!;
  assert.deepEqual(curves.groups.find((g) => g.signature === store.signature)!.chain(), store.chain, 'the same labelled chain');
});
