// The verdict rules on hand-made diff results and memory timelines: each verdict from the evidence
// that should produce it, and not from evidence that should not (the model: docs/diagnosis-model.md).
// Decisions are asserted on data (verdict, kind, drained, counts), never on the wording of evidence.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose } from '../../src/diagnose/diagnose.js';
import { DEFAULT_MODEL } from '../../src/diagnose/model-params.js';
import { withClassSums } from '../../src/diagnose/find-growth.js';
import { fromSurvivorGroup } from '../../src/diagnose/growing-group.js';
import { isExternal } from '../../src/diagnose/carriers.js';
import type { MemorySample } from '../../src/diagnose/memory-trend.js';
import type { ClassDiffRow, DiffResult, SurvivorGroup } from '../../src/analysis/diff/diff-series.js';

function row(name: string, counts: number[], deleted: number[] = counts.slice(1).map(() => 0), sizeEach = 100): ClassDiffRow {
  const n = counts.length;
  return {
    name,
    counts,
    sizes: counts.map((c) => c * sizeEach),
    retainedSizes: counts.map((c) => c * sizeEach),
    newPerInterval: counts.slice(1).map((c, k) => Math.max(0, c - counts[k]!) + deleted[k]!),
    deletedPerInterval: deleted,
    survivorCounts: null,
    newCount: Math.max(0, counts[n - 1]! - counts[0]!),
    deletedCount: deleted.reduce((a, b) => a + b, 0),
    countDelta: counts[n - 1]! - counts[0]!,
    sizeDelta: (counts[n - 1]! - counts[0]!) * sizeEach,
    retainedDelta: (counts[n - 1]! - counts[0]!) * sizeEach,
    growthPerInterval: (counts[n - 1]! - counts[0]!) / (n - 1),
    grewEveryInterval: n >= 3 ? counts.every((c, k) => k === 0 || c > counts[k - 1]!) : null,
  };
}

function group(className: string, counts: number[], retainedSize: number): SurvivorGroup {
  const count = counts[counts.length - 1]!;
  return {
    signature: `${className} ← Array[] ← system / Context.items ← (root)`,
    className,
    count,
    selfSize: count * 40,
    retainedSize,
    externalSize: 0,
    counts,
    growthPerInterval: count / (counts.length - 1),
    grewEveryInterval: counts.every((c, k) => k === 0 || c > counts[k - 1]!),
    heldBy: 'lasting',
    chain: [
      { node: { id: 101, name: className, type: 'object', className }, edge: { type: 'element', name: '3' }, selfSize: 40, retainedSize: 72 },
      { node: { id: 11, name: 'Array', type: 'object', className: 'Array' }, edge: { type: 'context', name: 'items' }, selfSize: 32, retainedSize: 9000 },
      { node: { id: 7, name: 'system / Context', type: 'object', className: 'system / Context' }, edge: { type: 'shortcut', name: 'x' }, selfSize: 40, retainedSize: 9100 },
      { node: { id: 1, name: '', type: 'synthetic', className: '(root)' }, edge: null, selfSize: 0, retainedSize: 10000 },
    ],
  };
}

function survivorCountsOf(className: string, groups: readonly SurvivorGroup[], snapshots: number): number[] {
  const curve = new Array<number>(snapshots).fill(0);
  for (const g of groups) if (g.className === className) g.counts.forEach((c, k) => (curve[k]! += c));
  return curve;
}

function diffOf(classes: ClassDiffRow[], groups: SurvivorGroup[] = [], snapshots = 3): DiffResult {
  return {
    schemaVersion: 1,
    snapshots: Array.from({ length: snapshots }, (_, k) => ({ file: `s${k}`, nodeCount: 1000, edgeCount: 4000, totalSize: 1e6, maxId: 1000 * (k + 1) })),
    sameProcess: true,
    mode: 'ids',
    process: { same: true, by: 'ids', idsLineUp: true, origins: Array.from({ length: snapshots }, () => null) },
    limitations: [],
    warnings: [],
    growth: 100_000,
    // As the diff fills it: each class's survivors over every group of the class.
    classes: classes.map((r) => ({ ...r, survivorCounts: r.survivorCounts ?? survivorCountsOf(r.name, groups, snapshots) })),
    survivors: { count: groups.reduce((a, g) => a + g.count, 0), size: 0, groups },
    signatures: null,
  };
}

test('leak: a survivor group that grew in every interval along one path', () => {
  const d = diagnose({ diff: diffOf([row('Session', [10, 110, 210])], [group('Session', [0, 100, 200], 20_000)]), elapsedMs: 120_000, unitCount: 200 });
  assert.equal(d.verdict, 'leak');
  const f = d.findings[0]!;
  assert.equal(f.kind, 'leak');
  assert.equal(f.className, 'Session');
  assert.equal(f.perInterval, 100);
  assert.equal(f.perMinute, 100);
  assert.equal(f.perUnit, 1);
  assert.match(f.fix, /pushed into the array "items"/);
});

test('no leak: a group that stopped growing, or one too small to matter', () => {
  assert.notEqual(diagnose({ diff: diffOf([row('Session', [10, 110, 110])], [group('Session', [0, 100, 100], 20_000)]) }).verdict, 'leak');
  assert.equal(diagnose({ diff: diffOf([row('Session', [1, 3, 5])], [group('Session', [0, 2, 4], 288)]) }).verdict, 'none');
});

test('backlog: pending work replaced between snapshots, and whether it drains (data, not prose)', () => {
  // Some members wait longer than an interval (those that are all gone by the next snapshot are
  // another test's: each count is then the work of a moment).
  const draining = diagnose({ diff: diffOf([row('PendingWrite', [20, 400, 50], [10, 390], 2000)]) });
  assert.equal(draining.verdict, 'backlog');
  assert.equal(draining.findings[0]!.drained, true);
  // No chain shows LangGraph's checkpoint chain: the generic advice, naming the class.
  assert.match(draining.findings[0]!.fix, /PendingWrite/);
  assert.doesNotMatch(draining.findings[0]!.fix, /durability/);
  const rising = diagnose({ diff: diffOf([row('PendingWrite', [20, 200, 400], [10, 190], 2000)]) });
  assert.equal(rising.verdict, 'backlog');
  assert.equal(rising.findings[0]!.drained, false);
});

