// The rule that turns the signature rows of a diff without ids into leak findings
// (src/diagnose/signature-growth.ts, the growth model on live counts per path), through diagnose():
// steady growth with the work beyond a busy path's wander, above the class floor, not V8's own;
// groups held through a finding, or beside it in the same container, listed under it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChainHop } from '../../src/analysis/chain-description.js';
import type { ClassDiffRow, DiffResult, SignatureGroup } from '../../src/analysis/diff/diff-series.js';
import { diagnose } from '../../src/diagnose/diagnose.js';
import type { Finding } from '../../src/diagnose/finding.js';
import { significance, workPerInterval } from '../../src/diagnose/growth-model.js';
import { signatureGrowthFindings as pathRule } from '../../src/diagnose/signature-growth.js';

/**
 * The leak findings of the path rule, with the floors diagnose() gives it. With two points diagnose()
 * makes them candidates (verdict inconclusive: tested below); the rule that picks them is the same.
 */
function signatureGrowthFindings(diff: DiffResult, rates: { elapsedMs?: number; unitCount?: number } = {}): Finding[] {
  const sig = significance(diff.snapshots.map((s) => s.totalSize), diff.classes);
  return pathRule(diff, { significance: sig, work: workPerInterval(diff.snapshots.length - 1), ...rates }).findings.filter((f) => f.kind === 'leak');
}

test('two points cannot tell a leak from a cache filled once: inconclusive, the path named as a candidate; a third point settles it', () => {
  const two = diagnose({ diff: diffOf([group('Session', [100, 400], 40_000)]) });
  assert.equal(two.verdict, 'inconclusive');
  assert.deepEqual(two.findings, []);
  assert.deepEqual(two.candidates?.map((c) => [c.className, c.count]), [['Session', 300]]);
  const three = diagnose({ diff: diffOf([group('Session', [100, 250, 400], 40_000)]) });
  assert.equal(three.verdict, 'leak');
  assert.equal(three.findings[0]?.className, 'Session');
  const flat = diagnose({ diff: diffOf([group('Session', [100, 104], 40_000)]) });
  assert.notEqual(flat.verdict, 'inconclusive');
});

const hop = (className: string, id: number, edge: string | null, retainedSize = 100): ChainHop => ({
  node: { id, name: className, type: 'object', className },
  edge: edge === null ? null : { type: /^\d+$/.test(edge) ? 'element' : 'context', name: edge },
  selfSize: 40,
  retainedSize,
});

const HOLDER = ' ← Array[] ← system / Context.items ← (root)';

function group(className: string, counts: number[], retainedSize: number, through: string[] = [], lostElsewhere = 0, externalSize = 0): SignatureGroup {
  const n = counts.length - 1;
  const path = through.map((c) => ` ← ${c}.x`).join('');
  return {
    signature: `${className}${path}${HOLDER}`,
    className,
    counts,
    sizes: counts.map((c) => c * 40),
    countDelta: counts[n]! - counts[0]!,
    sizeDelta: (counts[n]! - counts[0]!) * 40,
    growthPerInterval: (counts[n]! - counts[0]!) / n,
    grewEveryInterval: n >= 2 ? counts.every((c, k) => k === 0 || c > counts[k - 1]!) : null,
    retainedSize,
    chain: [hop(className, 101, '3'), ...through.map((c, i) => hop(c, 200 + i, 'x')), hop('Array', 11, 'items'), hop('system / Context', 7, 'x'), hop('(root)', 1, null)],
    lostElsewhere,
    externalSize,
  };
}

