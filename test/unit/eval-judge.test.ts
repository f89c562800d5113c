// The evaluation's drawer and judge (test/helpers/eval/, docs/evaluation.md) on their own: draws are a pure
// function of (seed, index) inside the stated ranges, and the judge's verdict sets, exit-code check and
// far-from-the-limit rule give the answers the docs state.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeProgram, drawOneSnapshotProgram, drawProgram, drawServiceProgram, farFromLimit, foundInOneSnapshot, FRAMEWORK_CLASSES, keptInOneSnapshot, keptPerInterval, NATIVE_HANDLE_CLASS, oneSnapshotKind, truthOf, type ProgramParams } from '../helpers/eval/draw.js';
import { drawLangGraphProgram, langGraphTruth, saverLoad, type LangGraphFault } from '../helpers/eval/draw-langgraph.js';
import { isShapeKind } from '../helpers/eval/draw-shapes.js';
import { judge, summarize } from '../helpers/eval/judge.js';
import { resultOf } from '../helpers/eval/evaluate.js';
import { keptDuringCapture, type Answer } from '../helpers/eval/run-program.js';

const answer = (verdict: string, exitCode: number | null, findings: Answer['findings'] = []): Answer => ({ verdict, exitCode, evidence: [], findings, taken: 3, snapshotTimes: [] });
const firstOf = (seed: number, pick: (p: ProgramParams) => boolean): ProgramParams => {
  for (let k = 0; k < 5000; k++) {
    const p = drawProgram(seed, k);
    if (pick(p)) return p;
  }
  throw new Error('no such program in 5000 draws');
};

test('program k of a seed is the same whatever else is drawn, and another seed draws another program', () => {
  assert.deepEqual(drawProgram(99, 17), drawProgram(99, 17));
  assert.notDeepEqual(drawProgram(99, 17), drawProgram(100, 17));
  assert.notDeepEqual(drawProgram(99, 17), drawProgram(99, 18));
});

test('draws stay inside the stated ranges, and every truth and pacing is drawn', () => {
  const seen = new Set<string>();
  for (let k = 0; k < 400; k++) {
    const p = drawProgram(3, k);
    seen.add(truthOf(p)).add(p.pacing.kind);
    assert.ok(p.heap.targetMB >= 20 && p.heap.targetMB <= 500, `heap ${p.heap.targetMB}`);
    assert.ok(p.snapshots >= 3 && p.snapshots <= 6);
    const { count } = keptPerInterval(p);
    if (p.fault.kind === 'leak' || p.fault.kind === 'external') assert.ok(count >= 1 && count <= 500, `rate ${count}`);
    assert.ok(drawProgram(3, k, { maxHeapMB: 40 }).heap.targetMB <= 40);
  }
  for (const s of ['leak', 'external', 'native', 'backlog', 'none', 'time', 'counter']) assert.ok(seen.has(s), s);
});

test('batching clients: about a third of programs, batches on both sides of the backlog byte floor', () => {
  let drawn = 0, small = 0, large = 0;
  for (let k = 0; k < 400; k++) {
    const p = drawProgram(5, k);
    const b = p.healthy.batcher;
    if (!b) continue;
    drawn++;
    assert.ok(b.flushMs >= 200 && b.flushMs <= 5000 && b.sendMs >= 10 && b.sendMs <= 1000, describeProgram(p));
    assert.ok(p.warmMs >= (b.flushMs + b.sendMs) * 1.5, 'serving once the batcher has flushed and sent');
    // the most one flush holds: a flush period's items, or the cap
    const perFlush = Math.min(b.maxBatch ?? Infinity, (b.flushMs / p.turnMs) * b.perTurn) * b.itemBytes;
    if (perFlush < 64 * 1024) small++;
    if (perFlush > 512 * 1024) large++;
  }
  assert.ok(drawn > 100 && drawn < 180, `${drawn} of 400`);
  assert.ok(small > 10 && large > 10, `${small} batches under 64 KiB, ${large} over 512 KiB`);
});