test('no backlog: a pile-up held by nothing lasting, only by what ran at the snapshot', () => {
  // Suspended generators 8 → 28 → 34, half replaced between snapshots, each held through a context
  // from V8's strong roots: continuations queued behind the turn running at that moment.
  const counts = [8, 28, 34];
  const rows = [row('Generator', counts, [4, 16], 20_000)];
  const held = (heldBy: SurvivorGroup['heldBy']) => [{ ...group('Generator', [0, 12, 30], 600_000), heldBy }];
  assert.equal(diagnose({ diff: diffOf(rows, held('lasting')) }).verdict, 'backlog');
  const moment = diagnose({ diff: diffOf(rows, held('transient')) });
  assert.notEqual(moment.verdict, 'backlog');
  assert.ok(!moment.findings.some((f) => f.kind === 'backlog'), moment.evidence.join(' | '));
});

test('a real leak stays a leak when a backlog drained and the heap shrank', () => {
  const diff = { ...diffOf([row('Session', [10, 110, 210], undefined, 200), row('PendingWrite', [20, 400, 50], [10, 390], 2000)], [group('Session', [0, 100, 200], 40_000)]), growth: -500_000 };
  const d = diagnose({ diff });
  assert.equal(d.verdict, 'leak');
  assert.deepEqual(d.findings.map((f) => [f.kind, f.className, f.drained ?? null]), [['leak', 'Session', null], ['backlog', 'PendingWrite', true]]);
});

test('a bounded structure at its cap is not a leak: its survivors are recent, its size stands still', () => {
  // An LRU of 500 at its cap since before the second snapshot: every survivor is recent, the count flat.
  const d = diagnose({ diff: diffOf([row('Entry', [300, 500, 500], [0, 250], 400)], [group('Entry', [0, 250, 500], 200_000)]) });
  assert.ok(d.verdict !== 'leak' && !d.findings.some((f) => f.kind === 'leak'), JSON.stringify(d.findings.map((f) => f.kind)));
});

test('objects of the work in flight are not growth: born in the last interval only', () => {
  const d = diagnose({ diff: diffOf([row('CompiledStateGraph', [2, 3, 4], [2, 3], 5000)], [group('CompiledStateGraph', [0, 0, 4], 400_000)]) });
  assert.equal(d.verdict, 'none');
  assert.equal(d.findings.length, 0);
});

test('growth in proportion to the work: an interval that added far less than its share is not steady', () => {
  const steady = diagnose({ diff: diffOf([row('Session', [10, 110, 210])], [group('Session', [0, 100, 200], 40_000)]), unitsAt: [0, 100, 200] });
  assert.equal(steady.verdict, 'leak');
  // The same survivors, but the second interval did four times the work of the first for as many objects.
  const lagging = diagnose({ diff: diffOf([row('Session', [10, 110, 130])], [group('Session', [0, 100, 120], 40_000)]), unitsAt: [0, 100, 500] });
  assert.notEqual(lagging.verdict, 'leak');
});

test('every independent group that grows with the work is a finding, however small its share', () => {
  const sessions = group('Session', [0, 2000, 4000], 4_000_000);
  // Independent: held by another array than the sessions' (groups on one lasting holder fold into one finding).
  const own = group('onShutdown()', [0, 100, 200], 40_000);
  const listener = { ...own, signature: 'onShutdown() ← Array[] ← Object._events ← EventEmitter.bus', chain: own.chain.map((h, i) => (i === 1 || i === 2 ? { ...h, node: { ...h.node, id: h.node.id + 20 } } : h)) };
  const d = diagnose({ diff: diffOf([row('Session', [0, 2000, 4000], undefined, 1000), row('onShutdown()', [1, 101, 201], undefined, 200)], [sessions, listener]) });
  assert.equal(d.verdict, 'leak');
  assert.deepEqual(d.findings.map((f) => f.className), ['Session', 'onShutdown()']);
});

test('AsyncContextFrame is plumbing: never the class a finding names', () => {
  const frames = group('AsyncContextFrame', [0, 100, 200], 900_000);
  const d = diagnose({ diff: diffOf([row('AsyncContextFrame', [5, 105, 205]), row('RunTree', [5, 105, 205])], [frames, group('RunTree', [0, 100, 200], 800_000)]) });
  assert.equal(d.findings[0]?.className, 'RunTree');
});

test('external from class totals (snapshots of two processes): the backing stores are a finding of their own', () => {
  // No ids: no group names a holder, so the backing stores' rows are the finding (no verdict without one).
  const stores = row('system / JSArrayBufferData', [10, 110, 210], undefined, 64 * 1024);
  const across = { ...diffOf([stores, row('Object', [500, 510, 505])]), sameProcess: false, process: { same: false, by: 'metadata' as const, idsLineUp: false, origins: [null, null, null] } };
  const d = diagnose({ diff: across });
  assert.equal(d.verdict, 'external');
  assert.equal(d.findings.length, 1);
  const f = d.findings[0]!;
  assert.deepEqual([f.kind, f.className, f.count, f.retainedSize], ['external', 'system / JSArrayBufferData', 200, 200 * 64 * 1024]);
  assert.match(f.action, /leakhunt attach/);
});

test('a shrinking heap is never external or leak from one backing store of a few hundred KiB', () => {
  const store = { ...row('system / JSArrayBufferData', [40, 41, 41], [0, 0], 6000), sizes: [240_000, 481_000, 481_000], sizeDelta: 241_000 };
  const shrinking = { ...diffOf([store, row('Object', [9000, 5000, 3000], [4000, 2000], 4000)]), growth: -15e6 };
  const d = diagnose({ diff: { ...shrinking, snapshots: shrinking.snapshots.map((s, k) => ({ ...s, totalSize: [41.6e6, 33e6, 26.4e6][k]! })) } });
  assert.ok(d.verdict !== 'external' && d.verdict !== 'leak', d.verdict);
});

test('external: backing stores growing with the work outweigh the JS objects that hold them', () => {
  const stores = { ...row('system / JSArrayBufferData', [10, 110, 210], undefined, 192 * 1024) };
  const records = row('Record', [10, 110, 210], undefined, 80);
  const kept = { ...group('Record', [0, 100, 200], 200 * (192 * 1024 + 80)), externalSize: 200 * 192 * 1024 };
  const d = diagnose({ diff: diffOf([stores, records], [kept]) });
  assert.equal(d.verdict, 'external');
  assert.equal(d.findings[0]!.className, 'Record');
  assert.equal(d.findings[0]!.kind, 'external');
  // A JS leak larger than the buffers kept beside it: the verdict is the leak, the buffers a finding of their own.
  const sessions = { ...group('Session', [0, 1000, 2000], 60e6), signature: 'Session ← Map.table ← system / Context.sessions ← (root)' };
  const both = diagnose({ diff: diffOf([stores, records, row('Session', [0, 1000, 2000], undefined, 30_000)], [sessions, kept]) });
  assert.equal(both.verdict, 'leak');
  assert.deepEqual(both.findings.map((f) => [f.className, f.kind]), [['Session', 'leak'], ['Record', 'external']]);
});

