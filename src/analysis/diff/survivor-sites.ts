// Where a survivor group was made, when the snapshots were taken while allocations were tracked: the
// folded allocation site (allocation-site.ts) most of its members share, with its share of them —
// unless a closure of the user's code hooked them onto what outlives the series: then the statement
// that made it (attaching-closures.ts), which comes first.
//
// When no member was made in the user's own code (story A: LangChain makes its RunTrees in its own
// continuations, below no frame of the program), the members' site says nothing a user can change;
// what they can change is what made the HOLDER that keeps them. Each member's chain is walked towards
// the root over holders born after the first snapshot; at each, the first of these made in user code
// names the site: an object the holder works for (holder-owners.ts: what its callback captured, or who
// keeps it in a property when the chain reaches it through a list), else the holder itself (story A:
// the grpc-js Timeout that captured the store → its InternalChannel, made at the line that creates the
// client). A holder of the same class as the hop below it (the next Timeout of a timer list, a parent
// RunTree) is passed over: it holds the member as a link, and what made it says nothing about this one.
// Sites are the objects' own stacks or, where V8 recorded none, their class's (class-sites.ts). The
// most common site names the group when it made the holders of at least a quarter of the members that
// had any holder with a known site (`located`), and `holder` says which hop and class, `holder.owner`
// the owner's class. docs/allocation-sites.md.

import { allocationSiteKey, type AllocationSite } from '../allocation-site.js';
import { AllocationStacks } from '../allocation-stacks.js';
import type { HeapAnalysis } from '../heap-analysis.js';
import type { Chain, RetainerPaths } from '../retainer-paths.js';
import { ClosureLocations } from '../source-locations.js';
import { attachingClosureSite } from './attaching-closures.js';
import { ClassSites } from './class-sites.js';
import type { GroupAllocation } from './group-allocation.js';
import { ownersOf } from './holder-owners.js';

/** Members whose chains are walked per group (evenly spread over the group). */
const MEMBERS_WALKED = 200;
/** How far up a member's chain a holder (or the hook of attaching-closures.ts) may be. */
const HOLDER_HOPS = 16;
/** A holder's site names the finding only when it made the holders of at least this share of the members located. */
const MIN_HOLDER_SHARE = 0.25;

/** Per group (`groupOf[n]`, -1 for none), where it was made; undefined when the snapshot has no allocation traces. */
export function allocationOfGroups(
  analysis: HeapAnalysis, paths: RetainerPaths, groupOf: Int32Array, groups: number, bornAfter: number,
): (GroupAllocation | undefined)[] | undefined {
  const stacks = AllocationStacks.of(analysis.graph);
  if (stacks === undefined) return undefined;
  const classSites = new ClassSites(analysis, stacks, bornAfter);
  const closures = ClosureLocations.of(analysis.graph);
  const members: number[][] = Array.from({ length: groups }, () => []);
  for (let n = 0; n < groupOf.length; n++) if (groupOf[n]! >= 0) members[groupOf[n]!]!.push(n);
  return members.map((m) => {
    // The chains of an even sample of the members, walked once for both chain rules below.
    let sampled: Chain[] | undefined;
    const chains = (): Chain[] => (sampled ??= sampleChains(paths, m));
    // The statement that hooked them onto what outlives the series, when a closure of the user's did
    // (attaching-closures.ts): finer than any function's first line that tracking records.
    const hooked = closures && attachingClosureSite(analysis, classSites, closures, chains(), bornAfter);
    if (hooked) return hooked;
    const counted = stacks.countSites(m);
    const [top] = counted;
    // The user's own site, when it made the most of them or at least a quarter: one npm test run under
    // load gave 40% of the zoo's RequestStates the stack of process.memoryUsage() (leakhunt's own sampler
    // in the target; why V8 did so is not known), which outvoted the line that made them.
    const own = counted.find((s, i) => s.site.inUserCode && (i === 0 || s.share >= MIN_HOLDER_SHARE));
    if (own) return { site: own.site, share: own.share };
    return holderSite(analysis, classSites, chains(), bornAfter) ?? (top ? { site: top.site, share: top.share } : undefined);
  });
}

