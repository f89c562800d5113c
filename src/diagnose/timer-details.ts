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

const locationCache = new WeakMap<HeapAnalysis, Map<number, [number, number]>>();

/** Ordinal → [line, column] (0-based) from the snapshot's `locations`, built once per snapshot. */
function locationOf(analysis: HeapAnalysis, ordinal: number): [number, number] | undefined {
  let map = locationCache.get(analysis);
  if (!map) {
    map = new Map();
    const { extras } = analysis.graph;
    const locations = extras.locations;
    const meta = extras.meta as { node_fields?: unknown[]; location_fields?: unknown[] };
    const nodeFields = meta.node_fields?.length ?? 7;
    const width = meta.location_fields?.length ?? 4;
    if (locations) {
      for (let i = 0; i + 3 < locations.length; i += width) map.set(locations[i]! / nodeFields, [locations[i + 2]!, locations[i + 3]!]);
    }
    locationCache.set(analysis, map);
  }
  return map.get(ordinal);
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
