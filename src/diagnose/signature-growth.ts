// Leak findings from a diff without ids (DiffResult.mode === 'signatures': one process across inspector
// sessions, or instances of one service): retainer paths whose live objects kept growing.
//
// Contract (for diagnose.ts, which calls it; nothing else here depends on diagnose.ts but its types):
//   signatureGrowthFindings(diff, rates?) → Finding[] of kind 'leak', or 'external' when half or more of
//   what the group retains is ArrayBuffer backing stores (as the id diff says it), largest first; [] unless
//   diff.mode is 'signatures'. `rates` gives the per-minute and per-unit rates, as DiagnoseInput does.
//   Each finding: className and signature of the path group, count = objects added from the first
//   snapshot to the last (less what its class's other paths lost), perInterval = that over the
//   intervals, retainedSize = what the whole group retains in the newest snapshot (old members too:
//   objects are not matched by id), the chain of its representative member (signature-series.ts), a
//   fix from fixes.ts, the counts as evidence, and the groups held with it (alsoHeld).
//
// The rule: the growth model of growth-model.ts (docs/diagnosis-model.md), on live counts per path
// instead of survivors (objects are not matched by id):
//   - its objects are not V8's own (compiled code, hidden classes, system objects) or context plumbing;
//   - it does not lead a finding when its own holders are Node's module system (code-bounded.ts: caches
//     and module records filled once per module loaded, bounded by the code); under another finding it
//     is listed (alsoHeld);
//   - it grows with the work: with three or more snapshots every step of its live count is positive and
//     at least a quarter of the fastest interval's rate times its work (growsWithWork); with two, it grew;
//   - new to its class, not moved from another path: a path counts its gain less what its class's
//     other paths lost (SignatureGroup.lostElsewhere; addedObjects), a lower bound of the objects new
//     on it. The shortest path to an object with several holders may take another holder in another
//     process: 306 module export objects keyed `Object ← BuiltinModule.exports` in one process of
//     fixtures/map-cache.cjs were keyed under other holders in a second one (about 1 pair in 10), and
//     outranked the cache's 300 entries; a cap at the class's net gain was not enough where the class
//     also leaks (zoo/two-leaks: `Object` +18,000 in carts, so the 306 passed as a second finding);
//   - beyond a busy path's wander: at least MIN_GROWTH_COUNT more objects, and NOISE_SHARE of what the
//     path held in the first snapshot;
//   - it matters: the part of its retained size the growth accounts for (retained size × added / alive)
//     clears the class floor (classFloorBytes: live-heap share and the noise between snapshots — without
//     ids, the noise applies).
// A group whose path passes through an earlier finding's class, or that hangs off the same holder as an
// earlier finding (a Map's keys beside its values), is listed under that finding (alsoHeld), not apart.
// A group whose objects are on an earlier finding's chain (its chain is a tail of the finding's) holds
// that finding's objects: it is listed under it too.
// A finding headed by a carrier (growth-findings.ts headedByCarrier: a timer, a listener function, a plain
// array) whose path other groups pass through is named after the largest of them that is the program's
// own, as the id diff names it: `PollJob` held by a `Timeout`, the carrier moved to alsoHeld.

import type { ChainHop } from '../analysis/chain-description.js';
import type { DiffResult, SignatureGroup } from '../analysis/diff/diff-series.js';
import type { Finding } from './finding.js';

