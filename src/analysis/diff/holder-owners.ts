// The objects a holder works for: what a resource on a leaked group's chain exists for, when it was
// made by a library, in the library's own code (survivor-sites.ts names the user's line that made the
// owner). Two structural relations, nothing else:
// - what its callback runs for: from the holder through a callback edge (a timer's `_onTimeout`, an
//   immediate's `_onImmediate`, a listener, a bound function), then through the closure's context, its
//   variables and a bound or captured `this`, at most three hops (story A: an InternalChannel's idle
//   timer → its closure → the context → `this`, the InternalChannel);
// - who keeps it: an object of another class that holds it in a named property (story A: the
//   `callRefTimer` a channel starts for its calls, `setInterval(() => {}, …)`, whose callback captures
//   nothing, kept in `InternalChannel.callRefTimer`). Asked only when the chain reaches the holder
//   through neighbours of its own class (an intrusive list: a timer list's `_idleNext`) or straight
//   from an object older than the series (the list's head): then the chain says nothing about what the
//   holder is for. Otherwise the chain's own next hop is what keeps it, and it is weighed there.
// Only objects born in the series count: an old object that holds a new resource did not make it for
// the growth. What the callback captured first (nearest first), then keepers in retainer order. The
// callback and its closure's context are only the way there, never owners: they are made wherever the
// library's code runs (story A: grpc-js's deadline callback, made inside the program's call to the
// client, would name the call's line, not the client's; a context's stack is often another function's:
// V8 names the function an inlined one ran in).

import type { HeapGraph } from '../../snapshot/heap-graph.js';
import type { HeapAnalysis } from '../heap-analysis.js';
import { retainingEdgeOf } from '../retainer-index.js';

/** Edges by which an async resource holds what it will run: a timer's or immediate's callback, a listener. */
export const CALLBACK_EDGE = /^(_onTimeout|_onImmediate|callback|_callback|listener|handler|bound_this|bound_function)$/;
/** Past the callback: a closure's context and its variables, a bound function's receiver. */
const CAPTURE_EDGE = /^(context|bound_this|bound_function|this)$/;
/** Holder → callback → its context → a variable or `this`: an owner is at most this far. */
const OWNER_HOPS = 3;

/** An edge with a name a holder keeps something by: not an element, hidden or weak one. */
export function namedEdge(g: HeapGraph, e: number): boolean {
  const type = g.edgeType[e]!;
  return type !== g.edgeTypes.weak && type !== g.edgeTypes.element && type !== g.edgeTypes.hidden;
}

/**
 * Objects born after `bornAfter` that `holder` works for, nearest first (see the header); `next` is
 * the hop that holds `holder` on the chain being walked (undefined at its end).
 */
export function ownersOf(analysis: HeapAnalysis, holder: number, next: number | undefined, bornAfter: number): number[] {
  const owners = callbackOwners(analysis, holder, bornAfter);
  const { classOf } = analysis.classIndex;
  const listed = next === undefined || analysis.graph.nodeId[next]! <= bornAfter || classOf[next] === classOf[holder];
  if (listed) for (const ordinal of keepers(analysis, holder, bornAfter)) owners.push(ordinal);
  return owners;
}

function callbackOwners(analysis: HeapAnalysis, holder: number, bornAfter: number): number[] {
  const g = analysis.graph;
  const out: number[] = [];
  let frontier = [holder];
  for (let depth = 0; depth < OWNER_HOPS && frontier.length > 0; depth++) {
    const next: number[] = [];
    for (const from of frontier) {
      for (let e = g.firstEdge[from]!; e < g.firstEdge[from + 1]!; e++) {
        if (!namedEdge(g, e)) continue;
        const name = g.edgeNameOf(e);
        const follows = depth === 0 ? CALLBACK_EDGE.test(name) : CAPTURE_EDGE.test(name) || g.edgeType[e] === g.edgeTypes.context;
        if (!follows) continue;
        const to = g.edgeTarget[e]!;
        if (g.nodeId[to]! <= bornAfter || to === holder) continue;
        // Depth 0 reaches the callback, depth 1 its context (or a bound receiver), depth 2 the variables.
        if (depth > 0 && !(depth === 1 && name === 'context')) out.push(to);
        next.push(to);
      }
    }
    frontier = next;
  }
  return out;
}

function keepers(analysis: HeapAnalysis, holder: number, bornAfter: number): number[] {
  const g = analysis.graph;
  const { firstRetainer, retainingNode } = analysis.retainers;
  const { classOf } = analysis.classIndex;
  const out: number[] = [];
  for (let s = firstRetainer[holder]!; s < firstRetainer[holder + 1]!; s++) {
    const u = retainingNode[s]!;
    if (g.nodeId[u]! <= bornAfter || classOf[u] === classOf[holder] || g.nodeType[u] !== g.nodeTypes.object) continue;
    const e = retainingEdgeOf(g, analysis.edgeMask, analysis.retainers, holder, s);
    if (e >= 0 && g.edgeType[e] === g.edgeTypes.property) out.push(u);
  }
  return out;
}
