// Holder reads after the last snapshot (docs/diagnosis-model.md, "Holder reads"): a group the snapshots
// could not settle is settled by what its lasting holder did next — it went on gaining members (a leak),
// it stopped (ruled out), or a pause between bursts is still likely (not sure). Asserted on verdicts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose } from '../../src/diagnose/diagnose.js';
import type { HolderRead } from '../../src/diagnose/finding.js';
import { holderToRead, holderTrend, holderVerdict } from '../../src/diagnose/holder-reads.js';
import type { ChainHop } from '../../src/analysis/chain-description.js';
import type { ClassDiffRow, DiffResult, SurvivorGroup } from '../../src/analysis/diff/diff-series.js';

const chain: ChainHop[] = [
  { node: { id: 5001, name: 'PromptCache', type: 'object', className: 'PromptCache' }, edge: { type: 'element', name: '3' }, selfSize: 40, retainedSize: 500 },
  { node: { id: 4002, name: '', type: 'array', className: '(object elements)' }, edge: { type: 'internal', name: 'elements' }, selfSize: 8000, retainedSize: 9000 },
  { node: { id: 11, name: 'Array', type: 'object', className: 'Array' }, edge: { type: 'property', name: 'kept' }, selfSize: 32, retainedSize: 9100 },
  { node: { id: 7, name: 'Object', type: 'object', className: 'Object' }, edge: { type: 'shortcut', name: 'x' }, selfSize: 40, retainedSize: 9200 },
  { node: { id: 1, name: '', type: 'synthetic', className: '(root)' }, edge: null, selfSize: 0, retainedSize: 10000 },
];

function diffOf(counts: number[]): DiffResult {
  const n = counts.length;
  const born = counts.slice(1).map((c, k) => c - counts[k]!);
  const group: SurvivorGroup = {
    signature: 'PromptCache ← Array[] ← Object.kept ← (root)', className: 'PromptCache', count: counts[n - 1]!, selfSize: 40 * counts[n - 1]!,
    retainedSize: 500 * counts[n - 1]!, externalSize: 0, counts, growthPerInterval: counts[n - 1]! / (n - 1),
    grewEveryInterval: born.every((b) => b > 0), heldBy: 'lasting', chain,
  };
  const live = counts.map((c) => c + 10);
  const row: ClassDiffRow = {
    name: 'PromptCache', counts: live, sizes: live.map((c) => c * 40), retainedSizes: live.map((c) => c * 500),
    newPerInterval: born, deletedPerInterval: born.map(() => 0), survivorCounts: counts, newCount: counts[n - 1]!, deletedCount: 0,
    countDelta: counts[n - 1]!, sizeDelta: counts[n - 1]! * 40, retainedDelta: counts[n - 1]! * 500, growthPerInterval: counts[n - 1]! / (n - 1), grewEveryInterval: null,
  };
  return {
    schemaVersion: 1,
    snapshots: Array.from({ length: n }, (_, k) => ({ file: `s${k}`, nodeCount: 1000, edgeCount: 4000, totalSize: 1e6, maxId: 1000 * (k + 1) })),
    sameProcess: true, mode: 'ids', process: { same: true, by: 'ids', idsLineUp: true, origins: Array.from({ length: n }, () => null) },
    limitations: [], warnings: [], growth: 100_000, classes: [row], survivors: { count: counts[n - 1]!, size: 0, groups: [group] }, signatures: null,
  };
}

/** Reads of a holder: per interval (the start first), its counts a moment apart. */
function readsOf(perInterval: number[][]): HolderRead[] {
  return perInterval.flatMap((counts, interval) => counts.map((count, k) => ({ interval, at: interval * 10_000 + k * 1000, count })));
}

const withReads = (reads: HolderRead[]) => [{ holderId: 11, className: 'Array', reads }];

test('the holder read is the first lasting JS object up the chain, not its backing store', () => {
  assert.equal(holderToRead(chain, 1000)?.node.id, 11);
  // Every hop new but the root: nothing lasting to read.
  assert.equal(holderToRead(chain, 5), undefined);
});

