// The shapes of the evaluation's generator (draw-shapes.ts, docs/evaluation.md "Shapes"): ordered pending
// chains, a long-lived promise gaining reactions, kept amounts growing faster than linearly. Their share of
// a seed, the other programs of a seed as they were drawn before the shapes came, each family's truth by
// construction on both sides of the detection limit, the judge's verdicts, and the template's ledger.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describeProgram, drawProgram, drawServiceProgram, keptPerInterval, sampleIndexes, truthOf, writesLedger, type ProgramParams } from '../helpers/eval/draw.js';
import { chainLoad, type ChainFault } from '../helpers/eval/draw-chain.js';
import type { GrowingFault } from '../helpers/eval/draw-growing.js';
import { maybeLangGraphProgram } from '../helpers/eval/draw-langgraph.js';
import type { RaceFault } from '../helpers/eval/draw-race.js';
import { drawShapeProgram, isShapeKind, SHAPE_KINDS, type ShapeKind } from '../helpers/eval/draw-shapes.js';
import { resultOf } from '../helpers/eval/evaluate.js';
import { aboveLimit, judge, summarize } from '../helpers/eval/judge.js';
import { PENDING_PROGRAM, templateOf, type Answer } from '../helpers/eval/run-program.js';
import { SAMPLE } from '../helpers/eval/sample.js';

const answer = (verdict: string, exitCode: number | null, findings: Answer['findings'] = []): Answer => ({ verdict, exitCode, evidence: [], findings, taken: 3, snapshotTimes: [] });
const family = <K extends ShapeKind>(kind: K, seed: number, n: number): ProgramParams[] => Array.from({ length: n }, (_, k) => drawProgram(seed, k, { fault: kind }));
const firstOf = (kind: ShapeKind, pick: (p: ProgramParams) => boolean): ProgramParams => {
  const p = family(kind, 11, 2000).find(pick);
  if (!p) throw new Error(`no such ${kind} program in 2000 draws`);
  return p;
};
const backlogFinding = (drained: boolean) => [{ kind: 'backlog', className: '{step, at, channels}', count: 300, drained }];

