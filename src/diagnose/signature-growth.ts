// Leak findings from a diff without ids (DiffResult.mode === 'signatures': one process across inspector
// sessions, or instances of one service): retainer paths whose live objects kept growing.
//
// Contract (for diagnose.ts, which calls it; nothing else here depends on diagnose.ts but its types):
//   signatureGrowthFindings(diff, rates?) → Finding[], all of kind 'leak', largest first; [] unless
//   diff.mode is 'signatures'. `rates` gives the per-minute and per-unit rates, as DiagnoseInput does.
//   Each finding: className and signature of the path group, count = objects added from the first
//   snapshot to the last (no more than its class gained), perInterval = that over the intervals, retainedSize = what the whole group
//   retains in the newest snapshot (old members too: objects are not matched by id), the chain of its
//   largest member, a fix from fixes.ts, the counts as evidence, and the groups held with it (alsoHeld).
//
// The rule: the growth model of growth-model.ts (docs/diagnosis-model.md), on live counts per path
// instead of survivors (objects are not matched by id):
//   - its objects are not V8's own (compiled code, hidden classes, system objects) or context plumbing;
//   - it grows with the work: with three or more snapshots every step of its live count is positive and
//     at least a quarter of the fastest interval's rate times its work (growsWithWork); with two, it grew;
//   - new to its class, not moved from another path: a path counts only as many added objects as its
//     class gained in total (addedToClass). The shortest path to an object with several holders may
//     take another holder in another process: 306 module export objects keyed `Object ←
//     BuiltinModule.exports` in one process of fixtures/map-cache.cjs were keyed under other holders in
//     a second one (about 1 pair in 10; Object 467 → 467 in all), and outranked the cache's 300 entries;
//   - beyond a busy path's wander: at least MIN_GROWTH_COUNT more objects, and NOISE_SHARE of what the
//     path held in the first snapshot;
//   - it matters: the part of its retained size the growth accounts for (retained size × added / alive)
//     clears the class floor (classFloorBytes: live-heap share and the noise between snapshots — without
//     ids, the noise applies).
// A group whose path passes through an earlier finding's class, or that hangs off the same holder as an
// earlier finding (a Map's keys beside its values), is listed under that finding (alsoHeld), not apart.

import type { DiffResult, SignatureGroup } from '../analysis/diff/diff-series.js';
import type { Finding } from './diagnose.js';
import { fixFields, suggestFix } from './fixes.js';
import { growsWithWork, stepsOf, type Significance } from './growth-model.js';
import { PLUMBING, rates as growthRates, V8_INTERNAL } from './growth-findings.js';

export interface GrowthRates {
  /** Time between the first and the last snapshot. */
  readonly elapsedMs?: number;
  /** Units of work (turns, requests) done between the first and the last snapshot. */
  readonly unitCount?: number;
  /** Work in each interval (growth-model.ts workPerInterval); one each when absent. */
  readonly work?: readonly number[];
  /** The floors (growth-model.ts significance). */
  readonly significance: Significance;
}

/** Fewest objects a path must gain over the series. */
export const MIN_GROWTH_COUNT = 10;
/** Share of the first snapshot's count a path must gain: below it, growth is within a busy path's noise. */
export const NOISE_SHARE = 0.05;

export function signatureGrowthFindings(diff: DiffResult, rates: GrowthRates): Finding[] {
  if (diff.mode !== 'signatures' || !diff.signatures) return [];
  const n = diff.snapshots.length;
  const floor = rates.significance.classFloorBytes;
  const work = rates.work ?? new Array<number>(n - 1).fill(1);
  const findings: Finding[] = [];
  const held = new Map<Finding, Map<string, number>>();
  const added = addedToClass(diff);
  const leaking = diff.signatures.groups.filter((g) => isLeakGroup(g, added(g), work, floor));
  leaking.sort((a, b) => grownRetained(b, added(b)) - grownRetained(a, added(a)));
  for (const g of leaking) {
    const holder = findings.find((f) => g.chain.slice(1).some((hop) => hop.node.className === f.className) || sameHolder(g, f));
    if (holder) {
      let list = held.get(holder);
      if (!list) held.set(holder, (list = new Map()));
      list.set(g.className, (list.get(g.className) ?? 0) + added(g));
      continue;
    }
    const count = added(g);
    findings.push({
      kind: 'leak',
      className: g.className,
      signature: g.signature,
      count,
      ...growthRates(count, rates, n - 1),
      retainedSize: g.retainedSize,
      chain: g.chain,
      ...fixFields(suggestFix(g.className, g.chain)),
      evidence: [
        `${count} more ${g.className} alive along one retainer path (${g.counts.join(' → ')})${n >= 3 ? ', more in every interval' : ''}${count < g.countDelta ? ` (the path gained ${g.countDelta}, the class as a whole ${count}: the others moved from its other paths)` : ''}; compared by path, not object by object (the object ids of these snapshots do not line up)`,
      ],
    });
  }
  return findings.map((f) => {
    const list = held.get(f);
    return list ? { ...f, alsoHeld: [...list].sort((a, b) => b[1] - a[1]).map(([name, count]) => `${count} × ${name}`) } : f;
  });
}

function isLeakGroup(g: SignatureGroup, added: number, work: readonly number[], floor: number): boolean {
  if (V8_INTERNAL.test(g.className) || PLUMBING.test(g.className) || g.chain.length === 0) return false;
  if (added < Math.max(MIN_GROWTH_COUNT, NOISE_SHARE * g.counts[0]!)) return false;
  if (g.counts.length >= 3 && !growsWithWork(stepsOf(g.counts), work)) return false;
  return grownRetained(g, added) >= floor;
}

/**
 * The objects a group added, first snapshot to last, that are new to its class: its own gain, at most
 * what the class row (same name; closures are rows of `Function`) gained in total. A group whose class
 * has no row is taken at its own gain.
 */
function addedToClass(diff: DiffResult): (g: SignatureGroup) => number {
  const gained = new Map(diff.classes.map((c) => [c.name, c.countDelta]));
  return (g) => {
    const name = g.chain[0]?.node.type === 'closure' ? 'Function' : g.className;
    return Math.min(g.countDelta, gained.get(name) ?? g.countDelta);
  };
}

/** The part of the group's retained size (newest snapshot) that its added objects account for. */
function grownRetained(g: SignatureGroup, added: number): number {
  const alive = g.counts[g.counts.length - 1]!;
  return alive > 0 ? (g.retainedSize * added) / alive : 0;
}

/** The same path from the holder up: siblings in one container (a signature is its class, then the holder's path). */
function sameHolder(g: SignatureGroup, f: Finding): boolean {
  if (f.signature === null || !g.signature.startsWith(g.className) || !f.signature.startsWith(f.className)) return false;
  return g.signature.slice(g.className.length) === f.signature.slice(f.className.length);
}