function samples(f: (minute: number) => Partial<MemorySample>): MemorySample[] {
  return Array.from({ length: 11 }, (_, m) => ({ t: m * 60_000, rss: 200e6, heapUsed: 50e6, heapTotal: 60e6, external: 5e6, arrayBuffers: 4e6, ...f(m) }));
}

test('the native verdict comes from the memory timeline; external never from the timeline alone', () => {
  const flat = diffOf([row('Session', [10, 10, 10])]);
  // Between snapshots `external` counts Buffers not yet collected; the snapshots' backing stores (after GC) stayed flat.
  const external = diagnose({ diff: flat, samples: samples((m) => ({ external: 5e6 + m * 2e6, rss: 200e6 + m * 2e6 })) });
  assert.equal(external.verdict, 'none');
  const native = diagnose({ diff: flat, samples: samples((m) => ({ rss: 200e6 + m * 3e6 })) });
  assert.equal(native.verdict, 'native');
  assert.deepEqual(native.findings.map((f) => f.kind), ['native'], 'no verdict without a finding');
  assert.equal(diagnose({ diff: flat, samples: samples(() => ({})) }).verdict, 'none');
  const heap = diagnose({ diff: flat, samples: samples((m) => ({ heapUsed: 50e6 + m * 2e6, heapTotal: 60e6 + m * 2e6, rss: 200e6 + m * 2e6 })) });
  assert.notEqual(heap.verdict, 'external');
  assert.notEqual(heap.verdict, 'native');
  assert.match(heap.evidence.join(' '), /growing: heap/);
});

test('warm-up: what the first interval added stayed, the last added little; work in flight is not warm-up', () => {
  const classes = [row('(compiled code)', [1000, 1500, 1500]), row('Map', [5, 9, 9])];
  const d = diagnose({ diff: diffOf(classes, [group('(compiled code)', [0, 500, 500], 60_000), group('Map', [0, 4, 4], 2000)]) });
  assert.equal(d.verdict, 'warm-up');
  // The same class totals, but nothing born in the first interval is alive at the end (it was the work in flight).
  assert.equal(diagnose({ diff: diffOf(classes, [group('Map', [0, 0, 4], 2000)]) }).verdict, 'none');
});

test('no backlog: a bounded queue near its capacity, or pending work too small to matter', () => {
  const full = diagnose({ diff: diffOf([row('QueuedRun', [25, 97, 99], [25, 95], 2000)]) });
  // Class totals alone (no survivor filled up and stayed) are neither warm-up nor growth.
  assert.equal(full.verdict, 'none');
  assert.equal(full.findings.length, 0);
  // Rising in every interval and replaced, but holding 37 KiB more at the end: under what a pile-up must
  // hold to be a finding (ModelParams.backlogMinBytes, 256 KiB).
  assert.equal(diagnose({ diff: diffOf([row('QueuedRun', [20, 200, 400], [20, 190], 100)]) }).verdict, 'none');
});

/** A group whose chain runs through a deferred waiting in a pool's queue: {operation, resolve, reject} ← Array ← Pool.waiting. */
function pendingGroup(className: string, counts: number[], retainedSize: number): SurvivorGroup {
  const g = group(className, counts, retainedSize);
  const [object, ...rest] = g.chain;
  return {
    ...g,
    chain: [
      { ...object!, edge: { type: 'property', name: 'operation' } },
      { node: { id: 55, name: 'Object', type: 'object', className: '{operation, resolve, reject}' }, edge: { type: 'element', name: '7' }, selfSize: 40, retainedSize: 500, label: { kind: 'pending-work', text: 'a pending operation' } },
      { node: { id: 56, name: 'Array', type: 'object', className: 'Array' }, edge: { type: 'property', name: 'waiting' }, selfSize: 32, retainedSize: 9000 },
      { node: { id: 57, name: 'Pool', type: 'object', className: 'Pool' }, edge: { type: 'property', name: 'pool' }, selfSize: 32, retainedSize: 9000 },
      ...rest.slice(1),
    ],
  };
}

test('backlog: objects held through pending work whose operations complete between snapshots', () => {
  const moving = row('{operation, resolve, reject}', [100, 300, 500], [80, 90]);
  const d = diagnose({ diff: diffOf([row('Session', [10, 110, 210]), moving], [pendingGroup('Session', [0, 100, 200], 20_000)]) });
  assert.equal(d.verdict, 'backlog', d.evidence.join(' | '));
  assert.equal(d.findings[0]!.kind, 'backlog');
  assert.equal(d.findings[0]!.className, 'Session');
  assert.match(d.evidence[0]!, /held by pending work: \{operation, resolve, reject\} @55 in Pool\.waiting \(@57\).*170 such operations completed/);
  assert.equal(d.findings[0]!.drained, false);
  assert.match(d.findings[0]!.fix, /Pool\.waiting/);
  // The same chain, but no operation ever completes: work that never completes is a leak.
  const stuck = row('{operation, resolve, reject}', [100, 300, 500], [0, 0]);
  const s = diagnose({ diff: diffOf([row('Session', [10, 110, 210]), stuck], [pendingGroup('Session', [0, 100, 200], 20_000)]) });
  assert.equal(s.verdict, 'leak');
  assert.match(s.findings[0]!.evidence.join(' '), /none of which completed/);
});

test('not sure yet: held by pending work that completes, its count within its own back-and-forth', () => {
  // Work that lasts longer than an interval: what was born in the first interval is still alive at the
  // last snapshot and looks kept, but the class's count rose by 12 of ~36, 1.4 standard deviations.
  const moving = row('{operation, resolve, reject}', [100, 300, 500], [80, 90]);
  const session = { ...row('Session', [30, 34, 42], [12, 14]), survivorCounts: [0, 16, 38] };
  const d = diagnose({ diff: diffOf([session, moving], [pendingGroup('Session', [0, 8, 17], 400_000)]) });
  assert.equal(d.verdict, 'inconclusive', d.evidence.join(' | '));
  assert.equal(d.findings.length, 0);
  assert.match(d.evidence[0]!, /^not sure yet: Session held by pending work that completes, alive 30 → 34 → 42: a rise of 1\.4 standard deviations/);
  assert.deepEqual(d.candidates?.[0]?.pending?.counts, [30, 34, 42]);
  // Survivors whose count piles up beyond that: a backlog.
  const piled = { ...row('Session', [30, 70, 110], [12, 14]), survivorCounts: [0, 40, 80] };
  const p = diagnose({ diff: diffOf([piled, moving], [pendingGroup('Session', [0, 40, 80], 400_000)]) });
  assert.equal(p.verdict, 'backlog', p.evidence.join(' | '));
});

