// What a timer does, read from the heap: the function it runs (`_onTimeout`: name and the file, line
// and column where it was defined, from the snapshot's `locations` and the function's script), and its
// period when the snapshot carries numeric values (`_idleTimeout`; CDP captureNumericValue).

import type { HeapAnalysis } from '../analysis/heap-analysis.js';

/** The target of `ordinal`'s named (property, context, internal) edge `name`, or -1. */
export function propertyTarget(analysis: HeapAnalysis, ordinal: number, name: string): number {
  const graph = analysis.graph;
  for (let e = graph.firstEdge[ordinal]!, end = graph.firstEdge[ordinal + 1]!; e < end; e++) {
    const t = graph.edgeType[e];
    if (t === graph.edgeTypes.element || t === graph.edgeTypes.hidden) continue;
    if (graph.edgeNameOf(e) === name) return graph.edgeTarget[e]!;
  }
  return -1;
}

/** Per snapshot: whether the object indexes of its `locations` ascend (V8 writes them in node order). */
const ascendingCache = new WeakMap<HeapAnalysis, boolean>();

/**
 * Ordinal → [line, column] (0-based) from the snapshot's `locations`; the last entry of an ordinal when
 * it has several. Looked up in the flat array itself (binary search when the indexes ascend, as V8
 * writes them; else a scan): an index of every located object was a Map entry and an array per closure
 * and object, 130 MB of JS heap on a 1.1 GB snapshot, for the few chains a report labels.
 */
function locationOf(analysis: HeapAnalysis, ordinal: number): [number, number] | undefined {
  const { extras } = analysis.graph;
  const locations = extras.locations;
  if (!locations) return undefined;
  const meta = extras.meta as { node_fields?: unknown[]; location_fields?: unknown[] };
  const nodeFields = meta.node_fields?.length ?? 7;
  const width = meta.location_fields?.length ?? 4;
  // Entries k = 0 .. count-1 start at k × width and need 4 values.
  const count = locations.length >= 4 ? Math.floor((locations.length - 4) / width) + 1 : 0;
  const target = ordinal * nodeFields;
  let ascending = ascendingCache.get(analysis);
  if (ascending === undefined) {
    ascending = true;
    for (let k = 1; k < count && ascending; k++) ascending = locations[(k - 1) * width]! <= locations[k * width]!;
    ascendingCache.set(analysis, ascending);
  }
  let found = -1;
  if (ascending) {
    // The last entry whose index is at most the target.
    let lo = 0, hi = count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (locations[mid * width]! <= target) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found >= 0 && locations[found * width] !== target) found = -1;
  } else {
    for (let k = count - 1; k >= 0 && found < 0; k--) if (locations[k * width] === target) found = k;
  }
  return found < 0 ? undefined : [locations[found * width + 2]!, locations[found * width + 3]!];
}

/** `heartbeat() at fixtures/als-timer.cjs:25:19`, as far as the heap tells. */
export function describeFunction(analysis: HeapAnalysis, closure: number): string {
  const graph = analysis.graph;
  const name = graph.nodeNameOf(closure) || '(anonymous)';
  const shared = propertyTarget(analysis, closure, 'shared');
  let script = shared >= 0 ? propertyTarget(analysis, shared, 'script') : -1;
  if (script < 0 && shared >= 0) script = propertyTarget(analysis, shared, 'script_or_debug_info'); // Node 20
  const file = script >= 0 ? graph.nodeNameOf(script) : '';
  const at = locationOf(analysis, closure);
  const where = file ? ` at ${file}${at ? `:${at[0] + 1}:${at[1] + 1}` : ''}` : at ? ` at line ${at[0] + 1}` : '';
  return `${name}()${where}`;
}

export function describeTimer(analysis: HeapAnalysis, timeout: number): string {
  const graph = analysis.graph;
  const parts: string[] = [];
  const period = propertyTarget(analysis, timeout, '_idleTimeout');
  if (period >= 0 && graph.nodeType[period] === graph.nodeTypes.number && /^\d+(\.\d+)?$/.test(graph.nodeNameOf(period))) {
    const repeat = propertyTarget(analysis, timeout, '_repeat');
    const isInterval = repeat >= 0 && graph.nodeType[repeat] === graph.nodeTypes.number;
    parts.push(`${isInterval ? 'every' : 'after'} ${graph.nodeNameOf(period)} ms`);
  }
  const callback = propertyTarget(analysis, timeout, '_onTimeout');
  if (callback >= 0 && graph.nodeType[callback] === graph.nodeTypes.closure) parts.push(`runs ${describeFunction(analysis, callback)}`);
  return parts.join(', ');
}