function diffOf(groups: SignatureGroup[], growth = 100_000, mode: DiffResult['mode'] = 'signatures'): DiffResult {
  const snapshots = groups[0]?.counts.length ?? 3;
  const classes: ClassDiffRow[] = [{
    name: 'Session', counts: [0, 0, 0], sizes: [0, 0, 0], retainedSizes: [0, 0, 0], newCount: 0, deletedCount: 0,
    newPerInterval: null, deletedPerInterval: null, survivorCounts: null, countDelta: 0, sizeDelta: growth, retainedDelta: 0, growthPerInterval: 0, grewEveryInterval: null,
  }];
  return {
    schemaVersion: 1,
    snapshots: Array.from({ length: snapshots }, (_, k) => ({ file: `s${k}`, nodeCount: 1000, edgeCount: 4000, totalSize: 1e6, maxId: 1000 })),
    sameProcess: false,
    mode,
    process: { same: true, by: 'metadata', idsLineUp: false, origins: [] },
    limitations: [],
    warnings: [],
    growth,
    classes,
    survivors: null,
    signatures: { signatureCount: 100, grownCount: groups.length, groups },
  };
}

test('a path that grew in every interval, beyond noise and large enough, is a leak with its chain and counts', () => {
  const g = group('Session', [50, 150, 250], 40_000);
  const [f, ...rest] = signatureGrowthFindings(diffOf([g]), { elapsedMs: 120_000, unitCount: 400 });
  assert.equal(rest.length, 0);
  assert.ok(f);
  assert.equal(f.kind, 'leak');
  assert.equal(f.className, 'Session');
  assert.equal(f.signature, g.signature);
  assert.equal(f.count, 200);
  assert.equal(f.perInterval, 100);
  assert.equal(f.perMinute, 100);
  assert.equal(f.perUnit, 0.5);
  assert.equal(f.retainedSize, 40_000);
  assert.equal(f.chain, g.chain);
  assert.match(f.evidence[0]!, /200 more Session alive along one retainer path \(50 → 150 → 250\), more in every interval/);
  assert.match(f.fix, /pushed into the array "items"/);
});

test('not a leak: a dip, a queue that filled, noise on a busy path, too small, V8 internals, another mode', () => {
  const none = (groups: SignatureGroup[], growth?: number, mode?: DiffResult['mode']) => assert.deepEqual(signatureGrowthFindings(diffOf(groups, growth, mode)), []);
  none([group('Session', [50, 250, 240, 400], 40_000)]);
  none([group('Session', [0, 90, 100], 40_000)], undefined);
  none([group('Session', [10_000, 10_100, 10_200], 4_000_000)], undefined);
  none([group('Session', [0, 5, 9], 40_000)]);
  none([group('Session', [50, 150, 250], 9_000)]);
  none([group('(compiled code)', [50, 150, 250], 400_000)]);
  none([group('system / Context', [50, 150, 250], 400_000)]);
  none([group('Session', [50, 150, 250], 40_000)], 100_000, 'ids');
  none([group('Session', [50, 150, 250], 40_000)], 100_000, 'classes');
});

test('a path\'s growth must clear its own count noise: without ids the work in flight along it is unknown, at most what it holds', () => {
  // One path tested: a leak needs z ≥ 2.33; a step's variance under "nothing is kept" is the sum of its two readings.
  assert.equal(signatureGrowthFindings(diffOf([group('Session', [1000, 1150, 1300], 400_000)])).length, 1, '+150 a step on 1000: z = 3.0');
  assert.equal(signatureGrowthFindings(diffOf([group('Session', [1000, 1030, 1060], 400_000)])).length, 0, '+30 a step on 1000: z = 0.7');
  assert.equal(diagnose({ diff: diffOf([group('Session', [1000, 1030, 1060], 400_000)]) }).verdict, 'none');
});

test('kept growth the series does not settle is a candidate, as with ids; growth that stopped is ruled out', () => {
  // A dip and a rise: kept growth, but slowing against the first interval; a leak needs more points.
  const dip = diagnose({ diff: diffOf([group('Session', [50, 250, 240, 400], 40_000)]) });
  assert.equal(dip.verdict, 'inconclusive');
  assert.equal(dip.candidates?.[0]?.className, 'Session');
  assert.ok(dip.candidates[0]!.z! >= 1.5 && dip.candidates[0]!.zNeeded! > 2, `z ${dip.candidates[0]!.z} of ${dip.candidates[0]!.zNeeded}`);
  // A queue that filled: nothing kept late, and the early growth slowed down: not a candidate.
  assert.equal(diagnose({ diff: diffOf([group('Session', [0, 90, 100], 40_000)]) }).verdict, 'none');
});

