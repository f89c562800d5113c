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
// Chains that end in a library's closures (story A: grpc-js's timers) give nothing here, and the
// holder rule (survivor-sites.ts) decides. docs/allocation-sites.md.

import { frameOrigin } from '../allocation-site.js';
import type { AllocationStacks } from '../allocation-stacks.js';
import type { HeapAnalysis } from '../heap-analysis.js';
import type { RetainerPaths } from '../retainer-paths.js';
import type { ClosureLocations, SourceLocation } from '../source-locations.js';
import { CALLBACK_EDGE } from './holder-owners.js';
import type { GroupAllocation } from './survivor-sites.js';

/** Members whose chains are walked per group (evenly spread over the group). */
const MEMBERS_WALKED = 200;
/** How far up a member's chain the first old holder may be. */
const HOOK_HOPS = 16;
/** The location names the group only when it hooked at least this share of the members located. */
const MIN_SHARE = 0.25;

interface Tally { readonly location: SourceLocation; count: number; readonly closure: number; readonly hook: number; readonly hop: number }

/** Where the user's code hooked `members` onto an old holder through a closure, or undefined. */
export function attachingClosureSite(
  analysis: HeapAnalysis, paths: RetainerPaths, stacks: AllocationStacks, closures: ClosureLocations,
  members: readonly number[], bornAfter: number,
): GroupAllocation | undefined {
  const { nodeId } = analysis.graph;
  const step = Math.max(1, Math.floor(members.length / MEMBERS_WALKED));
  const byPlace = new Map<string, Tally>();
  let located = 0;
  for (let i = 0; i < members.length; i += step) {
    const chain = paths.shortestPath(members[i]!, HOOK_HOPS);
    const old = chain.findIndex((hop, at) => at > 0 && nodeId[hop.ordinal]! <= bornAfter);
    if (old < 0) continue;
    located++;
    const hook = chain[old - 1]!.ordinal;
    const closure = closureOf(analysis, hook, bornAfter);
    const location = closure === undefined ? undefined : closures.locationOf(closure);
    if (location === undefined || frameOrigin(location.url) !== 'user') continue;
    const key = `${location.url}:${location.line}:${location.column}`;
    const tally = byPlace.get(key);
    if (tally) tally.count++;
    else byPlace.set(key, { location, count: 1, closure: closure!, hook, hop: old - 1 });
  }
  let best: Tally | undefined;
  for (const tally of byPlace.values()) if (!best || tally.count > best.count) best = tally;
  if (!best || best.count / located < MIN_SHARE) return undefined;
  const made = stacks.siteOf(best.closure);
  const fn = made?.inUserCode && made.frames[0]!.url === best.location.url ? made.frames[0]!.function : '';
  const frame = { function: fn, url: best.location.url, line: best.location.line, column: best.location.column };
  return {
    site: { frames: [frame], inUserCode: true },
    share: best.count / located,
    ...(best.hop > 0 ? { holder: { className: analysis.className(best.hook), hop: best.hop } } : {}),
  };
}

/** `hook` when it is a closure, else the closure its callback edge names (born in the series), else undefined. */
function closureOf(analysis: HeapAnalysis, hook: number, bornAfter: number): number | undefined {
  const g = analysis.graph;
  if (g.nodeType[hook] === g.nodeTypes.closure) return hook;
  for (let e = g.firstEdge[hook]!; e < g.firstEdge[hook + 1]!; e++) {
    const type = g.edgeType[e]!;
    if (type === g.edgeTypes.weak || type === g.edgeTypes.element || type === g.edgeTypes.hidden) continue;
    const to = g.edgeTarget[e]!;
    if (g.nodeType[to] === g.nodeTypes.closure && g.nodeId[to]! > bornAfter && CALLBACK_EDGE.test(g.edgeNameOf(e))) return to;
  }
  return undefined;
}