test('shapes: at least 20% of a seed together, each family about a third of them', () => {
  const counts = new Map<string, number>();
  const n = 2000;
  for (let k = 0; k < n; k++) {
    const kind = drawProgram(4242, k).fault.kind;
    if (isShapeKind(kind)) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  const all = [...counts.values()].reduce((a, b) => a + b, 0);
  assert.ok(all >= 0.2 * n && all <= 0.3 * n, `${all} of ${n}`);
  for (const kind of SHAPE_KINDS) assert.ok((counts.get(kind) ?? 0) > 0.05 * n, `${kind}: ${counts.get(kind)}`);
});

test('shapes: every other program of a seed is the one the generator drew before them', () => {
  // The generator before the shapes: LangGraph's share, else the service program. Its first 40 programs
  // of two seeds, hashed at the commit before the shapes came; LangGraph programs since carry one more
  // field where they run on the MemorySaver (`saver`, drawn on a stream of its own), left out here.
  const before = (seed: number, k: number) => maybeLangGraphProgram(seed, k) ?? drawServiceProgram(seed, k, {});
  const withoutSaver = (p: ProgramParams): ProgramParams => {
    if (p.fault.kind !== 'langgraph') return p;
    const { saver: _saver, ...fault } = p.fault;
    return { ...p, fault };
  };
  const pinned: Record<number, string> = { 21: '04275a22b7933bd3', 5: '1685161148efdd99' };
  for (const [seed, hash] of Object.entries(pinned)) {
    const old = Array.from({ length: 40 }, (_, k) => withoutSaver(before(Number(seed), k)));
    assert.equal(createHash('sha256').update(JSON.stringify(old)).digest('hex').slice(0, 16), hash, `seed ${seed}`);
  }
  let shapes = 0;
  for (const seed of [21, 5, 1668515503]) {
    for (let k = 0; k < 300; k++) {
      const p = drawProgram(seed, k);
      if (!isShapeKind(p.fault.kind)) assert.deepEqual(p, before(seed, k), `seed ${seed} #${k}`);
      else {
        shapes++;
        assert.deepEqual(p, drawShapeProgram(seed, k, p.fault.kind), '`--fault <kind>` draws the program a mixed run has at k');
        assert.equal(maybeLangGraphProgram(seed, k), undefined, 'never where LangGraph is drawn');
        assert.equal(templateOf(p), PENDING_PROGRAM);
      }
    }
  }
  assert.ok(shapes > 150, `${shapes} shape programs in 900`);
  // --no-shapes, and the npm-test sample with it: every index as before
  for (let k = 0; k < 300; k++) assert.deepEqual(drawProgram(21, k, { shapes: false }), before(21, k), `#${k}`);
  for (const k of sampleIndexes(SAMPLE.seed, SAMPLE.draw)) {
    assert.deepEqual(drawProgram(SAMPLE.seed, k, SAMPLE.draw), maybeLangGraphProgram(SAMPLE.seed, k, SAMPLE.draw) ?? drawServiceProgram(SAMPLE.seed, k, SAMPLE.draw));
  }
});

test('shapes: heaps, intervals and snapshots as drawn elsewhere; several turns an interval', () => {
  for (const kind of SHAPE_KINDS) {
    for (const p of family(kind, 3, 300)) {
      assert.ok(p.heap.targetMB >= 20 && p.heap.targetMB <= 100, `heap ${p.heap.targetMB}`);
      assert.ok(p.snapshots >= 3 && p.snapshots <= 6);
      assert.ok(p.turnsPerInterval >= 5, `${describeProgram(p)}: ${p.turnsPerInterval} turns an interval`);
      assert.ok(drawProgram(3, p.index, { fault: kind, maxHeapMB: 40, maxIntervalMs: 2500 }).heap.targetMB <= 40);
      assert.match(describeProgram(p), new RegExp(`fault ${kind} \\(`));
    }
  }
});

test('chain: the chain empties within a turn, drains in the pauses, or grows for good, as its truth says', () => {
  const seen = new Map<string, number>();
  for (const p of family('chain', 7, 600)) {
    const f = p.fault as ChainFault;
    const truth = truthOf(p);
    seen.set(truth, (seen.get(truth) ?? 0) + 1);
    const duty = f.loadMs > 0 ? f.loadMs / (f.loadMs + f.pauseMs) : 1;
    if (f.regime === 'never-drains') {
      assert.equal(truth, 'leak');
      assert.ok(chainLoad(p, f) >= 1.2 && f.loadMs === 0, `ρ ${chainLoad(p, f)}`);
      assert.ok(f.pilePerInterval >= 1 && f.pilePerInterval * f.itemBytes <= 4 << 20);
      assert.ok(writesLedger(p));
    } else {
      assert.equal(keptPerInterval(p).count, 0);
      assert.ok(!writesLedger(p));
    }
    if (f.regime === 'drains-in-turn') {
      assert.equal(truth, 'none');
      assert.ok(Number.isInteger(f.writesPerTurn) && f.writesPerTurn * (f.writeMs + 1.5) <= 0.5 * p.turnMs, describeProgram(p));
    }
    if (f.regime === 'drains-across') {
      assert.equal(truth, 'backlog');
      // over the writer's capacity during load, under it averaged over load and pause
      assert.ok(chainLoad(p, f) > 1 && chainLoad(p, f) * duty < 1, describeProgram(p));
    }
  }
  assert.ok((seen.get('none') ?? 0) > 100 && (seen.get('backlog') ?? 0) > 100 && (seen.get('leak') ?? 0) > 100, JSON.stringify([...seen]));
  const leaks = family('chain', 7, 600).filter((p) => truthOf(p) === 'leak');
  assert.ok(leaks.some((p) => aboveLimit(p)) && leaks.some((p) => !aboveLimit(p)), 'both sides of the limit');
  const longLoad = family('chain', 7, 600).filter((p) => (p.fault as ChainFault).loadMs > (p.pacing.kind === 'time' ? p.pacing.intervalMs : p.turnsPerInterval * p.turnMs));
  assert.ok(longLoad.length > 20, 'load phases longer than an interval');
});

test('race: a reaction a race on the long-lived side is a leak, the twins are healthy', () => {
  const seen = new Set<string>();
  for (const p of family('race', 7, 400)) {
    const f = p.fault as RaceFault;
    seen.add(`${f.variant} ${f.twin}`);
    assert.equal(truthOf(p), f.twin ? 'none' : 'leak');
    assert.equal(writesLedger(p), !f.twin);
    assert.ok(f.racesPerTurn <= 1 && f.racesPerInterval >= 1 && f.racesPerInterval <= 300);
    assert.equal(keptPerInterval(p).count, f.twin ? 0 : f.racesPerInterval);
    assert.equal(keptPerInterval(p, 3).count, f.twin ? 0 : 3, 'the ledger: races while leakhunt looked');
  }
  assert.equal(seen.size, 6, [...seen].join(', '));
  const leaks = family('race', 7, 400).filter((p) => truthOf(p) === 'leak');
  assert.ok(leaks.some((p) => aboveLimit(p)) && leaks.some((p) => !aboveLimit(p)), 'both sides of the limit');
});

test('growing: every copy kept grows quadratically, the newest copy of a growing state too, the twins stay bounded', () => {
  const seen = new Set<string>();
  for (const p of family('growing', 7, 400)) {
    const f = p.fault as GrowingFault;
    seen.add(f.variant);
    const intervalMs = p.turnsPerInterval * p.turnMs;
    assert.equal(truthOf(p), f.variant === 'history' || f.variant === 'newest' ? 'leak' : 'none');
    assert.equal(writesLedger(p), f.variant === 'history');
    assert.ok(f.stepsPerTurn <= 1, 'at most a step a turn');
    if (f.variant === 'history') {
      assert.ok(f.itemsPerStep * f.stepsPerInterval <= Math.max(200, f.stepsPerInterval));
      // each copy is bigger than the last: an interval later, the same copies weigh more
      const later = { ...p, warmMs: p.warmMs + intervalMs };
      assert.ok(keptPerInterval(later).bytes > keptPerInterval(p).bytes);
    }
    if (f.variant === 'newest') assert.deepEqual(keptPerInterval(p), { count: 0, bytes: 16 * f.itemsPerStep * f.stepsPerInterval }, 'no object more, the bytes growing');
    if (f.variant === 'last-n') {
      assert.ok(f.initialItems === f.cap && f.keep >= 2 && f.cap >= f.itemsPerStep * 5);
      assert.ok(p.warmMs >= (f.keep + 3) * (p.turnMs / f.stepsPerTurn) - 1, 'the ring full before serving');
    }
    if (f.variant === 'reset') assert.ok(f.resetEvery <= Math.max(2, f.stepsPerInterval / 5), 'cleared at least 5 times an interval');
    if (truthOf(p) === 'none') assert.deepEqual(keptPerInterval(p), { count: 0, bytes: 0 });
  }
  assert.equal(seen.size, 4);
  const history = family('growing', 7, 400).filter((p) => (p.fault as GrowingFault).variant === 'history');
  assert.ok(history.some((p) => aboveLimit(p)) && history.some((p) => !aboveLimit(p)), 'both sides of the limit');
});

test('the judge on the shapes: a chain that never drains is a leak or an undrained backlog; races and copies only leak', () => {
  const pile = firstOf('chain', (p) => truthOf(p) === 'leak' && aboveLimit(p));
  assert.equal(judge(pile, answer('leak', 1), []).judgement, 'right');
  assert.equal(judge(pile, answer('backlog', 0, backlogFinding(false)), []).judgement, 'right');
  assert.equal(judge(pile, answer('backlog', 0, backlogFinding(true)), []).judgement, 'wrong');
  assert.equal(judge(pile, answer('none', 0), []).judgement, 'wrong');
  const drains = firstOf('chain', (p) => truthOf(p) === 'backlog');
  for (const v of ['backlog', 'none', 'warm-up']) assert.equal(judge(drains, answer(v, 0, v === 'backlog' ? backlogFinding(true) : []), []).judgement, 'right', v);
  assert.equal(judge(drains, answer('leak', 1), []).judgement, 'wrong');
  const inTurn = firstOf('chain', (p) => truthOf(p) === 'none');
  assert.equal(judge(inTurn, answer('none', 0), []).judgement, 'right');
  assert.equal(judge(inTurn, answer('backlog', 0, backlogFinding(true)), []).judgement, 'wrong', 'a false alarm');

  const race = firstOf('race', (p) => truthOf(p) === 'leak' && aboveLimit(p));
  assert.equal(judge(race, answer('leak', 1), []).judgement, 'right');
  assert.equal(judge(race, answer('backlog', 0, backlogFinding(false)), []).judgement, 'wrong');
  assert.equal(judge(race, answer('none', 0), [], 2).judgement, 'below-limit', 'two races while leakhunt looked');
  const twin = firstOf('race', (p) => truthOf(p) === 'none');
  assert.equal(judge(twin, answer('none', 0), []).judgement, 'right');
  assert.equal(judge(twin, answer('leak', 1), []).judgement, 'wrong');

  const copies = firstOf('growing', (p) => (p.fault as GrowingFault).variant === 'history' && aboveLimit(p));
  assert.equal(judge(copies, answer('leak', 1), []).judgement, 'right');
  assert.equal(judge(copies, answer('none', 0), []).judgement, 'wrong');
  const newest = firstOf('growing', (p) => (p.fault as GrowingFault).variant === 'newest');
  assert.equal(judge(newest, answer('leak', 1), []).judgement, 'right');
  assert.equal(judge(newest, answer('none', 0), []).judgement, 'below-limit', 'no object more an interval: under the limit');
  const bounded = firstOf('growing', (p) => truthOf(p) === 'none');
  assert.equal(judge(bounded, answer('leak', 1), []).judgement, 'wrong');
});

test('the summary: detection per fault kind', () => {
  const run = (a: Answer) => ({ answer: a, problems: [], durationMs: 1, attachArgs: [] });
  const pile = firstOf('chain', (p) => truthOf(p) === 'leak' && aboveLimit(p));
  const race = firstOf('race', (p) => truthOf(p) === 'leak' && aboveLimit(p));
  const twin = firstOf('race', (p) => truthOf(p) === 'none');
  const s = summarize([resultOf(pile, run(answer('leak', 1))), resultOf(race, run(answer('none', 0))), resultOf(twin, run(answer('none', 0)))]);
  assert.deepEqual(s.byFault.map((r) => [r.fault, r.programs, r.right, r.leaks, r.detected, r.aboveLimit, r.detectedAboveLimit]), [
    ['chain', 1, 1, 1, 1, 1, 1],
    ['race', 2, 1, 1, 0, 1, 0],
  ]);
});

/** Runs a program of the template for `ms` after it serves; its ledger lines and exit code on SIGTERM. */
function runBriefly(p: ProgramParams, ms: number): Promise<{ ledger: number[]; code: number | null; served: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', PENDING_PROGRAM], { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env.PATH ?? '', LEAKHUNT_EVAL_PARAMS: JSON.stringify(p) } });
    const ledger: number[] = [];
    let served = false;
    let text = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      text += d;
      for (const line of text.split('\n').slice(0, -1)) {
        const m = /^eval-kept \d+ (\d+)$/.exec(line);
        if (m) ledger.push(Number(m[1]));
        else if (line === 'eval-program: serving' && !served) {
          served = true;
          setTimeout(() => child.kill('SIGTERM'), ms);
        } else if (line) assert.fail(`unexpected stderr: ${line}`);
      }
      text = text.slice(text.lastIndexOf('\n') + 1);
    });
    child.on('exit', (code) => resolve({ ledger, code, served }));
  });
}