test('a backlog is named after the program\'s pending job, whether it was found by its class or through its payload', () => {
  // The jobs' payload arrays outlived an interval in the queue (found through pending work); the jobs'
  // own class rose and turned over (found by its class row): the job names the cause.
  const moving = row('{operation, resolve, reject}', [100, 300, 500], [80, 90]);
  const arrays = { ...row('Array', [30, 70, 110], [12, 14]), survivorCounts: [0, 40, 80] };
  const jobs = row('ThumbnailJob', [30, 110, 190], [20, 60], 4000);
  const d = diagnose({ diff: diffOf([arrays, jobs, moving], [pendingGroup('Array', [0, 40, 80], 400_000)]) });
  assert.equal(d.verdict, 'backlog', d.evidence.join(' | '));
  assert.deepEqual(d.findings.map((f) => f.className), ['ThumbnailJob', 'Array']);
});

test('backlog: a should-be-few framework object held by pending work is not a should-be-few leak', () => {
  const moving = row('{operation, resolve, reject}', [100, 300, 500], [80, 90]);
  const tracer = row('LangChainTracer', [31, 131, 231], undefined, 2000);
  const g = pendingGroup('LangChainTracer', [0, 100, 200], 400_000);
  const d = diagnose({ diff: diffOf([tracer, moving], [g]) });
  assert.equal(d.verdict, 'backlog', d.evidence.join(' | '));
  assert.equal(d.findings.find((f) => f.className === 'LangChainTracer')?.kind, 'backlog');
  assert.ok(!d.findings.some((f) => f.kind === 'should-be-few'));
  // Not held by pending work, the same growth is a should-be-few finding.
  const plain = diagnose({ diff: diffOf([tracer], [group('LangChainTracer', [0, 100, 200], 400_000)]) });
  assert.equal(plain.verdict, 'leak');
  assert.equal(plain.findings[0]!.kind, 'should-be-few');
});

test('work that never outlives an interval: a pile-up only when its rise stands out from the readings\' own scatter', () => {
  // A batching client's open batch and the batch being sent, 99% replaced between snapshots: each count
  // is the work of one moment, as a batch flushed on a timer rises and falls.
  const batch = (counts: number[]) => row('{id, at, note}', counts, counts.slice(0, -1).map((c) => c - 1), 6000);
  const three = diagnose({ diff: diffOf([batch([37, 118, 169])]) });
  assert.equal(three.verdict, 'inconclusive', three.evidence.join(' | '));
  assert.match(three.evidence[0]!, /rise this steeply by chance 4\.2%, where a pile-up needs under 1%/);
  assert.ok(three.candidates?.[0]?.pending?.trendChance! > 0.01);
  // Five readings along a line: 0.03%, a pile-up.
  assert.equal(diagnose({ diff: diffOf([batch([37, 118, 169, 230, 300])], [], 5) }).verdict, 'backlog');
  // A queue growing by a steady step, four readings: 0.1%, a pile-up; four that rise unevenly (a batch
  // caught at rising fill levels): 1.2%, not sure.
  assert.equal(diagnose({ diff: diffOf([batch([64, 229, 394, 566])], [], 4) }).verdict, 'backlog');
  assert.equal(diagnose({ diff: diffOf([batch([20, 180, 240, 470])], [], 4) }).verdict, 'inconclusive');
  // Risen and fallen back among such readings: no finding at all.
  const fell = diagnose({ diff: diffOf([batch([1, 91, 63])]) });
  assert.equal(fell.verdict, 'none', fell.evidence.join(' | '));
  // Members that outlive the interval (a queue whose jobs wait): the Poisson rise decides, as before.
  assert.equal(diagnose({ diff: diffOf([row('{id, at, note}', [37, 118, 169], [20, 80], 6000)]) }).verdict, 'backlog');
});

test('no backlog: a batch queue caught full in one snapshot only', () => {
  // A batching queue flushed on a timer (LangSmith's auto-batch queue): 0 → 81 → 0 is timing, not a pile-up.
  const batch = diagnose({ diff: diffOf([row('{action, payload, itemPromise}', [0, 81, 0], [0, 81], 4000)]) });
  assert.equal(batch.verdict, 'none');
  assert.equal(batch.findings.length, 0);
  // Counts piled up over the starting level in two snapshots and still above it are a pile-up that drained.
  assert.equal(diagnose({ diff: diffOf([row('PendingWrite', [0, 40, 81, 30], [0, 30, 81], 8000)], [], 4) }).verdict, 'backlog');
  // Back where it started by the last snapshot (a tracing client's batch between flushes: 0 → 10 → 99 → 0,
  // 251 KiB at its peak): the work came and went, nothing piled up over the series. Said, not found.
  const flushed = diagnose({ diff: diffOf([row('{name, run_type, start_time}', [0, 10, 99, 0], [0, 10, 98], 2600)], [], 4) });
  assert.equal(flushed.verdict, 'none');
  assert.equal(flushed.findings.length, 0);
  assert.match(flushed.evidence[0]!, /rose to 99 and fell back to 0 \(0 → 10 → 99 → 0\).*nothing piled up over the series/);
  // A burst at one snapshot over a steady level (a batching client's promises) is not.
  assert.notEqual(diagnose({ diff: diffOf([row('Promise', [89, 89, 507, 21], [80, 80, 500], 200)], [], 4) }).verdict, 'backlog');
});

