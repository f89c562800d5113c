// Where a survivor group was made, when the snapshots were taken while allocations were tracked: the
// folded allocation site (allocation-site.ts) most of its members share, with its share of them.
//
// When no member was made in the user's own code (story A: LangChain makes its RunTrees in its own
// continuations, below no frame of the program), the members' site says nothing a user can change;
// what they can change is what made the HOLDER that keeps them: the chain from a member towards the
// root is walked, and the first holder that was itself born after the first snapshot and made in user
// code names the site (story A: the grpc-js Timeout that captured the store, made under the line that
// creates the client). `holder` then says which hop of the chain it is. A holder that a library made in
// a callback of its own, below no frame of the program (story A's channel timer, started when the
// connection came up), is traced to its OWNER: what its callback runs for — the timer's `_onTimeout`
// closure, its context, the `this` it captured (the InternalChannel, made at the line that creates the
// client). `holder.owner` then names that class. docs/allocation-sites.md.

import { allocationSiteKey, type AllocationSite } from '../allocation-site.js';
import { AllocationStacks } from '../allocation-stacks.js';
import type { HeapAnalysis } from '../heap-analysis.js';
import type { RetainerPaths } from '../retainer-paths.js';

export interface GroupAllocation {
  readonly site: AllocationSite;
  /** Of the members whose site (or whose holder's site) is known, the fraction this site made. */
  readonly share: number;
  /** Set when the site made a holder on the members' chain, not the members: its class and hop (0 = the member). */
  readonly holder?: { readonly className: string; readonly hop: number; readonly owner?: string };
}

/** Members whose chains are walked per group (evenly spread over the group). */
const MEMBERS_WALKED = 200;
/** How far up a member's chain a holder may be. */
const HOLDER_HOPS = 16;
/** A holder's site names the finding only when it made the holders of at least this share of the members walked. */
const MIN_HOLDER_SHARE = 0.25;
/** Edges by which an async resource holds what it will run: a timer's or immediate's callback, a listener. */
const CALLBACK_EDGE = /^(_onTimeout|_onImmediate|callback|_callback|listener|handler|bound_this|bound_function)$/;
/** Past the callback: a closure's context and its variables, a bound function's receiver. */
const CAPTURE_EDGE = /^(context|bound_this|bound_function|this)$/;
/** Holder → callback → its context → a variable or `this`: the owner is at most this far. */
const OWNER_HOPS = 3;

/** Per group (`groupOf[n]`, -1 for none), where it was made; undefined when the snapshot has no allocation traces. */
export function allocationOfGroups(
  analysis: HeapAnalysis, paths: RetainerPaths, groupOf: Int32Array, groups: number, bornAfter: number,
): (GroupAllocation | undefined)[] | undefined {
  const stacks = AllocationStacks.of(analysis.graph);
  if (stacks === undefined) return undefined;
  const members: number[][] = Array.from({ length: groups }, () => []);
  for (let n = 0; n < groupOf.length; n++) if (groupOf[n]! >= 0) members[groupOf[n]!]!.push(n);
  return members.map((m) => {
    const sites = stacks.countSites(m);
    const [top] = sites;
    // The user's own site, when it made the most of them or at least a quarter: one npm test run under
    // load gave 40% of the zoo's RequestStates the stack of process.memoryUsage() (leakhunt's own sampler
    // in the target; why V8 did so is not known), which outvoted the line that made them.
    const own = sites.find((s, i) => s.site.inUserCode && (i === 0 || s.share >= MIN_HOLDER_SHARE));
    if (own) return { site: own.site, share: own.share };
    return holderSite(analysis, paths, stacks, m, bornAfter) ?? (top ? { site: top.site, share: top.share } : undefined);
  });
}

function holderSite(
  analysis: HeapAnalysis, paths: RetainerPaths, stacks: AllocationStacks, members: readonly number[], bornAfter: number,
): GroupAllocation | undefined {
  const { nodeId } = analysis.graph;
  const step = Math.max(1, Math.floor(members.length / MEMBERS_WALKED));
  const counts = new Map<string, { site: AllocationSite; hop: number; holder: number; count: number; owner?: number }>();
  let walked = 0;
  for (let i = 0; i < members.length; i += step) {
    walked++;
    const chain = paths.shortestPath(members[i]!, HOLDER_HOPS);
    for (let hop = 1; hop < chain.length; hop++) {
      const holder = chain[hop]!.ordinal;
      if (nodeId[holder]! <= bornAfter) break; // a holder older than the series: what holds the growth, made before it
      const own = stacks.siteOf(holder);
      const owner = own?.inUserCode ? undefined : ownerOf(analysis, stacks, holder, bornAfter);
      const site = own?.inUserCode ? own : owner === undefined ? undefined : stacks.siteOf(owner);
      if (site === undefined || !site.inUserCode) continue;
      const key = `${allocationSiteKey(site)}\n${hop}`;
      const entry = counts.get(key);
      if (entry) entry.count++;
      else counts.set(key, { site, hop, holder, count: 1, ...(owner === undefined ? {} : { owner }) });
      break;
    }
  }
  let best: { site: AllocationSite; hop: number; holder: number; count: number; owner?: number } | undefined;
  for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
  if (!best || best.count / walked < MIN_HOLDER_SHARE) return undefined;
  const owner = best.owner === undefined ? {} : { owner: analysis.className(best.owner) };
  return { site: best.site, share: best.count / walked, holder: { className: analysis.className(best.holder), hop: best.hop, ...owner } };
}

/**
 * The object a library-made holder works for: from the holder through a callback edge, then through
 * closure contexts, variables and bound receivers, the first object born in the series that the user's
 * code made. Only those edges: a timer's list neighbours or the store it captured are not its owner.
 */
function ownerOf(analysis: HeapAnalysis, stacks: AllocationStacks, holder: number, bornAfter: number): number | undefined {
  const g = analysis.graph;
  let frontier = [holder];
  for (let depth = 0; depth < OWNER_HOPS && frontier.length > 0; depth++) {
    const next: number[] = [];
    for (const from of frontier) {
      for (let e = g.firstEdge[from]!; e < g.firstEdge[from + 1]!; e++) {
        const type = g.edgeType[e]!;
        if (type === g.edgeTypes.weak || type === g.edgeTypes.element || type === g.edgeTypes.hidden) continue;
        const name = g.edgeNameOf(e);
        const follows = depth === 0 ? CALLBACK_EDGE.test(name) : CAPTURE_EDGE.test(name) || type === g.edgeTypes.context;
        if (!follows) continue;
        const to = g.edgeTarget[e]!;
        if (g.nodeId[to]! <= bornAfter) continue;
        if (depth > 0 && stacks.siteOf(to)?.inUserCode) return to;
        next.push(to);
      }
    }
    frontier = next;
  }
  return undefined;
}
