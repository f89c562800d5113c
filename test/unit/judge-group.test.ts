// The one filter and judge every finder shares (src/diagnose/group-filter.ts, judge-group.ts): which
// groups count and lead, the kept rate with and without births, and assertNoLeak's proportional rule
// as a parameter of the same judge.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChainHop } from '../../src/analysis/chain-description.js';
import type { ClassDiffRow } from '../../src/analysis/diff/diff-series.js';
import { countsAsGrowth, isProgramGrowth, mayLeadFinding } from '../../src/diagnose/group-filter.js';
import type { GrowingGroup } from '../../src/diagnose/growing-group.js';
import { bornPerInterval, significance } from '../../src/diagnose/growth-model.js';
import { judgeGroup, keptInProportion, pilingLevels, scoreGroup } from '../../src/diagnose/judge-group.js';
import { keptRateOfCounts, leakZ } from '../../src/diagnose/kept-model.js';
import { DEFAULT_MODEL, PROPORTIONAL_RULE } from '../../src/diagnose/model-params.js';

const hop = (className: string, name = className): ChainHop => ({
  node: { id: 1, name, type: 'object', className },
  edge: { type: 'property', name: 'x' },
  selfSize: 16,
  retainedSize: 16,
});

function group(counts: number[], ids: boolean, extra: Partial<GrowingGroup> = {}): GrowingGroup {
  return {
    className: 'Session', signature: 'Session ← Map.sessions ← (root)', chain: [hop('Session'), hop('Map'), hop('(root)')], counts,
    born: ids ? bornPerInterval(counts) : null, retainedSize: 400_000, externalSize: 0, movedElsewhere: 0, paths: 1, ...extra,
  };
}

const SIG = significance([1e6], []);

test('the filter: V8\'s own objects and context plumbing never count; a per-moment holder does not; the module system never leads', () => {
  assert.equal(isProgramGrowth('(compiled code)'), false);
  assert.equal(isProgramGrowth('(concatenated string)'), false);
  assert.equal(isProgramGrowth('system / Context'), false);
  assert.equal(isProgramGrowth('AsyncContextFrame'), false);
  assert.equal(isProgramGrowth('Session'), true);
  assert.equal(countsAsGrowth({ className: 'Session', heldBy: 'transient' }), false);
  assert.equal(countsAsGrowth({ className: 'Session', heldBy: 'lasting' }), true);
  assert.equal(countsAsGrowth({ className: 'Session', plumbing: 'async-context-frame' }), false);
  assert.equal(countsAsGrowth({ className: 'Session' }), true, 'no holder tier without ids: counted');
  const loader = { className: 'Object', signature: 'Object ← ModuleMap.x ← ModuleLoader.y ← (root)', chain: [hop('Object'), hop('ModuleMap'), hop('ModuleLoader'), hop('(root)')] };
  assert.equal(countsAsGrowth(loader), true);
  assert.equal(mayLeadFinding(loader), false);
  assert.equal(mayLeadFinding(group([0, 20, 40], true)), true);
});

test('one judge for both modes: steady kept growth is a leak with births and with live counts alone', () => {
  const work = [1, 1];
  for (const g of [group([0, 100, 200], true), group([50, 150, 250], false)]) {
    const k = scoreGroup(g, undefined, work, SIG);
    assert.ok(k, 'above the floor');
    assert.equal(judgeGroup(k, g, undefined, leakZ(1, 0.01), DEFAULT_MODEL, work), 'leak', g.born ? 'ids' : 'counts');
  }
});

test('without births: what may have moved from the class\'s other paths is taken out of the kept steps', () => {
  const k = keptRateOfCounts([50, 150, 250], 100, [1, 1]);
  assert.deepEqual(k.kept, [50, 50]);
  const all = keptRateOfCounts([50, 150, 250], 200, [1, 1]);
  assert.deepEqual(all.kept, [0, 0]);
  assert.equal(scoreGroup(group([50, 150, 250], false, { movedElsewhere: 200 }), undefined, [1, 1], SIG), undefined, 'nothing added: below any floor');
});

test('assertNoLeak\'s proportional rule is a parameter of the same judge: no candidates, every interval in proportion', () => {
  const params = { ...DEFAULT_MODEL, minGroupBytes: 0, proportional: PROPORTIONAL_RULE };
  const work = [20, 20];
  const verdict = (counts: number[]) => {
    const g = group(counts, true, { retainedSize: 100 });
    const k = scoreGroup(g, undefined, work, significance([], [], params));
    return k && judgeGroup(k, g, undefined, Infinity, params, work);
  };
  assert.equal(verdict([0, 20, 40]), 'leak');
  assert.equal(verdict([0, 10, 20]), 'leak', 'one every two iterations');
  assert.equal(verdict([0, 9, 18]), undefined, 'slower');
  assert.equal(verdict([0, 20, 20]), undefined, 'warm-up');
  assert.equal(verdict([0, 40, 69]), undefined, 'uneven: 40 then 29');
  assert.equal(keptInProportion([11, 13], work, PROPORTIONAL_RULE), true, 'the slack of 2 objects');
});