test('native from attach: RSS steps across the snapshots\' pauses are taken out before judging', () => {
  const flat = diffOf([row('Session', [10, 10, 10])]);
  const pauses = [{ startMs: 3 * 60_000 + 1000, endMs: 3 * 60_000 + 5000 }, { startMs: 7 * 60_000 + 1000, endMs: 7 * 60_000 + 5000 }];
  // Only the pauses raise RSS (20 MB each): what the snapshots left behind, not the program.
  const steps = diagnose({ diff: flat, timelineHasSnapshots: true, pauses, samples: samples((m) => ({ rss: 200e6 + (m > 3 ? 20e6 : 0) + (m > 7 ? 20e6 : 0) })) });
  assert.notEqual(steps.verdict, 'native');
  // RSS rising between the pauses too: native growth of the program.
  const grows = diagnose({ diff: flat, timelineHasSnapshots: true, pauses, samples: samples((m) => ({ rss: 200e6 + m * 3e6 + (m > 3 ? 20e6 : 0) })) });
  assert.equal(grows.verdict, 'native');
  // The same rise squeezed into 11 s of windows (a young process's allocator): too short to call native.
  const fast = samples((m) => ({ rss: 200e6 + m * 3e6 })).map((x, i) => ({ ...x, t: i * 1000 }));
  const fastPauses = [{ startMs: 3100, endMs: 3500 }, { startMs: 7100, endMs: 7500 }];
  assert.notEqual(diagnose({ diff: flat, timelineHasSnapshots: true, pauses: fastPauses, samples: fast }).verdict, 'native');
  // Without the pauses, a timeline that spans snapshots never gives native.
  assert.notEqual(diagnose({ diff: flat, timelineHasSnapshots: true, samples: samples((m) => ({ rss: 200e6 + m * 3e6 })) }).verdict, 'native');
});

test('held by a reaction of a promise that never settles: a leak, whatever else the process collects', () => {
  const g = pendingGroup('Session', [0, 100, 200], 40_000);
  const [object, , ...rest] = g.chain;
  const reaction = { node: { id: 60, name: 'system / PromiseReaction', type: 'hidden', className: '(system)' }, edge: { type: 'internal', name: 'reactions_or_result' }, selfSize: 32, retainedSize: 500, label: { kind: 'pending-work' as const, text: 'a reaction of a promise that has not settled' } };
  const chain = [object!, reaction, ...rest];
  // (system) objects come and go all the time; the Sessions held never do.
  const d = diagnose({ diff: diffOf([row('Session', [10, 110, 210]), row('(system)', [5000, 5100, 5200], [900, 950])], [{ ...g, chain }]) });
  assert.equal(d.verdict, 'leak');
  assert.equal(d.findings[0]!.kind, 'leak');
});

test('a finding carried by a timer or a listener is named after the program\'s objects it holds', () => {
  const hop = (id: number, className: string, edge: { type: string; name: string } | null, type = 'object') => ({ node: { id, name: className, type, className }, edge, selfSize: 40, retainedSize: 100 });
  const tail = [hop(11, 'TimersList', { type: 'property', name: '_idlePrev' }), hop(1, '(root)', null, 'synthetic')];
  const timers = { ...group('Timeout', [0, 100, 200], 90_000), signature: 'Timeout ← TimersList (list) ← (root)', chain: [hop(300, 'Timeout', { type: 'property', name: '_idleNext' }), ...tail] };
  const jobs = { ...group('PollJob', [0, 100, 200], 60_000), signature: 'PollJob ← system / Context.job ← Function.context ← Timeout._onTimeout ← TimersList (list) ← (root)',
    chain: [hop(400, 'PollJob', { type: 'context', name: 'job' }), hop(401, 'system / Context', { type: 'internal', name: 'context' }), hop(402, 'Function', { type: 'property', name: '_onTimeout' }), hop(300, 'Timeout', { type: 'property', name: '_idleNext' }), ...tail] };
  const d = diagnose({ diff: diffOf([row('Timeout', [3, 103, 203]), row('PollJob', [0, 100, 200])], [timers, jobs]) });
  assert.equal(d.verdict, 'leak');
  assert.equal(d.findings.length, 1);
  const f = d.findings[0]!;
  assert.equal(f.className, 'PollJob');
  assert.equal(f.count, 200);
  assert.equal(f.retainedSize, 90_000, 'what the whole leak retains, timers included');
  assert.ok(f.chain.some((h) => h.node.className === 'Timeout'), 'the timer stays on the chain');
  assert.deepEqual(f.alsoHeld, ['200 × Timeout']);
});

test('objects made once each along paths of their own are not one growing class', () => {
  // Eight lazily made services, each with its own array, one or two per interval: no class-wide leak.
  const arrays = Array.from({ length: 8 }, (_, k) => ({ ...group('Array', k < 4 ? [0, 1, 1] : [0, 0, 1], 30_000), signature: `Array ← Service${k}.items ← (root)` }));
  const d = diagnose({ diff: diffOf([row('Array', [100, 104, 108], undefined, 2000)], arrays) });
  assert.ok(!d.findings.some((f) => f.kind === 'leak'), JSON.stringify(d.findings.map((f) => f.className)));
});

test('a backlog seen at its peak and part-way down: drained, though the drain had not replaced half of it yet', () => {
  const d = diagnose({ diff: diffOf([row('MailJob', [1, 165, 99], [1, 68], 4200)]) });
  assert.equal(d.verdict, 'backlog');
  assert.equal(d.findings[0]!.drained, true);
});

test('LangGraph\'s durability advice for a backlog when its runs pile up beside it, the generic advice otherwise', () => {
  const writes = row('{operation, resolve, reject}', [20, 200, 400], [10, 150], 2000);
  const runs = row('PregelLoop', [2, 20, 40], [2, 18], 3000);
  const langGraph = diagnose({ diff: diffOf([writes, runs]) });
  assert.equal(langGraph.verdict, 'backlog');
  assert.match(langGraph.findings[0]!.fix, /durability "sync"/);
  const plain = diagnose({ diff: diffOf([writes, row('PregelLoop', [1, 1, 1])]) });
  assert.doesNotMatch(plain.findings[0]!.fix, /durability/);
  // A pile-up that began before the first snapshot never doubles within it (story B at 50 turns a
  // second: 111 → 142 → 175 runs in flight): rising in every interval is enough.
  const rising = diagnose({ diff: diffOf([writes, row('PregelLoop', [111, 142, 175], [100, 130])]) });
  const writesOf = (d: typeof rising) => d.findings.find((f) => f.className === '{operation, resolve, reject}')!;
  assert.match(writesOf(rising).fix, /durability "sync"/);
  // Runs that rose once and fell back are the graph's concurrency moving, not a pile-up.
  const moving = diagnose({ diff: diffOf([writes, row('PregelLoop', [111, 142, 130], [100, 140])]) });
  assert.doesNotMatch(writesOf(moving).fix, /durability/);
});

