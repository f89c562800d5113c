// Labels on a retainer chain: which hop is an AsyncLocalStorage store and which async resource
// captured it (with a timer's callback and where it was defined), which hop is a native holder, which
// is a known agent-framework object. The shapes come from recognisers.ts; this file only walks them.
//
// Store shapes (docs/node-facts.md):
//   20/22:              store ←"<symbol kResourceStore>"— resource
//   24 no-frame:        store ←"<symbol kResourceStore>"— Object ←"<symbol kAsyncLocalStorageContext>"— resource
//   AsyncContextFrame:  store ←k+1— (array) ←"table"— AsyncContextFrame ←"<symbol kAsyncContextFrame>"— resource
//   (a TCP handle, an Http2Session, a c-ares ChannelWrap hold the frame in internal field "2", a promise
//   reaction in hidden "0": the holder is the resource when ASYNC_RESOURCES names it)
// When only `(Global handles)` holds the frame (22 with the flag, sockets), the resource is not on the
// chain: the neighbouring handle is named as the likely owner and the label is marked inferred.
// Rows are matched against recognisedName: V8's hidden objects keep their own name (`system /
// PromiseReaction`), since their class name is only `(system)`.
// Holders that do not last: a per-moment root the engine took because nothing lasting holds the object
// ('transient-root'), Node's cleanup list ('bookkeeping'), and the top of a chain that does not reach
// the root ('no-root': DevTools' distance "-", usually a detached native object).

import type { HeapAnalysis } from '../analysis/heap-analysis.js';
import type { HopLabel } from '../analysis/chain-description.js';
import { findTransientRoots } from '../analysis/holder-tiers.js';
import { hopName } from '../analysis/path-signatures.js';
import type { Chain } from '../analysis/retainer-paths.js';
import {
  ASYNC_CONTEXT_EDGES, ASYNC_RESOURCES, FRAMEWORK_EDGES, FRAMEWORK_OBJECTS, NATIVE_HOLDERS, NO_ROOT_HOLDER, PENDING_WORK,
} from './recognisers.js';
import { describeFunction, describeTimer } from './timer-details.js';

function edgeName(analysis: HeapAnalysis, edge: number): string {
  return edge < 0 ? '' : analysis.graph.edgeNameOf(edge);
}

/** The name recogniser rows match: the hop's name, or a hidden object's own V8 name. */
export function recognisedName(analysis: HeapAnalysis, ordinal: number): string {
  const graph = analysis.graph;
  return graph.nodeType[ordinal] === graph.nodeTypes.hidden ? graph.nodeNameOf(ordinal) : hopName(analysis, ordinal);
}

export function resourceKind(className: string): string | undefined {
  return ASYNC_RESOURCES.find((r) => r.className.test(className))?.kind;
}

interface StoreMatch {
  readonly store: number; // chain index of the store
  readonly resource: number; // chain index of the resource, or -1 when inferred / absent
  readonly keyOrdinal: number; // the AsyncLocalStorage instance (frame shape), or -1
  readonly inferredOwner?: string;
}

function matchStore(analysis: HeapAnalysis, chain: Chain, i: number): StoreMatch | undefined {
  const graph = analysis.graph;
  const held = edgeName(analysis, chain[i]!.edge);
  if (held === ASYNC_CONTEXT_EDGES.resourceStore && i + 1 < chain.length) {
    const viaContext = edgeName(analysis, chain[i + 1]!.edge) === ASYNC_CONTEXT_EDGES.storageContext;
    const resource = viaContext ? i + 2 : i + 1;
    return { store: i, resource: resource < chain.length ? resource : -1, keyOrdinal: -1 };
  }
  // Frame shape: store held by the frame's table array at an odd slot (key at k, value at k+1).
  if (i + 2 >= chain.length) return undefined;
  const table = chain[i + 1]!, frame = chain[i + 2]!;
  if (graph.nodeType[table.ordinal] !== graph.nodeTypes.array) return undefined;
  if (hopName(analysis, frame.ordinal) !== ASYNC_CONTEXT_EDGES.frameClass) return undefined;
  if (edgeName(analysis, table.edge) !== ASYNC_CONTEXT_EDGES.frameTable) return undefined;
  const keyOrdinal = findKeyBefore(analysis, table.ordinal, chain[i]!.edge);
  const frameHeldBy = edgeName(analysis, frame.edge);
  const holder = i + 3 < chain.length ? chain[i + 3]!.ordinal : -1;
  const bySymbol = (ASYNC_CONTEXT_EDGES.frame as readonly string[]).includes(frameHeldBy);
  if (holder >= 0 && (bySymbol || resourceKind(recognisedName(analysis, holder)) !== undefined)) {
    return { store: i, resource: i + 3, keyOrdinal };
  }
  const owner = i + 3 < chain.length ? hopName(analysis, chain[i + 3]!.ordinal) : undefined;
  return { store: i, resource: -1, keyOrdinal, ...(owner ? { inferredOwner: owner } : {}) };
}