import { fixFields, suggestFix } from './fixes.js';
import { growsWithWork, stepsOf, type Significance } from './growth-model.js';
import { EXTERNAL_SHARE, headedByCarrier, isProgramClass, rates as growthRates } from './growth-findings.js';
import { countsAsGrowth, mayLeadFinding } from './group-filter.js';

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
  const through = new Map<Finding, SignatureGroup[]>();
  const leaking = diff.signatures.groups.filter((g) => isLeakGroup(g, work, floor));
  leaking.sort((a, b) => grownRetained(b) - grownRetained(a));
  for (const g of leaking) {
    const passes = (f: Finding) => g.chain.slice(1).some((hop) => hop.node.className === f.className);
    const holder = findings.find((f) => passes(f) || holdsOnChain(g, f) || sameHolder(g, f));
    if (holder) {
      let list = held.get(holder);
      if (!list) held.set(holder, (list = new Map()));
      list.set(g.className, (list.get(g.className) ?? 0) + addedObjects(g));
      if (passes(holder)) through.set(holder, [...(through.get(holder) ?? []), g]);
      continue;
    }
    if (!mayLeadFinding(g)) continue; // listed under a finding, never one (group-filter.ts)
    const count = addedObjects(g);
    const external = g.externalSize >= EXTERNAL_SHARE * g.retainedSize;
    findings.push({
      kind: external ? 'external' : 'leak',
      className: g.className,
      signature: g.signature,
      count,
      ...growthRates(count, rates, n - 1),
      retainedSize: g.retainedSize,
      chain: g.chain,
      ...fixFields(suggestFix(g.className, g.chain)),
      evidence: [
        `${count} more ${g.className} alive along one retainer path (${g.counts.join(' → ')})${n >= 3 ? ', more in every interval' : ''}${count < g.countDelta ? ` (the path gained ${g.countDelta}; its class's other paths lost ${g.lostElsewhere}, which may have moved here)` : ''}; compared by path, not object by object (the object ids of these snapshots do not line up)`,
        ...(external ? [`${Math.round((100 * g.externalSize) / g.retainedSize)}% of what they retain is ArrayBuffer backing stores (Buffers): memory outside the JS heap`] : []),
      ],
      externalSize: g.externalSize,
    });
  }
  return findings.map((f) => {
    const own = (through.get(f) ?? []).filter((g) => isProgramClass(g.className));
    const best = own.length > 0 ? own.reduce((a, b) => (grownRetained(b) > grownRetained(a) ? b : a)) : undefined;
    const lead = headedByCarrier(f) && best ? namedAfter(f, best, addedObjects(best), n, rates) : f;
    const list = new Map(held.get(f) ?? []);
    if (lead !== f) {
      list.delete(best!.className);
      list.set(f.className, f.count);
    }
    return list.size > 0 ? { ...lead, alsoHeld: [...list].sort((a, b) => b[1] - a[1]).map(([name, count]) => `${count} × ${name}`) } : lead;
  });
}

/** A carrier's finding named after the program's objects it holds (`g`, `count` of them added). */
function namedAfter(f: Finding, g: SignatureGroup, count: number, n: number, rates: GrowthRates): Finding {
  return {
    ...f,
    className: g.className,
    signature: g.signature,
    count,
    ...growthRates(count, rates, n - 1),
    chain: g.chain,
    ...fixFields(suggestFix(g.className, g.chain)),
    evidence: [
      `${count} more ${g.className} alive along one retainer path (${g.counts.join(' → ')}), each held through a ${f.className} (${f.count} more of them)${n >= 3 ? ', more in every interval' : ''}; compared by path, not object by object (the object ids of these snapshots do not line up)`,
      ...f.evidence.slice(1),
    ],
  };
}

function isLeakGroup(g: SignatureGroup, work: readonly number[], floor: number): boolean {
  if (!countsAsGrowth(g) || g.chain.length === 0) return false;
  if (addedObjects(g) < Math.max(MIN_GROWTH_COUNT, NOISE_SHARE * g.counts[0]!)) return false;
  if (g.counts.length >= 3 && !growsWithWork(stepsOf(g.counts), work)) return false;
  return grownRetained(g) >= floor;
}

/** The objects a group added, first snapshot to last, that cannot have moved from its class's other paths. */
function addedObjects(g: SignatureGroup): number {
  return Math.max(0, g.countDelta - g.lostElsewhere);
}

/** The part of the group's retained size (newest snapshot) that its added objects account for. */
function grownRetained(g: SignatureGroup): number {
  const alive = g.counts[g.counts.length - 1]!;
  return alive > 0 ? (g.retainedSize * addedObjects(g)) / alive : 0;
}

/** Hops compared when a group's chain is matched inside a finding's chain. */
const MATCHED_HOPS = 3;

/**
 * The group's objects hold the finding's: its chain is a tail of the finding's chain (same classes, same
 * edges but element indices, for MATCHED_HOPS hops or to the root). The closures of zoo/closure-array
 * each hold one DraftDocument; ranked first, the DraftDocument is the finding and the closures its
 * carriers.
 */
function holdsOnChain(g: SignatureGroup, f: Finding): boolean {
  const own = g.chain;
  for (let i = 1; i < f.chain.length; i++) {
    let j = 0;
    while (j < MATCHED_HOPS && j < own.length && i + j < f.chain.length && sameHop(own[j]!, f.chain[i + j]!)) j++;
    if (j === MATCHED_HOPS || (j > 0 && (j === own.length || i + j === f.chain.length))) return true;
  }
  return false;
}

function sameHop(a: ChainHop, b: ChainHop): boolean {
  if (a.node.className !== b.node.className) return false;
  if (a.edge === null || b.edge === null) return a.edge === b.edge;
  return a.edge.type === b.edge.type && (a.edge.type === 'element' || a.edge.type === 'hidden' || a.edge.name === b.edge.name);
}

/** The same path from the holder up: siblings in one container (a signature is its class, then the holder's path). */
function sameHolder(g: SignatureGroup, f: Finding): boolean {
  if (f.signature === null || !g.signature.startsWith(g.className) || !f.signature.startsWith(f.className)) return false;
  return g.signature.slice(g.className.length) === f.signature.slice(f.className.length);
}