test('the growth must matter: the retained size its added objects account for, against the class floor', () => {
  // Live heap 1 MB: the floor is 16 KiB. 200 of 250 alive were added: 80% of 25 KB = 20 KB passes, of 20 KB = 16 KB does not.
  assert.equal(signatureGrowthFindings(diffOf([group('Session', [50, 150, 250], 25_000)])).length, 1);
  assert.equal(signatureGrowthFindings(diffOf([group('Session', [50, 150, 250], 20_000)])).length, 0);
  // A large live heap raises the floor (0.2% of 100 MB = 200 KB); the program's growth does not.
  const big = (retained: number) => {
    const d = diffOf([group('Session', [50, 150, 250], retained)], 0);
    return { ...d, snapshots: d.snapshots.map((x) => ({ ...x, totalSize: 100e6 })) };
  };
  assert.equal(signatureGrowthFindings(big(200_000)).length, 0);
  assert.equal(signatureGrowthFindings(big(300_000)).length, 1);
});

test('two snapshots (two instances of one service): growth of ten objects or more', () => {
  assert.equal(signatureGrowthFindings(diffOf([group('Session', [100, 400], 40_000)]))[0]?.className, 'Session');
  assert.deepEqual(signatureGrowthFindings(diffOf([group('Session', [100, 108], 400_000)])), []);
});