/** In a frame's table [key0, value0, key1, value1, …], the key stored just before the value edge. */
function findKeyBefore(analysis: HeapAnalysis, table: number, valueEdge: number): number {
  const graph = analysis.graph;
  const index = Number(graph.edgeNameOf(valueEdge)) - 1;
  if (!Number.isInteger(index) || index < 0) return -1;
  for (let e = graph.firstEdge[table]!, end = graph.firstEdge[table + 1]!; e < end; e++) {
    if (graph.edgeNameOf(e) === String(index)) return graph.edgeTarget[e]!;
  }
  return -1;
}

function storeLabels(analysis: HeapAnalysis, chain: Chain, m: StoreMatch, labels: (HopLabel | undefined)[]): void {
  const graph = analysis.graph;
  const key = m.keyOrdinal >= 0 && hopName(analysis, m.keyOrdinal) === ASYNC_CONTEXT_EDGES.storageClass
    ? ` of AsyncLocalStorage @${graph.nodeId[m.keyOrdinal]}`
    : '';
  if (m.resource < 0) {
    const owner = m.inferredOwner ? `; likely owner: ${m.inferredOwner} (inferred: only a global handle holds the context)` : '';
    labels[m.store] = { kind: 'async-context', text: `AsyncLocalStorage store${key}, captured by an async resource${owner}`, ...(m.inferredOwner ? { inferred: true } : {}) };
    return;
  }
  const resource = chain[m.resource]!.ordinal;
  const name = recognisedName(analysis, resource);
  const kind = resourceKind(name) ?? name;
  const timer = name === 'Timeout' ? describeTimer(analysis, resource) : undefined;
  labels[m.store] = {
    kind: 'async-context',
    text: `AsyncLocalStorage store${key}, captured by ${article(kind)} ${kind} (${name} @${graph.nodeId[resource]})${timer ? `: ${timer}` : ''}`,
    short: 'AsyncLocalStorage store',
  };
  labels[m.resource] = {
    kind: 'async-resource',
    text: `${kind} created inside an AsyncLocalStorage context: it keeps that request's store alive as long as it lives${timer ? ` (${timer})` : ''}`,
    // Folded chains name the hop and what it did; what the timer runs is in the full chain (`text`).
    short: 'captured the store',
  };
}

/** "an" before a vowel sound (an AsyncResource, an HTTP/2 session), else "a". */
export function article(word: string): 'a' | 'an' {
  return /^([aeiou]|HTTP)/i.test(word) && !/^(u[bcfhjkqrstn][aeiou]|one)/i.test(word) ? 'an' : 'a';
}

/** One label per hop at most (undefined where nothing is recognised), in chain order. */
export function labelChain(analysis: HeapAnalysis, chain: Chain): (HopLabel | undefined)[] {
  const graph = analysis.graph;
  const labels: (HopLabel | undefined)[] = new Array(chain.length).fill(undefined);
  const top = chain.length - 1;
  if (top >= 0 && chain[top]!.ordinal !== graph.rootOrdinal) {
    const native = graph.nodeType[chain[top]!.ordinal] === graph.nodeTypes.native;
    labels[top] = { kind: 'no-root', text: native ? NO_ROOT_HOLDER.native : NO_ROOT_HOLDER.other };
  }
  for (let i = 0; i < chain.length; i++) {
    if (labels[i]) continue;
    const m = matchStore(analysis, chain, i);
    if (m) storeLabels(analysis, chain, m, labels);
  }
  let transient: ReadonlySet<number> | undefined;
  for (let i = 0; i < chain.length; i++) {
    if (labels[i]) continue;
    const { ordinal, edge } = chain[i]!;
    const t = graph.nodeType[ordinal];
    const name = recognisedName(analysis, ordinal);
    const pending = PENDING_WORK.find((p) => p.className.test(name));
    if (pending) {
      labels[i] = { kind: 'pending-work', text: pending.text };
      continue;
    }
    if (t === graph.nodeTypes.native || t === graph.nodeTypes.synthetic) {
      const isTransient = t === graph.nodeTypes.synthetic && (transient ??= findTransientRoots(graph)).has(ordinal);
      const native = NATIVE_HOLDERS.find((h) => (h.kind === 'transient-root') === isTransient && h.name.test(name));
      if (native) labels[i] = { kind: native.kind ?? 'native', text: native.text };
      continue;
    }
    const framework = FRAMEWORK_OBJECTS.find((f) => f.className.test(name));
    if (framework) {
      labels[i] = { kind: 'framework', text: framework.text };
      continue;
    }
    const viaEdge = FRAMEWORK_EDGES.find((f) => f.name.test(edgeName(analysis, edge)));
    if (viaEdge) labels[i] = { kind: 'framework', text: viaEdge.text };
    else if (t === graph.nodeTypes.closure && i === 0) labels[i] = { kind: 'function', text: describeFunction(analysis, ordinal) };
  }
  return labels;
}