test('the judge: right verdicts per truth, false alarms, the exit code, inconclusive near and far', () => {
  const healthy = firstOf(1, (p) => truthOf(p) === 'none');
  assert.equal(judge(healthy, answer('none', 0), []).judgement, 'right');
  assert.equal(judge(healthy, answer('warm-up', 0), []).judgement, 'right');
  assert.equal(judge(healthy, answer('backlog', 0), []).judgement, 'wrong');
  assert.equal(judge(healthy, answer('none', 1), []).judgement, 'wrong', 'exit 1 without a leak');
  assert.equal(judge(healthy, undefined, ['attach exit 4']).judgement, 'wrong');

  const far = firstOf(1, (p) => p.fault.kind === 'leak' && farFromLimit(p));
  const near = firstOf(1, (p) => p.fault.kind === 'leak' && !farFromLimit(p));
  assert.equal(judge(far, answer('leak', 1), []).judgement, 'right');
  assert.equal(judge(far, answer('leak', 0), []).judgement, 'wrong', 'a leak must exit 1');
  assert.equal(judge(far, answer('backlog', 0), []).judgement, 'wrong');
  assert.equal(judge(far, answer('inconclusive', 0), []).judgement, 'wrong');
  assert.equal(judge(near, answer('inconclusive', 0), []).judgement, 'inconclusive');

  const drains = firstOf(1, (p) => truthOf(p) === 'backlog');
  for (const v of ['backlog', 'none']) assert.equal(judge(drains, answer(v, 0), []).judgement, 'right', v);
  assert.equal(judge(drains, answer('leak', 1), []).judgement, 'wrong');

  const queue = firstOf(1, (p) => p.fault.kind === 'backlog-grows');
  assert.equal(judge(queue, answer('backlog', 0, [{ kind: 'backlog', className: 'Object', count: 9, drained: false }]), []).judgement, 'right');
  assert.equal(judge(queue, answer('backlog', 0, [{ kind: 'backlog', className: 'Object', count: 9, drained: true }]), []).judgement, 'wrong');

  const native = firstOf(1, (p) => truthOf(p) === 'native');
  assert.equal(judge(native, answer('native', 0), []).judgement, 'right');
  assert.equal(judge(native, answer('leak', 1, [{ kind: 'leak', className: NATIVE_HANDLE_CLASS, count: 900 }]), []).judgement, 'right');
  assert.equal(judge(native, answer('leak', 1, [{ kind: 'leak', className: 'Object', count: 900 }]), []).judgement, 'wrong');
});

test('the ledger: what was kept between the first and last snapshot, per interval', () => {
  const ledger = [{ ms: 100, total: 10 }, { ms: 250, total: 14 }, { ms: 400, total: 40 }, { ms: 900, total: 41 }];
  // before 200: 10; before 500: 40 → 30 over two intervals
  assert.equal(keptDuringCapture(ledger, [200, 300, 500]), 15);
  assert.equal(keptDuringCapture(ledger, [50, 1000]), 41);
  assert.equal(keptDuringCapture([], [50, 1000]), 0, 'a program that kept nothing while looked at');
  assert.equal(keptDuringCapture(ledger, [200]), undefined, 'one snapshot has no interval');
});