test('floors over each interval\'s second half: growth in its first half counts, in-flight members do not', () => {
  const t = holderTrend(readsOf([[400, 400, 400], [400, 400, 800, 800], [800, 800, 1200, 1200]]))!;
  assert.deepEqual(t.floors, [400, 800, 1200]);
  // From the first interval's floor: the start is read while the target catches up after the pause.
  assert.equal(t.gain, 400);
  // Members in flight come and go around a flat level: the gain is within the scatter.
  const busy = holderTrend(readsOf([[50, 70, 40], [65, 30, 55, 45], [60, 44, 72, 38]]))!;
  assert.ok(busy.z < 1.5, `z ${busy.z}`);
});

test('the start, read as the target catches up after the pause, is not the baseline', () => {
  // A count of work in flight (a timer list per due time, a Map of requests being served): every timer
  // due during the snapshot's pause fires at once, so the start reads low and recovers within the first
  // interval, then stays level. Measured from the start it "grew" by 9 at z ≈ 5.
  const recovering = readsOf([[4, 9, 12], [14, 15, 13, 13, 15, 11, 16, 13], [13, 14, 12, 11, 13, 14, 15], [13, 14, 12, 14, 13, 13, 16], [12, 15, 14, 13, 14, 13, 16]]);
  const t = holderTrend(recovering)!;
  assert.ok(t.z < 1.5, `z ${t.z} from the first interval's floor`);
  // Not grown; whether it stopped depends on the kept counts (one burst of 36 in two intervals leaves a
  // pause between bursts likely after three level ones).
  assert.equal(holderVerdict(recovering, [0, 36], 3.3, 1.5), 'unsure');
  assert.equal(holderVerdict(recovering, [30, 36], 3.3, 1.5), 'stopped');
  // The start and one interval say nothing yet.
  assert.equal(holderTrend(readsOf([[4, 9, 12], [14, 15, 13]])), undefined);
});

test('a burst leak the snapshots saw once is a leak when its holder went on growing after them', () => {
  // 400 kept in the first interval, none in the second: a pause between bursts, or a warm-up that ended.
  const diff = diffOf([0, 400, 400]);
  assert.equal(diagnose({ diff }).verdict, 'none');
  const grew = diagnose({ diff, holderReads: withReads(readsOf([[410, 410, 410], [410, 410, 410, 410], [410, 410, 820, 820], [820, 820, 820, 820], [820, 1230, 1230, 1230]])) });
  assert.equal(grew.verdict, 'leak');
  assert.equal(grew.findings[0]!.className, 'PromptCache');
  // It stayed flat for four intervals: stopped.
  const flat = diagnose({ diff, holderReads: withReads(readsOf([[410, 410, 410], [410, 410, 410], [410, 410, 410], [410, 410, 410], [410, 410, 410]])) });
  assert.equal(flat.verdict, 'none');
  // Flat for one interval only: a pause between bursts is still likely.
  const short = diagnose({ diff, holderReads: withReads(readsOf([[410, 410, 410], [410, 410, 410]])) });
  assert.equal(short.verdict, 'inconclusive');
});

test('reads of a holder that is not the group\'s change nothing', () => {
  const diff = diffOf([0, 400, 400]);
  const other = [{ holderId: 99, className: 'Map', reads: readsOf([[0, 0], [500, 500], [1000, 1000]]) }];
  assert.equal(diagnose({ diff, holderReads: other }).verdict, 'none');
});

test('holderVerdict: grew at the leak level, stopped below the ruled-out level unless a pause is likely', () => {
  const up = readsOf([[100, 100], [100, 150, 150], [150, 200, 200]]);
  assert.equal(holderVerdict(up, [40, 0], 3, 1.5), 'grew');
  const level = readsOf([[100, 100], [100, 100], [100, 100], [100, 100]]);
  assert.equal(holderVerdict(level, [40, 0], 3, 1.5), 'stopped');
  // One burst an interval before the silence, read over one silent interval: a pause is likely.
  assert.equal(holderVerdict(readsOf([[100, 100], [100, 100]]), [40, 0], 3, 1.5), 'unsure');
});