test('checkpoint puts waiting in LangGraph\'s put chain: a backlog filling and draining within turns, not a timeline-only external', () => {
  const PUTS = '{config, checkpoint, metadata, newVersions}';
  const growingExternal = samples((m) => ({ external: 5e6 + m * 2e6, rss: 200e6 + m * 2e6 }));
  // Long turns, time-paced: the snapshots caught the queue partly full, full, then empty; one run in flight.
  const d = diagnose({ diff: diffOf([row(PUTS, [22, 31, 0], [20, 31]), row('PregelLoop', [1, 1, 1], [1, 1])]), samples: growingExternal });
  assert.equal(d.verdict, 'backlog');
  const f = d.findings.find((x) => x.kind === 'backlog')!;
  assert.equal(f.className, PUTS);
  assert.equal(f.drained, true);
  assert.match(f.fix, /durability "sync"/);
  // Filled in the middle snapshot and fell back in the last interval, or caught full at the end: drained is data.
  assert.equal(diagnose({ diff: diffOf([row(PUTS, [0, 31, 30], [0, 31]), row('PregelLoop', [1, 1, 1], [1, 1])]) }).findings.find((x) => x.kind === 'backlog')?.drained, false);
  // Durability "sync": one put per run in flight, even with many runs at once.
  for (const [puts, runs] of [[[1, 2, 1], [1, 1, 1]], [[30, 31, 30], [30, 31, 30]]] as const) {
    const sync = diagnose({ diff: diffOf([row(PUTS, [...puts], [puts[0], puts[1]]), row('PregelLoop', [...runs], [runs[0], runs[1]])]) });
    assert.ok(!sync.findings.some((x) => x.kind === 'backlog'), `${puts.join(' → ')} puts, ${runs.join(' → ')} runs: ${sync.verdict}`);
  }
  // Nothing waiting in the put chain, nothing kept: the timeline alone is no verdict (no finding).
  assert.equal(diagnose({ diff: diffOf([row('Session', [10, 10, 10])]), samples: growingExternal }).verdict, 'none');
});

test('with ids, backing stores whose total rose twice are Buffers in flight unless a kept group holds them', () => {
  // Buffers made and dropped by the work in flight: the class total rises in both intervals, no Buffer
  // born after the first snapshot is still alive in the last.
  const stores = { ...row('system / JSArrayBufferData', [60, 70, 76], [50, 58], 33 * 1024) };
  const buffers = row('Buffer', [60, 70, 76], [50, 58], 96);
  const d = diagnose({ diff: diffOf([stores, buffers, row('Object', [5000, 5001, 5002])]) });
  assert.equal(d.verdict, 'none');
  assert.deepEqual(d.findings, []);
});

test('a class kept beside its own work in flight is named through the path of the kept members', () => {
  // 37 an interval kept in a Map; ~200 more alive at each snapshot in the turns in flight (held by
  // suspended async functions), all of which were born in the last interval.
  const kept = { ...group('{note}', [0, 37, 73], 40_000), signature: '{note} ← (array)[] ← Map.table ← Object.keptMap ← (root)' };
  const inFlight = { ...group('{note}', [0, 0, 228], 60_000), signature: '{note} ← Array[] ← Generator.parameters_and_registers ← (root)' };
  inFlight.chain = [
    inFlight.chain[0]!,
    { node: { id: 12, name: 'Generator', type: 'object', className: 'Generator' }, edge: { type: 'internal', name: 'parameters_and_registers' }, selfSize: 40, retainedSize: 500, label: { kind: 'pending-work', text: 'a suspended async function' } },
    inFlight.chain[3]!,
  ];
  const notes = { ...row('{note}', [231, 268, 342], [190, 190]), newPerInterval: [227, 264] };
  const d = diagnose({ diff: diffOf([notes], [inFlight, kept]) });
  assert.equal(d.verdict, 'leak');
  assert.equal(d.findings[0]!.kind, 'leak');
  assert.match(d.findings[0]!.signature ?? '', /keptMap/);
});

test('wrappers of native memory are judged by their count, not their few heap bytes', () => {
  // TLS contexts kept: ~100 B of heap each, ~20 KiB outside it; Node lists its own node beside each.
  const contexts = group('SecureContext', [0, 78, 154], 16_016);
  const rows = [row('SecureContext', [71, 149, 225]), row('Detached Node / SecureContext', [35, 74, 112])];
  assert.equal(diagnose({ diff: diffOf(rows, [contexts]) }).verdict, 'leak');
  // The same count and bytes of a class that wraps nothing native is below the floor.
  const plain = group('Setting', [0, 78, 154], 16_016);
  assert.equal(diagnose({ diff: diffOf([row('Setting', [71, 149, 225])], [plain]) }).verdict, 'none');
});

test('one older object beside a burst in the last interval is not a rate that went on', () => {
  // 81 entries of a TTL cache alive at the newest snapshot only, summed with one compiled-code object
  // of the same class born in the first interval.
  const burst = { ...group('Object', [0, 0, 81], 18_144), signature: 'Object ← (array)[] ← Map.table ← Object.ttl ← (root)' };
  const old = { ...group('Object', [0, 1, 1], 784), signature: 'Object ← (compiled code).transition_info ← (root)' };
  const objects = { ...row('Object', [84889, 84889, 84973], [3, 2]), newPerInterval: [3, 83] };
  const d = diagnose({ diff: diffOf([objects], [burst, old]) });
  assert.notEqual(d.verdict, 'leak');
  assert.deepEqual(d.findings.filter((f) => f.kind === 'leak'), []);
});

test('nothing outlived an interval and the class had as many in flight before: none', () => {
  // A tracing client's batch queue: none of its items lives from one snapshot to the next; 61, 37 and
  // 52 waited at the three snapshots. The class had 60 in flight at the first and let them all go.
  const name = '{action, payload, itemPromise}';
  const items = { ...group(name, [0, 0, 52], 254_000), signature: `${name} ← Array[] ← AutoBatchQueue.items ← (root)` };
  const moving = { ...row(name, [61, 37, 52]), newPerInterval: [36, 52], survivorCounts: [0, 0, 52] };
  assert.equal(diagnose({ diff: diffOf([moving], [items]) }).verdict, 'none');
  // More than the class ever had in flight stays not sure.
  const steady = { ...row(name, [20, 20, 32]), newPerInterval: [20, 32], survivorCounts: [0, 0, 32] };
  const fewer = { ...items, count: 32, counts: [0, 0, 32], retainedSize: 156_000 };
  assert.equal(diagnose({ diff: diffOf([steady], [fewer]) }).verdict, 'inconclusive');
});