test('objects that moved from one path of their class to another are not growth: a path counts its gain less what the class lost elsewhere', () => {
  // Two processes of one program (measured on fixtures/map-cache.cjs): the shortest path to 306 module
  // export objects took another holder in the second process; the paths they left lost 306.
  const moved = group('Object', [0, 306], 209_320, [], 306);
  const cache = group('CacheEntry', [100, 400], 83_392);
  const findings = signatureGrowthFindings(diffOf([moved, cache]));
  assert.deepEqual(findings.map((f) => f.className), ['CacheEntry']);
  assert.equal(findings[0]!.count, 300);
  // The same move in a class that also leaks (zoo/two-leaks: 18,000 more Objects in carts): the move is
  // still no finding, the carts still are.
  const carts = group('Object', [6000, 24000], 960_000, ['Session'], 306);
  const sessions = group('Session', [100, 400], 1_200_000);
  const both = signatureGrowthFindings(diffOf([carts, moved, sessions]));
  assert.deepEqual(both.map((f) => f.className), ['Session']);
  assert.deepEqual(both[0]!.alsoHeld, ['17694 × Object']);
  // Part moved, part new: only what cannot have moved counts (and is said).
  const part = group('Session', [50, 150, 250], 400_000, [], 50);
  const [f] = signatureGrowthFindings(diffOf([part]));
  assert.equal(f?.count, 150);
  assert.match(f!.evidence[0]!, /^150 more Session alive along one retainer path \(50 → 150 → 250\), more in every interval \(the path gained 200; its class's other paths lost 50, which may have moved here\);/);
  // Everything it gained may have moved: no finding, however much the path gained.
  assert.deepEqual(signatureGrowthFindings(diffOf([group('Session', [50, 150, 250], 400_000, [], 200)])), []);
});

test('a carrier heading a finding gives its name to the program\'s objects held through it', () => {
  // zoo/interval-closure across two processes: every request's Timeout holds a PollJob.
  const timers = group('Timeout', [100, 400], 300_000);
  const jobs = group('PollJob', [100, 400], 200_000, ['Timeout']);
  const [f, ...rest] = signatureGrowthFindings(diffOf([timers, jobs]));
  assert.equal(rest.length, 0);
  assert.equal(f?.className, 'PollJob');
  assert.equal(f.count, 300);
  assert.equal(f.signature, jobs.signature);
  assert.equal(f.chain, jobs.chain);
  assert.equal(f.retainedSize, 300_000, 'what the whole leak retains');
  assert.deepEqual(f.alsoHeld, ['300 × Timeout']);
  assert.match(f.evidence[0]!, /^300 more PollJob alive along one retainer path \(100 → 400\), each held through a Timeout \(300 more of them\);/);
  // A program class heads its own finding: nothing renamed.
  const [s] = signatureGrowthFindings(diffOf([group('Session', [100, 400], 300_000), group('Order', [100, 400], 200_000, ['Session'])]));
  assert.equal(s?.className, 'Session');
});

test('a group whose objects hold a finding\'s, one per member, is listed under it: its chain is a tail of the finding\'s', () => {
  // zoo/closure-array across two processes: each hook closure (an element of `deployHooks`) holds one
  // DraftDocument through its context; the documents rank first.
  const hooks = [hop('Function', 300, '7'), hop('Array', 11, 'deployHooks'), hop('system / Context', 7, 'x'), hop('(root)', 1, null)];
  const docs = { ...group('DraftDocument', [100, 400], 1_215_200), signature: 'DraftDocument ← system / Context.draft ← Function.context ← …', chain: [hop('DraftDocument', 400, 'draft'), hop('system / Context', 401, 'context'), { ...hooks[0]!, edge: { type: 'element', name: '12' } }, ...hooks.slice(1)] };
  const closures = { ...group('Function', [100, 400], 1_253_600, [], 22), signature: 'Function ← Array[] ← system / Context.deployHooks ← …', chain: hooks };
  const [f, ...rest] = signatureGrowthFindings(diffOf([docs, closures]));
  assert.deepEqual(rest.map((r) => r.className), []);
  assert.equal(f?.className, 'DraftDocument');
  assert.deepEqual(f.alsoHeld, ['278 × Function']);
  // Closures held elsewhere (another array): their own finding.
  const other = { ...closures, signature: 'Function ← Array[] ← system / Context.onExit ← …', chain: [hooks[0]!, hop('Array', 12, 'onExit'), ...hooks.slice(2)] };
  assert.deepEqual(signatureGrowthFindings(diffOf([docs, other])).map((x) => x.className), ['DraftDocument', 'Function']);
});

test('a path whose objects mostly retain ArrayBuffer backing stores is external memory, as the id diff says', () => {
  // zoo/buffers-kept at three ages: each kept Buffer holds a 64 KiB store outside the JS heap.
  const buffers = group('Buffer', [100, 250, 400], 27_000_000, [], 0, 26_200_000);
  const d = diagnose({ diff: diffOf([buffers]) });
  assert.equal(d.verdict, 'external');
  assert.equal(d.findings[0]?.kind, 'external');
  assert.equal(d.findings[0]?.externalSize, 26_200_000);
  assert.match(d.findings[0]!.evidence[1]!, /^97% of what they retain is ArrayBuffer backing stores/);
  // Stores under half of what the path retains: a leak of JS objects.
  const d2 = diagnose({ diff: diffOf([group('Session', [100, 250, 400], 400_000, [], 0, 150_000)]) });
  assert.deepEqual([d2.verdict, d2.findings[0]?.kind], ['leak', 'leak']);
});

test('groups held through a finding, or beside it in the same container, are listed under it', () => {
  const session = group('Session', [50, 150, 250], 60_000);
  const settings = group('{theme, locale}', [50, 150, 250], 25_000, ['Session']);
  const key = group('(string)', [50, 150, 250], 25_000);
  const other = group('Order', [10, 40, 70], 30_000, ['Queue']);
  const findings = signatureGrowthFindings(diffOf([settings, key, other, session]));
  assert.deepEqual(findings.map((f) => f.className), ['Session', 'Order']);
  assert.deepEqual(findings[0]!.alsoHeld, ['200 × {theme, locale}', '200 × (string)']);
  assert.equal(findings[1]!.alsoHeld, undefined);
});