/** Chains of `members` evenly spread over them, MEMBERS_WALKED at most, HOLDER_HOPS long at most. */
function sampleChains(paths: RetainerPaths, members: readonly number[]): Chain[] {
  const step = Math.max(1, Math.floor(members.length / MEMBERS_WALKED));
  const chains: Chain[] = [];
  for (let i = 0; i < members.length; i += step) chains.push(paths.shortestPath(members[i]!, HOLDER_HOPS));
  return chains;
}

interface HolderTally {
  readonly site: AllocationSite;
  count: number;
  /** Per way of holding (hop, holder class, owner class): how many members, and one example. */
  readonly ways: Map<string, { count: number; hop: number; holder: number; owner?: number }>;
}

function holderSite(analysis: HeapAnalysis, sites: ClassSites, chains: readonly Chain[], bornAfter: number): GroupAllocation | undefined {
  const { nodeId } = analysis.graph;
  const { classOf } = analysis.classIndex;
  const bySite = new Map<string, HolderTally>();
  let located = 0;
  for (const chain of chains) {
    let known = false;
    for (let hop = 1; hop < chain.length; hop++) {
      const holder = chain[hop]!.ordinal;
      if (nodeId[holder]! <= bornAfter) break; // a holder older than the series: what holds the growth, made before it
      // A neighbour of the hop below it in a list or tree of one kind (a timer list's next Timeout, a
      // parent RunTree) holds it as a link only: what made that neighbour says nothing about this one.
      if (classOf[holder] === classOf[chain[hop - 1]!.ordinal]) continue;
      const found = userMade(analysis, sites, holder, chain[hop + 1]?.ordinal, bornAfter);
      known ||= found.known;
      if (!found.site) continue;
      const key = allocationSiteKey(found.site);
      let tally = bySite.get(key);
      if (!tally) bySite.set(key, (tally = { site: found.site, count: 0, ways: new Map() }));
      tally.count++;
      const way = `${hop} ${classOf[holder]} ${found.owner === undefined ? '' : classOf[found.owner]}`;
      const w = tally.ways.get(way);
      if (w) w.count++;
      else tally.ways.set(way, { count: 1, hop, holder, ...(found.owner === undefined ? {} : { owner: found.owner }) });
      break;
    }
    if (known) located++;
  }
  let best: HolderTally | undefined;
  for (const tally of bySite.values()) if (!best || tally.count > best.count) best = tally;
  if (!best || best.count / located < MIN_HOLDER_SHARE) return undefined;
  let way: { count: number; hop: number; holder: number; owner?: number } | undefined;
  for (const w of best.ways.values()) if (!way || w.count > way.count) way = w;
  const owner = way!.owner === undefined ? {} : { owner: analysis.className(way!.owner) };
  return { site: best.site, share: best.count / located, holder: { className: analysis.className(way!.holder), hop: way!.hop, ...owner } };
}

/**
 * Whether the user's code made `holder`'s owner (holder-owners.ts) or, failing that, `holder` itself:
 * the site, and the owner when it was the owner; `known` when any of them has a site at all (recorded,
 * or agreed by its class: class-sites.ts), user code or not.
 */
function userMade(
  analysis: HeapAnalysis, sites: ClassSites, holder: number, next: number | undefined, bornAfter: number,
): { site?: AllocationSite; owner?: number; known: boolean } {
  let known = false;
  for (const owner of ownersOf(analysis, holder, next, bornAfter)) {
    const site = sites.siteOf(owner)?.site;
    if (site === undefined) continue;
    known = true;
    if (site.inUserCode) return { site, owner, known };
  }
  const own = sites.siteOf(holder)?.site;
  if (own?.inUserCode) return { site: own, known: true };
  return { known: known || own !== undefined };
}