test('a first-in first-out backlog that grows stays not sure though nothing outlived an interval', () => {
  // Jobs served in order, 39 more waiting each interval: each lives less than an interval, so the
  // newest snapshot holds only the last interval's (0, 112), and the late rate far outruns the early
  // one (0). The class's level rose 0 → 74 → 113: more than it ever had in flight.
  const jobs = { ...group('{job, resolve}', [0, 0, 112], 235_000), signature: '{job, resolve} ← Array[] ← Object.pending ← (root)' };
  const rowOfJobs = { ...row('{job, resolve}', [0, 74, 113]), newPerInterval: [73, 112], survivorCounts: [0, 0, 112] };
  assert.equal(diagnose({ diff: diffOf([rowOfJobs], [jobs]) }).verdict, 'inconclusive');
  // A common class: its 6,170 objects from before the first snapshot are not in flight (41 and 80 were).
  const resolvers = { ...group('Function', [0, 0, 100], 40_000), signature: 'Function ← {job, resolve}.resolve ← Array[] ← Object.pending ← (root)' };
  const functions = { ...row('Function', [6211, 6250, 6270]), newPerInterval: [80, 100], survivorCounts: [0, 0, 100] };
  assert.equal(diagnose({ diff: diffOf([functions], [resolvers]) }).verdict, 'inconclusive');
});

test('a batch caught before its flush, above every earlier level, stays not sure: nothing outlived an interval', () => {
  // Points flushed by size: none lives from one snapshot to the next; the newest snapshot found 45
  // waiting, the earlier two 20 and 3. A batch at a new high cannot be told from a backlog that grows
  // while each point leaves within an interval: another snapshot settles it.
  const points = { ...group('MetricPoint', [0, 0, 45], 50_000), signature: 'MetricPoint ← Array[] ← Batcher.points ← (root)' };
  const rowOfPoints = { ...row('MetricPoint', [20, 3, 45], [20, 3]), newPerInterval: [3, 45] };
  assert.equal(diagnose({ diff: diffOf([rowOfPoints], [points]) }).verdict, 'inconclusive');
});

test('members held by the entries of a cache at its cap go with them, however much their own class moves', () => {
  // An LRU map at its cap of 1,022 entries, each `{value}` holding a string: every interval's entries
  // outlive it and push as many older ones out. The entries' class stands still; the string class
  // moves by ~100 either way with the program's other strings.
  const lru = '(array)[] ← Map.table ← Object.lru ← (root)';
  const entries = { ...group('{value}', [0, 70, 148, 222], 44_400), signature: `{value} ← ${lru}` };
  const values = { ...group('(string)', [0, 70, 148, 222], 37_296), signature: `(string) ← {value}.value ← ${lru}` };
  const strings = { ...row('(string)', [13811, 13942, 13871, 13904]), newPerInterval: [305, 249, 273], survivorCounts: [0, 141, 298, 571] };
  const atCap = { ...row('{value}', [1022, 1022, 1022, 1022]), newPerInterval: [70, 78, 74], survivorCounts: [0, 70, 148, 222] };
  assert.equal(diagnose({ diff: diffOf([strings, atCap], [entries, values], 4) }).verdict, 'none');
  // The same strings held by entries that pile up: a leak.
  const growing = { ...atCap, counts: [1022, 1092, 1170, 1244] };
  const d = diagnose({ diff: diffOf([strings, growing], [entries, values], 4) });
  assert.equal(d.verdict, 'leak');
});

test('growth that stopped in the last interval only is not settled while another snapshot can be taken', () => {
  // A leak that keeps its objects in bursts: 400 in the first interval, none in the second (a gap
  // between bursts, or a warm-up that ended). Counted as single objects the stop is far beyond chance;
  // counted as arrivals (one burst) it is not: attach takes another snapshot while it can.
  const bursts = { ...group('PromptCache', [0, 400, 400], 200_000), signature: 'PromptCache ← Array[] ← Object.kept ← (root)' };
  const rowOf = (counts: number[]) => ({ ...row('PromptCache', counts), newPerInterval: counts.slice(1).map((c, k) => c - counts[k]!), survivorCounts: null });
  const paused = diffOf([rowOf([10, 410, 410])], [bursts]);
  assert.equal(diagnose({ diff: paused, params: { ...DEFAULT_MODEL, settling: true } }).verdict, 'inconclusive');
  // The final diagnosis rules it out, as before.
  assert.equal(diagnose({ diff: paused }).verdict, 'none');
  // Three silent intervals after it: stopped, settled either way.
  const stopped = { ...bursts, counts: [0, 400, 400, 400, 400] };
  assert.equal(diagnose({ diff: diffOf([rowOf([10, 410, 410, 410, 410])], [stopped], 5), params: { ...DEFAULT_MODEL, settling: true } }).verdict, 'none');
});

test('a leak kept in bursts is not growth levelling off: its counts scatter around their trend', () => {
  // Buffers kept in bursts: 527 in the first interval, 257 and 256 in the next two. As single objects
  // the drop from 527 is far beyond chance; the counts scatter around their trend by ~24 times a
  // count's own noise, and so does the drop.
  const kept = { ...group('Buffer', [0, 527, 784, 1040], 800_000), signature: 'Buffer ← Array[] ← Object.kept ← (root)' };
  const buffers = { ...row('Buffer', [40, 567, 824, 1080]), newPerInterval: [527, 257, 256], survivorCounts: [0, 527, 784, 1040] };
  assert.equal(diagnose({ diff: diffOf([buffers], [kept], 4) }).verdict, 'leak');
  // A cache levelling off along its trend (halving each interval) stays not sure.
  const levelling = { ...kept, counts: [0, 600, 900, 1050], retainedSize: 800_000 };
  const rowOfLevelling = { ...buffers, counts: [40, 640, 940, 1090], newPerInterval: [600, 300, 150], survivorCounts: [0, 600, 900, 1050] };
  assert.equal(diagnose({ diff: diffOf([rowOfLevelling], [levelling], 4) }).verdict, 'inconclusive');
});

test('a backlog is headed by the program\'s pending job, not by the promise that awaits it', () => {
  // A job queue growing in every interval: most jobs' entries and the promises awaiting them are
  // replaced between snapshots, some wait longer. The promises are larger; the job names the cause.
  const promises = row('Promise', [20, 94, 184], [10, 60], 6000);
  const jobs = row('ThumbnailJob', [10, 47, 91], [5, 30], 4000);
  const d = diagnose({ diff: diffOf([promises, jobs]) });
  assert.equal(d.verdict, 'backlog');
  assert.equal(d.findings[0]!.className, 'ThumbnailJob');
});

