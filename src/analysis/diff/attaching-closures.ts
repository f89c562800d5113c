// The statement that hooks a survivor group onto what outlives the series, when the hook is a function
// the user's code wrote: a listener added per request (`emitter.on('x', (e) => …)`), a timer's callback
// (`setInterval(() => …)`), a thunk kept in a long-lived cache. Each member's chain is walked towards the
// root to the first holder older than the series; the hop just below it is what the series hooked on
// (the hook). When the hook is a closure, or a holder whose callback is one (a Timeout's `_onTimeout`),
// and that closure's text is the user's code, the closure's own location (source-locations.ts) is the
// statement to change: a closure is made exactly where its text stands. Allocation tracking names only
// the function that ran (its first line), so this is the finer answer where it applies; the function's
// name comes from the closure's own tracked stack when it is in the same file. The most common location
// names the group when it hooked at least a quarter of the members whose chain reached an old holder.
// A closure that runs for an object born in the series — it captured that object as `this`, or is bound
// to it — is that object's own machinery (zoo als-timer-client: the keep-alive timer a per-request
// MetricsClient schedules in its own method): what to change is where that object (the hook's owner)
// is made, so its site names the group, when it is the user's code (`holder.owner` its class).

import { allocationSiteKey, frameOrigin, type AllocationSite } from '../allocation-site.js';
import type { HeapAnalysis } from '../heap-analysis.js';
import type { Chain } from '../retainer-paths.js';
import type { ClosureLocations } from '../source-locations.js';
import type { ClassSites } from './class-sites.js';
import { CALLBACK_EDGE, namedEdge } from './holder-owners.js';
import type { GroupAllocation } from './group-allocation.js';

/** The location names the group only when it hooked at least this share of the members located. */
const MIN_SHARE = 0.25;

interface Tally {
  readonly site: AllocationSite;
  count: number;
  readonly hook: number;
  readonly hop: number;
  /** The object born in the series the hook's closure runs for, when it does. */
  readonly owner?: number;
}

/** Where the user's code hooked a group onto an old holder through a closure (from its members' `chains`), or undefined. */
export function attachingClosureSite(
  analysis: HeapAnalysis, sites: ClassSites, closures: ClosureLocations, chains: readonly Chain[], bornAfter: number,
): GroupAllocation | undefined {
  const { nodeId } = analysis.graph;
  const bySite = new Map<string, Tally>();
  let located = 0;
  for (const chain of chains) {
    const old = chain.findIndex((hop, at) => at > 0 && nodeId[hop.ordinal]! <= bornAfter);
    if (old < 0) continue;
    located++;
    const hook = chain[old - 1]!.ordinal;
    const closure = closureOf(analysis, hook, bornAfter);
    if (closure === undefined) continue;
    const owner = runsFor(analysis, closure, bornAfter);
    const site = owner === undefined ? closureSite(sites, closures, closure) : sites.siteOf(owner)?.site;
    if (site === undefined || !site.inUserCode) continue;
    const key = `${owner === undefined ? '' : analysis.classIndex.classOf[owner]}\n${allocationSiteKey(site)}`;
    const tally = bySite.get(key);
    if (tally) tally.count++;
    else bySite.set(key, { site, count: 1, hook, hop: old - 1, ...(owner === undefined ? {} : { owner }) });
  }
  let best: Tally | undefined;
  for (const tally of bySite.values()) if (!best || tally.count > best.count) best = tally;
  if (!best || best.count / located < MIN_SHARE) return undefined;
  const owner = best.owner === undefined ? {} : { owner: analysis.className(best.owner) };
  const holder = best.hop > 0 || best.owner !== undefined ? { holder: { className: analysis.className(best.hook), hop: best.hop, ...owner } } : {};
  return { site: best.site, share: best.count / located, ...holder };
}

/**
 * The statement that made `closure`: its own location when that is the user's code, with the name of
 * the function that ran it when its tracked stack says so (in the same file); else undefined.
 */
function closureSite(sites: ClassSites, closures: ClosureLocations, closure: number): AllocationSite | undefined {
  const location = closures.locationOf(closure);
  if (location === undefined || frameOrigin(location.url) !== 'user') return undefined;
  const made = sites.siteOf(closure)?.site;
  const fn = made?.inUserCode && made.frames[0]!.url === location.url ? made.frames[0]!.function : '';
  return { frames: [{ function: fn, url: location.url, line: location.line, column: location.column }], inUserCode: true };
}

/** `hook` when it is a closure, else the closure its callback edge names (born in the series), else undefined. */
function closureOf(analysis: HeapAnalysis, hook: number, bornAfter: number): number | undefined {
  const g = analysis.graph;
  if (g.nodeType[hook] === g.nodeTypes.closure) return hook;
  for (let e = g.firstEdge[hook]!; e < g.firstEdge[hook + 1]!; e++) {
    const to = g.edgeTarget[e]!;
    if (!namedEdge(g, e) || g.nodeType[to] !== g.nodeTypes.closure || g.nodeId[to]! <= bornAfter) continue;
    if (CALLBACK_EDGE.test(g.edgeNameOf(e))) return to;
  }
  return undefined;
}

/** The object born in the series that `closure` is bound to or captured as `this`, or undefined. */
function runsFor(analysis: HeapAnalysis, closure: number, bornAfter: number): number | undefined {
  const g = analysis.graph;
  for (let e = g.firstEdge[closure]!; e < g.firstEdge[closure + 1]!; e++) {
    if (!namedEdge(g, e)) continue;
    const name = g.edgeNameOf(e);
    const to = g.edgeTarget[e]!;
    if (name === 'bound_this' && g.nodeId[to]! > bornAfter) return to;
    if (name !== 'context') continue;
    for (let c = g.firstEdge[to]!; c < g.firstEdge[to + 1]!; c++) {
      const self = g.edgeTarget[c]!;
      if (namedEdge(g, c) && g.edgeNameOf(c) === 'this' && g.nodeId[self]! > bornAfter) return self;
    }
  }
  return undefined;
}
