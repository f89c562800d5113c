// Where a function object's source text is: V8 writes a `locations` entry (object index, script id,
// line, column) for each closure and each object whose constructor it knows, 0-based. A closure is
// created exactly where its text stands, so its location is the statement that made it: the
// `emitter.on('x', (e) => …)` call, the `setInterval(() => …)` line — the statement position that
// allocation tracking, which records functions only, cannot give (docs/allocation-sites.md).
// The script's name is not in the entry: it is the name of the Script object the closure's
// SharedFunctionInfo points at (`shared` → `script_or_debug_info` or `script`, through a DebugInfo
// when the script is being debugged).

import type { HeapGraph } from '../snapshot/heap-graph.js';

/** A location as a person reads it: 1-based line and column, the script's name as V8 has it. */
export interface SourceLocation {
  readonly url: string;
  readonly line: number;
  readonly column: number;
}

/** The `locations` entries of `graph` one by one: node ordinal and 0-based script id, line, column. */
export function forEachLocation(
  graph: HeapGraph, visit: (ordinal: number, scriptId: number, line: number, column: number) => void,
): void {
  const locations = graph.extras.locations;
  const nodeFields = graph.extras.meta['node_fields'];
  if (!locations || locations.length === 0 || !Array.isArray(nodeFields)) return;
  const fields = (graph.extras.meta['location_fields'] as unknown[] | undefined) ?? ['object_index', 'script_id', 'line', 'column'];
  const [at, script, line, column] = ['object_index', 'script_id', 'line', 'column'].map((f) => fields.indexOf(f));
  if (at! < 0 || script! < 0 || line! < 0 || column! < 0) return;
  const width = fields.length;
  for (let i = 0; i + width <= locations.length; i += width) {
    const n = locations[i + at!]! / nodeFields.length;
    if (!Number.isInteger(n) || n >= graph.nodeCount) continue;
    visit(n, locations[i + script!]!, locations[i + line!]!, locations[i + column!]!);
  }
}

const SCRIPT_EDGE = /^script(_or_debug_info)?$/;

/** Packs a 0-based line and column into one number (both are 32-bit). */
const COLUMNS = 0x100000000;

export class ClosureLocations {
  readonly #graph: HeapGraph;
  /** Per located closure ordinal: its entry's line × COLUMNS + column (0-based); filled on first use. */
  #at: Map<number, number> | undefined;

  private constructor(graph: HeapGraph) {
    this.#graph = graph;
  }

  /** The closures' locations of `graph`, or undefined when it has no `locations` section. */
  static of(graph: HeapGraph): ClosureLocations | undefined {
    return graph.extras.locations?.length ? new ClosureLocations(graph) : undefined;
  }

  /** Where closure `ordinal`'s text stands, or undefined (not a closure, no entry, no script name). */
  locationOf(ordinal: number): SourceLocation | undefined {
    const at = this.#places().get(ordinal);
    if (at === undefined) return undefined;
    const url = this.#scriptName(ordinal);
    return url === undefined ? undefined : { url, line: Math.floor(at / COLUMNS) + 1, column: (at % COLUMNS) + 1 };
  }

  #places(): Map<number, number> {
    if (this.#at) return this.#at;
    const g = this.#graph;
    const at = new Map<number, number>();
    forEachLocation(g, (n, _script, line, column) => {
      if (g.nodeType[n] === g.nodeTypes.closure && !at.has(n)) at.set(n, line * COLUMNS + column);
    });
    return (this.#at = at);
  }

  #scriptName(closure: number): string | undefined {
    const g = this.#graph;
    const shared = this.#target(closure, (name) => name === 'shared');
    if (shared === undefined) return undefined;
    let script = this.#target(shared, (name) => SCRIPT_EDGE.test(name));
    if (script !== undefined && g.strings.get(g.nodeName[script]!) === 'system / DebugInfo') script = this.#target(script, (name) => SCRIPT_EDGE.test(name));
    if (script === undefined) return undefined;
    const name = g.strings.get(g.nodeName[script]!);
    return name === '' || name.startsWith('system / ') ? undefined : name;
  }

  #target(from: number, named: (name: string) => boolean): number | undefined {
    const g = this.#graph;
    for (let e = g.firstEdge[from]!; e < g.firstEdge[from + 1]!; e++) {
      if (g.edgeType[e] === g.edgeTypes.element || g.edgeType[e] === g.edgeTypes.hidden) continue;
      if (named(g.edgeNameOf(e))) return g.edgeTarget[e]!;
    }
    return undefined;
  }
}