test('the template: leaks write a ledger that grows, twins write none, all exit 0 on SIGTERM', { timeout: 60_000 }, async () => {
  const small = (kind: ShapeKind, pick: (p: ProgramParams) => boolean) => {
    const p = family(kind, 13, 2000).map((q) => drawProgram(13, q.index, { fault: kind, maxHeapMB: 20 })).find((q) => pick(q) && q.warmMs <= 3000);
    assert.ok(p, kind);
    return p;
  };
  const programs = [
    small('chain', (p) => truthOf(p) === 'leak' && keptPerInterval(p).count >= 50),
    small('race', (p) => truthOf(p) === 'leak' && keptPerInterval(p).count >= 50),
    small('growing', (p) => writesLedger(p) && keptPerInterval(p).count >= 50),
    small('race', (p) => truthOf(p) === 'none'),
    small('growing', (p) => truthOf(p) === 'none'),
    small('chain', (p) => truthOf(p) === 'none'),
  ];
  const runs = await Promise.all(programs.map((p) => runBriefly(p, 1500)));
  runs.forEach((r, k) => {
    const p = programs[k]!;
    assert.ok(r.served && r.code === 0, `${describeProgram(p)}: exit ${r.code}`);
    if (writesLedger(p)) assert.ok(r.ledger.length > 3 && r.ledger.at(-1)! > r.ledger[0]!, `${describeProgram(p)}: ledger ${r.ledger.slice(-3)}`);
    else assert.equal(r.ledger.length, 0, describeProgram(p));
  });
});