test('a class summed over paths is sized by the paths that kept members, not by the work in flight beside them', () => {
  // A leak of closures kept in a Set (150, then 147 an interval, no Buffers), beside the turns in flight at
  // the newest snapshot, each holding its closure and a 27.8 KiB Buffer along a timer's path: summed over
  // every path the class read `external` (66% of 880 KiB backing stores), after Buffers it never kept.
  const kept = { ...group('Function', [0, 150, 297], 273_240), signature: 'Function ← (array)[] ← Set.table ← Object.keptSet ← (root)' };
  const inFlight = (n: number, retained: number, external: number, via: string) => ({
    ...group('Function', [0, 0, n], retained),
    signature: `Function ← ${via} ← Timeout._onTimeout ← TimersList._idleNext ← (root)`,
    externalSize: external,
  });
  const groups = [kept, inFlight(21, 623_385, 597_513, 'Array'), inFlight(42, 2352, 0, '(system)[]'), inFlight(21, 2016, 0, 'Promise')].map(fromSurvivorGroup);
  const sum = withClassSums(groups, DEFAULT_MODEL.minMembersPerPath).find((g) => g.paths === 4)!;
  assert.deepEqual(sum.counts, [0, 150, 381], 'members: every path');
  assert.equal(sum.retainedSize, 273_240, 'bytes: the path whose members outlived an interval');
  assert.equal(sum.externalSize, 0);
  assert.equal(isExternal(sum, DEFAULT_MODEL.externalShare), false);
  // No path kept any yet: sized by all of them.
  const young = withClassSums([inFlight(21, 623_385, 597_513, 'Array'), inFlight(42, 2352, 0, '(system)[]')].map(fromSurvivorGroup), 4).find((g) => g.paths === 2)!;
  assert.equal(young.retainedSize, 625_737);
});

/** A chain from `className` up through `reactions` promise reactions (newest first) to the promise holding them, then `above`. */
function reactionChain(className: string, promiseId: number, above: SurvivorGroup['chain']): SurvivorGroup['chain'] {
  const hop = (id: number, name: string, type: string, edge: { type: string; name: string } | null, label?: { kind: 'pending-work'; text: string }) =>
    ({ node: { id, name, type, className: name }, edge, selfSize: 40, retainedSize: 500, ...(label ? { label } : {}) });
  const reaction = (id: number, edge: string) => ({ ...hop(id, '(system)', 'hidden', { type: 'internal', name: edge }, { kind: 'pending-work', text: 'a reaction of a promise that has not settled' }), node: { id, name: 'system / PromiseReaction', type: 'hidden', className: '(system)' } });
  return [
    hop(2501, className, 'object', { type: 'internal', name: 'reactions_or_result' }),
    hop(2502, 'Promise', 'object', { type: 'context', name: '1' }),
    hop(2503, 'system / Context', 'object', { type: 'internal', name: 'context' }),
    hop(2504, 'Function', 'closure', { type: 'internal', name: '1' }),
    reaction(2505, '0'),
    reaction(2506, 'reactions_or_result'),
    hop(promiseId, 'Promise', 'object', above[0]?.edge ?? null),
    ...above.slice(1),
  ];
}

test('one unsettled promise whose reaction list gains members is a leak, however many others complete', () => {
  const root = { node: { id: 1, name: '', type: 'synthetic', className: '(root)' }, edge: null, selfSize: 0, retainedSize: 1e6 };
  const context = { node: { id: 7, name: 'system / Context', type: 'object', className: 'system / Context' }, edge: { type: 'shortcut', name: 'x' }, selfSize: 40, retainedSize: 9100 };
  // The promise (@900) existed before the first snapshot (its largest id is 1000): `shuttingDown`.
  const chain = reactionChain('Reply', 900, [{ ...root, edge: { type: 'context', name: 'shuttingDown' } }, context, root]);
  const g = { ...group('Reply', [0, 100, 200], 400_000), chain };
  // Replies of turns that did not race complete all the time: completions of the class say nothing here.
  const replies = row('Reply', [50, 150, 250], [20, 20]);
  const d = diagnose({ diff: diffOf([replies], [g]) });
  assert.equal(d.verdict, 'leak', d.evidence.join(' | '));
  assert.equal(d.findings[0]!.kind, 'leak');
  assert.match(d.findings[0]!.action, /settles per turn/);
  // The same chain on a promise made after the first snapshot is not told by identity: completions decide, as before.
  const young = { ...g, chain: reactionChain('Reply', 1500, [{ ...root, edge: { type: 'context', name: 'shuttingDown' } }, context, root]) };
  assert.equal(diagnose({ diff: diffOf([replies], [young]) }).verdict, 'backlog');
});

test('a chain of writes whose head is new work on a timer is a backlog, even when its class never completes', () => {
  const hop = (id: number, name: string, edge: { type: string; name: string } | null, type = 'object') => ({ node: { id, name, type, className: name }, edge, selfSize: 40, retainedSize: 500 });
  // Head: the in-flight write's sleep promise (@2600, new) ← closure ← Timeout (new) ← TimersList (old).
  const above = [hop(0, 'Promise', { type: 'context', name: '1' }), hop(2601, 'system / Context', { type: 'internal', name: 'context' }), hop(2602, 'Function', { type: 'property', name: '_onTimeout' }, 'closure'),
    hop(2603, 'Timeout', { type: 'property', name: '_idleNext' }), hop(40, 'TimersList', { type: 'element', name: '15' }), { ...hop(1, '(root)', null, 'synthetic') }];
  const chain = reactionChain('{configurable}', 2600, above);
  const g = { ...group('{configurable}', [0, 300, 700], 400_000), chain };
  // The configs of completed writes stay with their run: none of the class is collected.
  const configs = row('{configurable}', [200, 500, 900], [0, 0]);
  const d = diagnose({ diff: diffOf([configs], [g]), timesAt: [0, 15_000, 30_000] });
  assert.equal(d.verdict, 'backlog', d.evidence.join(' | '));
  assert.equal(d.findings[0]!.kind, 'backlog');
  assert.equal(d.findings[0]!.drained, false);
});

test('growth that speeds up is a leak: each interval keeps more than the last', () => {
  // 60 kept in the first interval, 400 in the last: the last outruns the first beyond chance, and the first is a leak's rate by itself.
  const d = diagnose({ diff: diffOf([row('Checkpoint', [10, 70, 470])], [group('Checkpoint', [0, 60, 460], 200_000)]) });
  assert.equal(d.verdict, 'leak', d.evidence.join(' | '));
  // One older object beside a burst in the last interval is still not a rate that went on.
  assert.notEqual(diagnose({ diff: diffOf([row('Checkpoint', [10, 11, 411])], [group('Checkpoint', [0, 1, 401], 200_000)]) }).verdict, 'leak');
});
