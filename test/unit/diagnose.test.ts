// The verdict rules on hand-made diff results and memory timelines: each verdict from the evidence
// that should produce it, and not from evidence that should not.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose } from '../../src/diagnose/diagnose.js';
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

function diffOf(classes: ClassDiffRow[], groups: SurvivorGroup[] = [], snapshots = 3): DiffResult {
  return {
    schemaVersion: 1,
    snapshots: Array.from({ length: snapshots }, (_, k) => ({ file: `s${k}`, nodeCount: 1000, edgeCount: 4000, totalSize: 1e6, maxId: 1000 * (k + 1) })),
    sameProcess: true,
    warnings: [],
    growth: 100_000,
    classes,
    survivors: { count: groups.reduce((a, g) => a + g.count, 0), size: 0, groups },
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

test('backlog: pending work replaced between snapshots, and whether it drains', () => {
  const draining = diagnose({ diff: diffOf([row('PendingWrite', [20, 400, 50], [20, 390], 2000)]) });
  assert.equal(draining.verdict, 'backlog');
  assert.match(draining.evidence.join(' '), /drains/);
  assert.match(draining.findings[0]!.fix, /durability "sync"/);
  const rising = diagnose({ diff: diffOf([row('PendingWrite', [20, 200, 400], [20, 190], 2000)]) });
  assert.equal(rising.verdict, 'backlog');
  assert.match(rising.evidence.join(' '), /not fallen back yet/);
});

function samples(f: (minute: number) => Partial<MemorySample>): MemorySample[] {
  return Array.from({ length: 11 }, (_, m) => ({ t: m * 60_000, rss: 200e6, heapUsed: 50e6, heapTotal: 60e6, external: 5e6, arrayBuffers: 4e6, ...f(m) }));
}

test('external and native verdicts come from the memory timeline', () => {
  const flat = diffOf([row('Session', [10, 10, 10])]);
  const external = diagnose({ diff: flat, samples: samples((m) => ({ external: 5e6 + m * 2e6, rss: 200e6 + m * 2e6 })) });
  assert.equal(external.verdict, 'external');
  const native = diagnose({ diff: flat, samples: samples((m) => ({ rss: 200e6 + m * 3e6 })) });
  assert.equal(native.verdict, 'native');
  assert.equal(diagnose({ diff: flat, samples: samples(() => ({})) }).verdict, 'none');
  const heap = diagnose({ diff: flat, samples: samples((m) => ({ heapUsed: 50e6 + m * 2e6, heapTotal: 60e6 + m * 2e6, rss: 200e6 + m * 2e6 })) });
  assert.notEqual(heap.verdict, 'external');
  assert.notEqual(heap.verdict, 'native');
  assert.match(heap.evidence.join(' '), /growing: heap/);
});

test('warm-up: growth in the first interval only', () => {
  const d = diagnose({ diff: diffOf([row('(compiled code)', [1000, 1300, 1300]), row('Map', [5, 9, 9])]) });
  assert.equal(d.verdict, 'warm-up');
});

test('no backlog: a bounded queue near its capacity, or pending work too small to matter', () => {
  assert.equal(diagnose({ diff: diffOf([row('QueuedRun', [25, 97, 99], [25, 95], 2000)]) }).verdict, 'none');
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
  assert.match(d.evidence[1]!, /not drained yet/);
  assert.match(d.findings[0]!.fix, /Pool\.waiting/);
  // The same chain, but no operation ever completes: work that never completes is a leak.
  const stuck = row('{operation, resolve, reject}', [100, 300, 500], [0, 0]);
  const s = diagnose({ diff: diffOf([row('Session', [10, 110, 210]), stuck], [pendingGroup('Session', [0, 100, 200], 20_000)]) });
  assert.equal(s.verdict, 'leak');
  assert.match(s.findings[0]!.evidence.join(' '), /none of which completed/);
});

test('backlog: a should-be-few framework object held by pending work is not a should-be-few leak', () => {
  const moving = row('{operation, resolve, reject}', [100, 300, 500], [80, 90]);
  const tracer = row('LangChainTracer', [31, 74, 75]);
  const g = pendingGroup('LangChainTracer', [0, 43, 44], 2000); // too small a group for a leak by itself
  const d = diagnose({ diff: diffOf([tracer, moving], [g]) });
  assert.equal(d.verdict, 'backlog', d.evidence.join(' | '));
  assert.equal(d.findings.find((f) => f.className === 'LangChainTracer')?.kind, 'backlog');
  assert.ok(!d.findings.some((f) => f.kind === 'should-be-few'));
});

test('no backlog: a batch queue caught full in one snapshot only', () => {
  // A batching queue flushed on a timer (LangSmith's auto-batch queue): 0 → 81 → 0 is timing, not a pile-up.
  const batch = diagnose({ diff: diffOf([row('{action, payload, itemPromise}', [0, 81, 0], [0, 81], 4000)]) });
  assert.ok(batch.verdict === 'none' || batch.verdict === 'warm-up', batch.verdict);
  assert.equal(batch.findings.length, 0);
  // The same counts seen in two snapshots are a pile-up that drained.
  assert.equal(diagnose({ diff: diffOf([row('PendingWrite', [40, 81, 0], [30, 81], 8000)]) }).verdict, 'backlog');
});
