// How an edge reads in a chain: `Holder.name` for named edges (property, context variable, internal
// slot, shortcut), `Holder[3]` for elements and hidden slots, `Holder["a b"]` when the name is not an
// identifier, `Holder[<key, 20 chars>]` when a property name may be data (redact.ts). With `fold`,
// indices become `[]` and so do purely numeric names (a Map or object keyed by counters), so one
// per-request leak reads as one path, not one per request.

import type { HeapGraph } from '../snapshot/heap-graph.js';
import { isCodeLikeName, redactedKey } from './redact.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const NUMERIC = /^\d+$/;

export function edgeLabel(graph: HeapGraph, edge: number, fold: boolean): string {
  const t = graph.edgeType[edge];
  if (t === graph.edgeTypes.element || t === graph.edgeTypes.hidden) {
    if (fold) return '[]';
    const index = String(graph.edgeNameOrIndex[edge]);
    return t === graph.edgeTypes.element && !isCodeLikeName(index) ? `[${redactedKey(index)}]` : `[${index}]`;
  }
  if (graph.strings.isLong(graph.edgeNameOrIndex[edge]!)) return '[<long name>]';
  const name = graph.edgeNameOf(edge);
  if (t === graph.edgeTypes.property && !isCodeLikeName(name)) return `[${redactedKey(name)}]`;
  if (IDENTIFIER.test(name)) return `.${name}`;
  if (NUMERIC.test(name)) return fold ? '[]' : `[${name}]`;
  return `[${JSON.stringify(name.length > 60 ? `${name.slice(0, 59)}…` : name)}]`;
}