test('kept in bursts with a silent interval between (131, 0, 64) is not sure, not ruled out; a cache that filled and stopped is', () => {
  // A class with ~22 of its objects in flight at each snapshot: the last interval's 64 survivors are
  // 41.5 kept beside them, the middle interval kept none. Counted as single objects the late rate is
  // nothing and the early one far above it; counted as the bursts they scatter like, neither is sure.
  const work = [1, 1, 1];
  const z = leakZ(1, 0.01);
  const bursty = group([0, 131, 131, 195], true);
  const row = { name: 'Session', counts: [3174, 3306, 3305, 3369], newPerInterval: [154, 22, 86], survivorCounts: [0, 131, 131, 217] } as unknown as ClassDiffRow;
  const k = scoreGroup(bursty, row, work, SIG)!;
  assert.ok(k.z < DEFAULT_MODEL.zRuledOut && k.dispersion > 10, `late z ${k.z}, dispersion ${k.dispersion}`);
  assert.equal(judgeGroup(k, bursty, row, z, DEFAULT_MODEL, work), 'candidate');
  assert.equal(judgeGroup(k, bursty, row, z, { ...DEFAULT_MODEL, settling: true }, work), 'candidate', 'attach takes another snapshot');
  // Filled in the first interval, nothing since: its counts follow a falling trend, ruled out at the end.
  const filled = group([0, 131, 131, 131], true);
  const filledRow = { ...row, counts: [3174, 3306, 3306, 3306], newPerInterval: [154, 22, 22], survivorCounts: [0, 131, 131, 131] } as unknown as ClassDiffRow;
  const kf = scoreGroup(filled, filledRow, work, SIG)!;
  assert.equal(judgeGroup(kf, filled, filledRow, z, DEFAULT_MODEL, work), undefined);
});

test('a queue served first in, first out that piles up keeps no member, yet is not ruled out; a level that only scatters is', () => {
  // Jobs of a common class (Array beside ~1,350 long-lived arrays) wait in a queue that gains ~52 an
  // interval and serves each within an interval: none outlives one, and the class's work in flight
  // (alive at a snapshot, gone by the newest) climbs 43 → 98 → 150, then 196 born in the last interval.
  const work = [86, 86, 86];
  const z = leakZ(6, 0.01);
  const queue = { ...group([0, 0, 0, 196], true), className: 'Array', retainedSize: 92_512 };
  const row = { name: 'Array', counts: [1389, 1444, 1496, 1546], newPerInterval: [98, 150, 200], deletedPerInterval: [43, 98, 150], survivorCounts: [0, 0, 0, 200] } as unknown as ClassDiffRow;
  const k = scoreGroup(queue, row, work, SIG)!;
  assert.ok(k.z < DEFAULT_MODEL.zRuledOut, `nothing reads kept: late z ${k.z}`);
  assert.deepEqual(pilingLevels(queue, row, work, DEFAULT_MODEL), [43, 98, 150, 200]);
  assert.equal(judgeGroup(k, queue, row, z, DEFAULT_MODEL, work), 'candidate');
  assert.equal(judgeGroup(k, queue, row, z, DEFAULT_MODEL, work, [], 'grew'), 'leak', 'the queue went on gaining members after the last snapshot');
  assert.equal(judgeGroup(k, queue, row, z, DEFAULT_MODEL, work, [], 'stopped'), undefined);
  // The same class whose work in flight only scatters (120, 90, 140 then 110 in the last interval).
  const steady = { ...queue, counts: [0, 0, 0, 110] };
  const steadyRow = { ...row, counts: [1466, 1436, 1486, 1456], newPerInterval: [90, 140, 110], deletedPerInterval: [120, 90, 140], survivorCounts: [0, 0, 0, 110] } as unknown as ClassDiffRow;
  const ks = scoreGroup(steady, steadyRow, work, SIG)!;
  assert.equal(pilingLevels(steady, steadyRow, work, DEFAULT_MODEL), undefined);
  assert.equal(judgeGroup(ks, steady, steadyRow, z, DEFAULT_MODEL, work), undefined);
  assert.equal(pilingLevels({ ...queue, born: null }, row, work, DEFAULT_MODEL), undefined, 'without ids there are no in-flight levels');
});