test('a common class that moves by more than its in-flight noise does not confirm kept growth; flat reads rule it out', () => {
  // The values of a keyed cache under its cap, replaced as keys are written again: 57, 67 and 97 of
  // each interval's values outlived it. `Object` as a whole moved +141, −100, +130 with everything else
  // made of it; its in-flight estimate alone (~125) allowed ±16.
  const diff = diffOf([0, 57, 124, 221]);
  const objects: ClassDiffRow = { ...diff.classes[0]!, name: 'PromptCache', counts: [458008, 458149, 458049, 458179], newPerInterval: [240, 134, 270], survivorCounts: [0, 58, 125, 395] };
  const moving = { ...diff, classes: [objects] };
  assert.equal(diagnose({ diff: moving }).verdict, 'inconclusive');
  // The holder read flat for four intervals: replaced, not kept.
  const flat = readsOf([[380, 380, 380], [380, 380, 380], [380, 380, 380], [380, 380, 380], [380, 380, 380]]);
  assert.equal(diagnose({ diff: moving, holderReads: withReads(flat) }).verdict, 'none');
  // The same steps without the back-and-forth: kept.
  const steady = { ...diff, classes: [{ ...objects, counts: [458008, 458065, 458132, 458229] }] };
  assert.equal(diagnose({ diff: steady }).verdict, 'leak');
});

test('a floor that moves within the reads\' noise is not a burst: a busy holder that stays level is stopped', () => {
  // A TTL cache's entries come and go by ±25 between reads; its floors wander by 15. Counted as an
  // arrival, each such step would make the silence after it look like a pause between bursts.
  const ttl = readsOf([[125, 135, 145], [135, 160, 140, 170, 150, 140], [160, 140, 165, 145, 170, 141], [165, 150, 175, 145, 160, 140], [140, 165, 155, 170, 150, 140]]);
  assert.equal(holderVerdict(ttl, [40, 0], 3, 1.5), 'stopped');
});

test('a class whose first objects came in the last interval is not sure, and its holder\'s growth makes it a leak', () => {
  // A leak kept in bursts whose first burst fell in the last interval: 0, then 152. The class had no
  // object before it, so its work in flight is unknown: not evidence of nothing.
  const diff = diffOf([0, 0, 152]);
  const spans: ClassDiffRow = { ...diff.classes[0]!, counts: [123, 123, 275], newPerInterval: [0, 152], survivorCounts: [0, 0, 152] };
  const fresh = { ...diff, classes: [spans] };
  assert.equal(diagnose({ diff: fresh }).verdict, 'inconclusive');
  const grew = readsOf([[275, 275, 275], [275, 275, 420], [420, 420, 420], [420, 560, 560], [560, 560, 700]]);
  assert.equal(diagnose({ diff: fresh, holderReads: withReads(grew) }).verdict, 'leak');
});

test('a queue whose work in flight climbs: its holder\'s reads settle it, a flat one even after a last-interval rise', () => {
  // Every job leaves within an interval, so the group holds the last interval's 196 alone, while its
  // class's work in flight climbed 43 → 98 → 150 → 200 (judge-group.ts pilingLevels).
  const base = diffOf([0, 0, 0, 196]);
  const row: ClassDiffRow = { ...base.classes[0]!, counts: [1389, 1444, 1496, 1546], newPerInterval: [98, 150, 200], deletedPerInterval: [43, 98, 150], survivorCounts: [0, 0, 0, 200] };
  const diff = { ...base, classes: [row] };
  assert.equal(diagnose({ diff }).verdict, 'inconclusive');
  // Its queue (the holder) went on gaining members after the last snapshot: a leak.
  const gaining = readsOf([[196, 196, 196], [196, 210, 230, 250], [250, 270, 290, 300], [300, 320, 340, 350], [350, 370, 390, 400]]);
  assert.equal(diagnose({ diff, holderReads: withReads(gaining) }).verdict, 'leak');
  // Flat for four intervals: the climb was a moment's (a batch level drifting against the snapshots'
  // period), and the last interval's members are that work, not a burst after which the reads may pause.
  const flat = readsOf([[3, 3, 3], [3, 3, 3], [3, 3, 3], [3, 3, 3], [3, 3, 3]]);
  assert.equal(diagnose({ diff, holderReads: withReads(flat) }).verdict, 'none');
});