test('a bursty leak that kept next to nothing while looked at is below the limit, whatever its drawn rate', () => {
  const leak = firstOf(4, (p) => p.fault.kind === 'leak' && farFromLimit(p) && p.fault.itemBytes >= 1024);
  const rate = keptPerInterval(leak).count;
  assert.equal(keptPerInterval(leak, 2).count, 2);
  assert.equal(judge(leak, answer('none', 0), []).judgement, 'wrong', 'the drawn rate is far above the limit');
  assert.equal(judge(leak, answer('none', 0), [], 2).judgement, 'below-limit', '2 kept an interval during the capture');
  assert.equal(judge(leak, answer('none', 0), [], rate).judgement, 'wrong');
  assert.equal(judge(leak, answer('inconclusive', 0), [], 2).judgement, 'inconclusive', 'near the limit while looked at');
  const queue = firstOf(4, (p) => p.fault.kind === 'backlog-grows');
  assert.equal(keptPerInterval(queue, 3).count, 3, 'a queue that never drains: what it grew by while looked at');
  assert.equal(keptPerInterval(queue).count, keptPerInterval(queue, undefined).count);

  const run = (a: Answer, keptObserved?: number) => ({ answer: a, problems: [], durationMs: 1, attachArgs: [], ...(keptObserved === undefined ? {} : { keptObserved }) });
  const s = summarize([resultOf(leak, run(answer('none', 0), 2)), resultOf(leak, run(answer('leak', 1), rate))]);
  assert.equal(s.detectionRateAboveLimit, 1, 'the one that kept 2 an interval is below the limit');
  assert.equal(s.detectionRateAboveDrawnLimit, 0.5, 'both were drawn above it');
});

test('the summary: false alarms over healthy programs, detection over programs that keep something', () => {
  const healthy = firstOf(2, (p) => truthOf(p) === 'none');
  const leak = firstOf(2, (p) => truthOf(p) === 'leak');
  const run = (a: Answer) => ({ answer: a, problems: [], durationMs: 1, attachArgs: [] });
  const s = summarize([
    resultOf(healthy, run(answer('leak', 1))),
    resultOf(firstOf(3, (p) => truthOf(p) === 'none'), run(answer('none', 0))),
    resultOf(leak, run(answer('leak', 1))),
  ]);
  assert.equal(s.falseAlarmRate, 0.5);
  assert.equal(s.detectionRate, 1);
  assert.equal(s.confusion.none!.leak, 1);
  assert.equal(s.inconclusiveRate, 0);
});

test('one-snapshot draw: healthy programs as the series draws them, or the context-capture fault with its stores', () => {
  let captured = 0, healthy = 0;
  for (let k = 0; k < 400; k++) {
    const series = drawProgram(2024, k);
    assert.notEqual(series.fault.kind, 'context-capture', 'the series draw never carries the one-snapshot fault');
    // The one-snapshot draw runs program.cjs's programs only: where the series has a LangGraph or a shape
    // program it draws the service program that index would otherwise have.
    if (series.fault.kind === 'langgraph' || isShapeKind(series.fault.kind)) continue;
    const p = drawOneSnapshotProgram(2024, k);
    if (oneSnapshotKind(p) === 'client-per-turn' || oneSnapshotKind(p) === 'healthy-clients') {
      assert.notEqual(truthOf(series), 'none', `#${k}: a healthy program is never replaced unless drawn to be captured`);
      continue;
    }
    if (p.fault.kind === 'context-capture') {
      captured++;
      assert.equal(truthOf(p), 'leak');
      assert.ok(p.fault.stores >= 1 && p.fault.stores <= 200, `stores ${p.fault.stores}`);
      assert.equal(p.healthy.als, true, 'turns run inside a store');
      assert.ok(p.warmMs >= (p.fault.stores + 5) * p.turnMs, 'every store is made before the program serves');
    } else {
      healthy++;
      assert.deepEqual(p, series, 'a healthy program is the series draw unchanged');
      assert.equal(truthOf(p), 'none');
    }
  }
  assert.ok(captured > 60 && healthy > 60, `captured ${captured}, healthy ${healthy}`);
});

