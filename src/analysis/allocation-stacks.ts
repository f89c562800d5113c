// Allocation stacks of a snapshot taken while V8 tracked allocations (`attach --trace-allocations`,
// assertNoLeak): a heap node's `trace_node_id` names a node of the snapshot's `trace_tree`, whose chain of
// parents is the stack that allocated it, innermost first; `trace_function_infos` names each frame's
// function, script and position. Folded to what a user reads by allocation-site.ts, and counted per group
// of objects, most common site first.
//
// Positions: V8 writes a function's line and column 1-based in the snapshot, 0 when unknown (measured on
// Node 20, 22 and 24: a function on line 5 of its file is written as 5). They are the position of the
// FUNCTION that was running, not of the statement in it: allocation tracking records functions only.
// docs/allocation-sites.md says what that means for what a user is told.

import type { HeapGraph } from '../snapshot/heap-graph.js';
import type { TraceNodes } from '../snapshot/trace-nodes.js';
import { allocationSiteKey, foldAllocationStack, type AllocationFrame, type AllocationSite } from './allocation-site.js';

/** One folded site and how many of a group's objects it allocated. */
export interface AllocationSiteCount {
  readonly site: AllocationSite;
  readonly count: number;
  /** count / the group's objects that have a known stack. */
  readonly share: number;
}

/** Sites kept per group: the most common few (a report shows the first). */
export const SITES_PER_GROUP = 3;

/** True when the snapshot was taken while allocations were tracked: some node has a trace id. */
export function hasAllocationTraces(graph: HeapGraph): boolean {
  const infos = graph.extras.traceFunctionInfos;
  return graph.nodeTraceId !== undefined && infos !== undefined && infos.length > 0;
}

/** Where each field sits in a `trace_function_infos` record (meta.trace_function_info_fields). */
interface InfoFields {
  readonly name: number; readonly script: number; readonly line: number; readonly column: number; readonly count: number;
}

export class AllocationStacks {
  readonly #graph: HeapGraph;
  readonly #nodes: TraceNodes;
  readonly #fields: InfoFields;
  /** Folded site per trace node index, filled on first use. */
  readonly #siteOf = new Map<number, AllocationSite>();

  private constructor(graph: HeapGraph, nodes: TraceNodes, fields: InfoFields) {
    this.#graph = graph;
    this.#nodes = nodes;
    this.#fields = fields;
  }

  /** The stacks of `graph`, or undefined when it holds none (taken without allocation tracking). */
  static of(graph: HeapGraph): AllocationStacks | undefined {
    if (!hasAllocationTraces(graph)) return undefined;
    const names = graph.extras.meta.trace_function_info_fields;
    if (!Array.isArray(names)) return undefined;
    const at = (field: string): number => names.indexOf(field);
    const fields = { name: at('name'), script: at('script_name'), line: at('line'), column: at('column'), count: names.length };
    if (fields.name < 0 || fields.script < 0 || fields.line < 0 || fields.column < 0) return undefined;
    const nodes = graph.extras.traceNodes;
    if (nodes === undefined || nodes.count === 0) return undefined;
    return new AllocationStacks(graph, nodes, fields);
  }

  /** The stack that allocated `ordinal`, innermost first; empty when it has none (made before tracking). */
  stackOf(ordinal: number): AllocationFrame[] {
    const index = this.#traceIndex(ordinal);
    return index < 0 ? [] : this.#stack(index);
  }

  /** The folded site of `ordinal`'s stack, or undefined when it has none. */
  siteOf(ordinal: number): AllocationSite | undefined {
    const index = this.#traceIndex(ordinal);
    if (index < 0) return undefined;
    let site = this.#siteOf.get(index);
    if (site === undefined) {
      site = foldAllocationStack(this.#stack(index));
      this.#siteOf.set(index, site);
    }
    return site.frames.length > 0 ? site : undefined;
  }

  /** Sites of the objects `members` yields, most common first (at most `limit`). */
  countSites(members: Iterable<number>, limit = SITES_PER_GROUP): AllocationSiteCount[] {
    const counts = new Map<string, { site: AllocationSite; count: number }>();
    let known = 0;
    for (const ordinal of members) {
      const site = this.siteOf(ordinal);
      if (site === undefined) continue;
      known++;
      const key = allocationSiteKey(site);
      const entry = counts.get(key);
      if (entry) entry.count++;
      else counts.set(key, { site, count: 1 });
    }
    return [...counts.values()]
      .sort((a, b) => b.count - a.count)
      .slice(0, limit)
      .map((e) => ({ site: e.site, count: e.count, share: e.count / known }));
  }

  #traceIndex(ordinal: number): number {
    const traceId = this.#graph.nodeTraceId?.[ordinal] ?? 0;
    return traceId === 0 ? -1 : this.#nodes.indexOfId(traceId);
  }

  #stack(index: number): AllocationFrame[] {
    const infos = this.#graph.extras.traceFunctionInfos!;
    const strings = this.#graph.strings;
    const f = this.#fields;
    const stack: AllocationFrame[] = [];
    // The tree's root is V8's `(root)` entry, not a frame.
    for (let k = index; k >= 0 && this.#nodes.parent[k]! >= 0; k = this.#nodes.parent[k]!) {
      const base = this.#nodes.functionInfo[k]! * f.count;
      if (base + f.count > infos.length) continue;
      stack.push({
        function: strings.get(infos[base + f.name]!),
        url: strings.get(infos[base + f.script]!),
        line: infos[base + f.line]!,
        column: infos[base + f.column]!,
      });
    }
    return stack;
  }
}
