// Leak findings from a diff without ids (DiffResult.mode === 'signatures': one process across inspector
// sessions, or instances of one service): retainer paths whose live objects kept growing.
//
// Contract (for diagnose.ts, which calls it; nothing else here depends on diagnose.ts but its types):
//   signatureGrowthFindings(diff, rates?) → Finding[], all of kind 'leak', largest first; [] unless
//   diff.mode is 'signatures'. `rates` gives the per-minute and per-unit rates, as DiagnoseInput does.
//   Each finding: className and signature of the path group, count = objects added from the first
//   snapshot to the last, perInterval = that over the intervals, retainedSize = what the whole group
//   retains in the newest snapshot (old members too: objects are not matched by id), the chain of its
//   largest member, a fix from fixes.ts, the counts as evidence, and the groups held with it (alsoHeld).
//
// The rule. A signature group is a leak when all of these hold:
//   - its objects are not V8's own (compiled code, hidden classes, system objects);
//   - it grew steadily: with three or more snapshots, in every interval, each step at least a quarter of
//     the average step (0 → 9 → 10 is a queue that filled, not a leak that goes on); with two, it grew;
//   - beyond noise: at least MIN_GROWTH_COUNT more objects (per interval 2, as the ids mode asks of
//     survivors), and at least NOISE_SHARE of what the path held in the first snapshot (a busy path
//     whose count wanders by a few percent is not a trend);
//   - it matters: the part of its retained size the growth accounts for (retained size × added / alive,
//     its members taken alike) is at least a tenth of the program's growth and 4 KiB (256 KiB when the
//     program did not grow), as diagnose.ts asks of survivor groups.
// A group whose path passes through an earlier finding's class, or that hangs off the same holder as an
// earlier finding (a Map's keys beside its values), is listed under that finding (alsoHeld), not apart.

import type { DiffResult, SignatureGroup } from '../analysis/diff/diff-series.js';
import type { Finding } from './diagnose.js';
import { suggestFix } from './fixes.js';

export interface GrowthRates {
  /** Time between the first and the last snapshot. */
  readonly elapsedMs?: number;
  /** Units of work (turns, requests) done between the first and the last snapshot. */
  readonly unitCount?: number;
}

/** Fewest objects a path must gain over the series, and per interval (the ids mode's survivor floor). */
export const MIN_GROWTH_COUNT = 10;
const MIN_GROWTH_PER_INTERVAL = 2;
/** Share of the first snapshot's count a path must gain: below it, growth is within a busy path's noise. */
export const NOISE_SHARE = 0.05;
const MIN_LEAK_BYTES = 4096;
const MIN_BYTES_WITHOUT_GROWTH = 256 * 1024;
/** V8's own objects: never a finding by themselves (as diagnose.ts). */
const V8_INTERNAL = /^\((compiled code|system|object shape|sliced string)\)$|^system \/ /;

export function signatureGrowthFindings(diff: DiffResult, rates: GrowthRates = {}): Finding[] {
  if (diff.mode !== 'signatures' || !diff.signatures) return [];
  const n = diff.snapshots.length;
  const floor = bytesFloor(programGrowth(diff));
  const findings: Finding[] = [];
  const held = new Map<Finding, Map<string, number>>();
  const leaking = diff.signatures.groups.filter((g) => isLeakGroup(g, n, floor));
  leaking.sort((a, b) => grownRetained(b) - grownRetained(a));
  for (const g of leaking) {
    const holder = findings.find((f) => g.chain.slice(1).some((hop) => hop.node.className === f.className) || sameHolder(g, f));
    if (holder) {
      let list = held.get(holder);
      if (!list) held.set(holder, (list = new Map()));
      list.set(g.className, (list.get(g.className) ?? 0) + g.countDelta);
      continue;
    }
    findings.push({
      kind: 'leak',
      className: g.className,
      signature: g.signature,
      count: g.countDelta,
      perInterval: g.countDelta / (n - 1),
      ...(rates.elapsedMs ? { perMinute: (g.countDelta * 60_000) / rates.elapsedMs } : {}),
      ...(rates.unitCount ? { perUnit: g.countDelta / rates.unitCount } : {}),
      retainedSize: g.retainedSize,
      chain: g.chain,
      fix: suggestFix(g.className, g.chain),
      evidence: [
        `${g.countDelta} more ${g.className} alive along one retainer path (${g.counts.join(' → ')})${n >= 3 ? ', more in every interval' : ''}; compared by path, not object by object (the object ids of these snapshots do not line up)`,
      ],
    });
  }
  return findings.map((f) => {
    const list = held.get(f);
    return list ? { ...f, alsoHeld: [...list].sort((a, b) => b[1] - a[1]).map(([name, count]) => `${count} × ${name}`) } : f;
  });
}

function isLeakGroup(g: SignatureGroup, snapshots: number, floor: number): boolean {
  if (V8_INTERNAL.test(g.className) || g.chain.length === 0) return false;
  const first = g.counts[0]!;
  if (g.countDelta < Math.max(MIN_GROWTH_COUNT, MIN_GROWTH_PER_INTERVAL * (snapshots - 1), NOISE_SHARE * first)) return false;
  if (snapshots >= 3 && !growsSteadily(g.counts)) return false;
  return grownRetained(g) >= floor;
}

/** Grew in every interval, each step at least a quarter of the average step. */
function growsSteadily(counts: readonly number[]): boolean {
  const n = counts.length;
  const step = (counts[n - 1]! - counts[0]!) / (n - 1);
  return step > 0 && counts.every((c, k) => k === 0 || c - counts[k - 1]! >= Math.max(1, 0.25 * step));
}

/** The part of the group's retained size (newest snapshot) that its added objects account for. */
function grownRetained(g: SignatureGroup): number {
  const alive = g.counts[g.counts.length - 1]!;
  return alive > 0 ? (g.retainedSize * g.countDelta) / alive : 0;
}

function bytesFloor(growth: number): number {
  return growth > 0 ? Math.max(MIN_LEAK_BYTES, 0.1 * growth) : MIN_BYTES_WITHOUT_GROWTH;
}

/** Growth of the program's own objects: the class deltas without V8's code, shapes and system objects. */
function programGrowth(diff: DiffResult): number {
  if (diff.classes.length === 0) return diff.growth;
  return diff.classes.reduce((sum, c) => (V8_INTERNAL.test(c.name) ? sum : sum + c.sizeDelta), 0);
}

/** The same path from the holder up: siblings in one container (a signature is its class, then the holder's path). */
function sameHolder(g: SignatureGroup, f: Finding): boolean {
  if (f.signature === null || !g.signature.startsWith(g.className) || !f.signature.startsWith(f.className)) return false;
  return g.signature.slice(g.className.length) === f.signature.slice(f.className.length);
}