test('LangGraph programs: a small share of a seed, the same per (seed, index), every side of the edges drawn', () => {
  assert.deepEqual(drawLangGraphProgram(99, 17), drawLangGraphProgram(99, 17));
  assert.notDeepEqual(drawLangGraphProgram(99, 17), drawLangGraphProgram(100, 17));
  assert.notDeepEqual(drawLangGraphProgram(99, 17), drawLangGraphProgram(99, 18));
  let mixed = 0;
  for (let k = 0; k < 1000; k++) {
    const p = drawProgram(5, k);
    if (p.fault.kind !== 'langgraph') continue;
    mixed++;
    assert.deepEqual(p, drawLangGraphProgram(5, k), 'program k is the same LangGraph program in a mixed run and under --fault langgraph');
  }
  assert.ok(mixed > 40 && mixed < 110, `${mixed} of 1000 are LangGraph programs`);
  const seen = new Map<string, number>();
  for (let k = 0; k < 400; k++) {
    const p = drawProgram(5, k, { fault: 'langgraph', maxHeapMB: 40, maxIntervalMs: 3000 });
    const f = p.fault as LangGraphFault;
    assert.equal(f.kind, 'langgraph');
    assert.ok(p.heap.targetMB >= 20 && p.heap.targetMB <= 40, `heap ${p.heap.targetMB}`);
    assert.ok(p.pacing.kind === 'counter' || p.pacing.intervalMs <= 3000);
    if (f.modelMs > 0) assert.equal(p.pacing.kind, 'time', 'long turns are paced by time');
    assert.ok(f.workers >= 1 && (f.durability === 'async' || f.workers <= 50) && f.steps >= 2 && f.steps <= 8 && f.saverLatencyMs >= 1);
    assert.ok(f.arrivalsPerSecond >= 2 && f.arrivalsPerSecond <= 20 && f.runsPerSecond <= f.arrivalsPerSecond);
    const truth = truthOf(p);
    assert.equal(truth, langGraphTruth(f));
    // each regime lands on the side of the edges it was drawn for
    const expected = { sync: 'none', 'async-keeps-up': 'none', 'async-drains': 'backlog', 'async-piles-up': 'leak' }[f.regime];
    assert.equal(truth, expected, `#${k} ${f.regime}: ρ ${saverLoad(f).toFixed(2)}`);
    if (truth === 'leak') assert.ok(keptPerInterval(p).count > 0);
    else assert.equal(keptPerInterval(p).count, 0);
    const side = `${f.durability} ${truth} ${f.saverLatencyMs > f.stepMs ? 'slow' : 'fast'} saver ${f.loadMs > 0 ? 'phased' : 'steady'} ${f.modelMs > 0 ? 'long' : 'short'}`;
    seen.set(side, (seen.get(side) ?? 0) + 1);
  }
  const memory = Array.from({ length: 400 }, (_, k) => drawLangGraphProgram(5, k).fault as LangGraphFault).filter((f) => f.saver === 'memory').length;
  assert.ok(memory > 80 && memory < 160, `${memory} of 400 on the MemorySaver`);
  for (const side of ['sync none slow', 'sync none fast', 'async none fast', 'async backlog slow saver steady', 'async backlog slow saver phased', 'async leak slow', 'async backlog slow saver steady long']) {
    assert.ok([...seen.keys()].some((s) => s.startsWith(side)), `${side}: ${[...seen.keys()].join(' | ')}`);
  }
});

test('LangGraph judge: a pile-up is a leak (or a backlog that did not drain), a draining backlog is no leak, sync is healthy', () => {
  const first = (truth: string) => {
    for (let k = 0; k < 500; k++) {
      const p = drawLangGraphProgram(8, k);
      if (truthOf(p) === truth) return p;
    }
    throw new Error(`no ${truth}`);
  };
  const pile = first('leak'), drains = first('backlog'), healthy = first('none');
  const puts = '{config, checkpoint, metadata, newVersions}';
  assert.equal(judge(pile, answer('leak', 1), []).judgement, 'right');
  assert.equal(judge(pile, answer('backlog', 0, [{ kind: 'backlog', className: puts, count: 400, drained: false }]), []).judgement, 'right');
  assert.equal(judge(pile, answer('backlog', 0, [{ kind: 'backlog', className: puts, count: 400, drained: true }]), []).judgement, 'wrong');
  assert.equal(judge(pile, answer('none', 0), []).judgement, 'wrong');
  assert.equal(judge(drains, answer('backlog', 0, [{ kind: 'backlog', className: puts, count: 30, drained: true }]), []).judgement, 'right');
  assert.equal(judge(drains, answer('none', 0), []).judgement, 'right');
  assert.equal(judge(drains, answer('leak', 1), []).judgement, 'wrong');
  assert.equal(judge(healthy, answer('none', 0), []).judgement, 'right');
  assert.equal(judge(healthy, answer('backlog', 0), []).judgement, 'wrong');
});

test('one-snapshot draw: client programs on both sides, deterministic, the others as they were', () => {
  const seen = new Map<string, number>();
  let copiesLow = 0, copiesHigh = 0, longLivedMax = 0;
  for (let k = 0; k < 400; k++) {
    const p = drawOneSnapshotProgram(77, k);
    assert.deepEqual(drawOneSnapshotProgram(77, k), p, `#${k}: the same program on every draw`);
    const kind = oneSnapshotKind(p);
    seen.set(kind, (seen.get(kind) ?? 0) + 1);
    const series = drawServiceProgram(77, k, {});
    if (kind === 'client-per-turn') {
      assert.ok(p.fault.kind === 'client-per-turn');
      assert.equal(truthOf(p), 'leak');
      assert.ok(FRAMEWORK_CLASSES.includes(p.fault.clientClass));
      assert.ok(p.fault.copies >= 1 && p.fault.copies <= 200, `copies ${p.fault.copies}`);
      assert.ok(p.warmMs >= (p.fault.copies + 5) * p.turnMs, 'every copy is made before the program serves');
      assert.deepEqual(keptInOneSnapshot(p), { what: 'copies', count: p.fault.copies });
      assert.ok(p.healthy.clients?.perTurn === null || p.healthy.clients?.perTurn === p.fault.clientClass);
      assert.equal(p.healthy.clients?.longLived, null, 'no long-lived clients beside the kept ones: the truth stays the copies drawn');
      assert.ok(foundInOneSnapshot(p, [{ className: p.fault.clientClass }]));
      assert.ok(!foundInOneSnapshot(p, [{ className: 'SessionRecord' }]), 'found only by a suspect of the kept class');
      assert.match(describeProgram(p), new RegExp(`client-per-turn ${p.fault.copies} ${p.fault.clientClass} kept`));
      if (p.fault.copies < 25) copiesLow++;
      else copiesHigh++;
    } else if (kind === 'healthy-clients') {
      assert.equal(truthOf(p), 'none');
      assert.notEqual(truthOf(series), 'none', 'drawn only where the series program is not healthy');
      const c = p.healthy.clients!;
      assert.ok(c.perTurn !== null || c.longLived !== null, 'some clients');
      if (c.longLived) {
        assert.ok(c.longLived.count >= 1 && c.longLived.count <= 20, `long-lived ${c.longLived.count}`);
        longLivedMax = Math.max(longLivedMax, c.longLived.count);
      }
      assert.equal(keptInOneSnapshot(p), undefined);
    } else {
      assert.equal(p.healthy.clients, undefined, 'healthy and captured programs have no clients');
    }
  }
  assert.ok((seen.get('client-per-turn') ?? 0) > 50 && (seen.get('healthy-clients') ?? 0) > 50, JSON.stringify([...seen]));
  assert.ok((seen.get('healthy') ?? 0) > 80 && (seen.get('context-capture') ?? 0) > 60, JSON.stringify([...seen]));
  assert.ok(copiesLow > 10 && copiesHigh > 10, `copies below 25: ${copiesLow}, from 25: ${copiesHigh}`);
  assert.equal(longLivedMax, 20);
  assert.notDeepEqual(drawOneSnapshotProgram(77, 5), drawOneSnapshotProgram(78, 5));
});
