// Suspicious retention in a single snapshot (`leakhunt analyze`): with one snapshot nothing can be
// seen growing, but two patterns are rarely innocent in a long-lived service:
// - many AsyncLocalStorage stores kept alive by async resources (timers, sockets, AsyncResources)
//   that captured them: each is a finished request's context that cannot be collected;
// - many copies of objects a process needs a handful of (compiled graphs, tracers, clients).
// Each suspect comes with one representative, labelled chain and a fix. One snapshot cannot show growth:
// these are `suspect` findings, never a `leak` verdict. Counts are of distinct objects (a store several
// timers captured is one store) and sizes are of the union of what they retain (never above the heap).
// A few are normal in a healthy process (a client made lazily inside the first request, a pool of
// clients, the requests in flight at the moment): a suspect needs ModelParams.minSuspects stores, or
// minCopies copies of a framework object. What the turns in flight hold is weighed first (in-flight.ts):
// objects held only through armed one-shot timers due within a turn's time (each turn waiting on its own
// model call or timeout) go when those fire, and are not counted; what a repeating or far-out timer, or
// any other lasting holder, keeps is.

import type { ChainLabeler } from '../analysis/chain-description.js';
import { describeChain } from '../analysis/chain-description.js';
import type { HeapAnalysis } from '../analysis/heap-analysis.js';
import { chainSignature, hopName } from '../analysis/path-signatures.js';
import { RetainerPaths } from '../analysis/retainer-paths.js';
import { unionRetainedByGroup } from '../analysis/group-retained.js';
import type { Finding } from './finding.js';
import { fixFields, suggestFix } from './fixes.js';
import { ASYNC_CONTEXT_EDGES, FRAMEWORK_OBJECTS } from './recognisers.js';
import { findArmedTimers, heldBeyondInFlight } from './in-flight.js';
import { DEFAULT_MODEL, type ModelParams } from './model-params.js';

/** Store ordinals by (store class, holder class), each store captured by one of these holders. */
export type CapturedStores = ReadonlyMap<string, readonly number[]>;

/**
 * Store ordinals held by a resource through `<symbol kResourceStore>` or an AsyncContextFrame table:
 * the part of findSuspects that needs no dominators, one pass over the edges (run it while they are computed).
 */
export function findCapturedStores(analysis: HeapAnalysis): CapturedStores {
  const graph = analysis.graph;
  const { firstEdge, edgeTarget, edgeNameOrIndex, edgeType, nodeCount } = graph;
  const storeName = graph.strings.indexOf(ASYNC_CONTEXT_EDGES.resourceStore);
  const tableName = graph.strings.indexOf(ASYNC_CONTEXT_EDGES.frameTable);
  const groups = new Map<string, number[]>();
  const seen = new Set<number>();
  const add = (holder: number, store: number) => {
    // A store several resources captured is one store: counted under the first holder met.
    if (seen.has(store)) return;
    seen.add(store);
    const key = `${hopName(analysis, store)}\u0000${hopName(analysis, holder)}`;
    const list = groups.get(key);
    if (list) list.push(store);
    else groups.set(key, [store]);
  };
  const named = (e: number) => edgeType[e] !== graph.edgeTypes.element && edgeType[e] !== graph.edgeTypes.hidden;
  for (let n = 0; n < nodeCount; n++) {
    for (let e = firstEdge[n]!, end = firstEdge[n + 1]!; e < end; e++) {
      if (!named(e)) continue;
      const name = edgeNameOrIndex[e]!;
      if (name === storeName && storeName >= 0) {
        const store = edgeTarget[e]!;
        if (graph.nodeType[store] === graph.nodeTypes.object) add(n, store);
      } else if (name === tableName && tableName >= 0 && hopName(analysis, n) === ASYNC_CONTEXT_EDGES.frameClass) {
        // Frame table: … key, value, key, value …; a key is an AsyncLocalStorage, its store the next slot.
        const table = edgeTarget[e]!;
        const bySlot = new Map<string, number>();
        for (let t = firstEdge[table]!, tend = firstEdge[table + 1]!; t < tend; t++) bySlot.set(graph.edgeNameOf(t), edgeTarget[t]!);
        for (const [slot, key] of bySlot) {
          if (hopName(analysis, key) !== ASYNC_CONTEXT_EDGES.storageClass) continue;
          const store = bySlot.get(String(Number(slot) + 1));
          if (store !== undefined && graph.nodeType[store] === graph.nodeTypes.object) add(n, store);
        }
      }
    }
  }
  return groups;
}

/** Suspects, and how many members of would-be suspect groups only the turns in flight held (the largest group's). */
export interface Suspects {
  readonly findings: Finding[];
  readonly heldInFlight: number;
}

export function findSuspects(
  analysis: HeapAnalysis, labelChain?: ChainLabeler, capturedStores: CapturedStores = findCapturedStores(analysis),
  params: Pick<ModelParams, 'minSuspects' | 'minCopies' | 'inFlightMaxMs'> = DEFAULT_MODEL,
): Suspects {
  let heldInFlight = 0;
  const paths = new RetainerPaths(analysis);
  const retained = analysis.retainedSizes;
  const findings: Finding[] = [];
  const lasting = lastingFilter(analysis, params.inFlightMaxMs);
  for (const [key, stores] of capturedStores) {
    const held = stores.filter((s) => paths.isReachable(s));
    if (held.length < params.minSuspects) continue;
    const reachable = held.filter(lasting.keeps);
    heldInFlight = Math.max(heldInFlight, held.length - reachable.length);
    if (reachable.length < params.minSuspects) continue;
    const [storeClass, holderClass] = key.split('\u0000') as [string, string];
    const representative = reachable.reduce((a, b) => (retained[b]! > retained[a]! ? b : a));
    const path = paths.shortestPath(representative);
    const chain = describeChain(analysis, path, false, labelChain);
    findings.push({
      kind: 'suspect',
      className: storeClass,
      signature: chainSignature(analysis, path),
      count: reachable.length,
      perInterval: 0,
      retainedSize: unionRetained(analysis, reachable),
      chain,
      ...fixFields(suggestFix(storeClass, chain)),
      evidence: [`suspected from one snapshot: ${reachable.length} AsyncLocalStorage stores (${storeClass}) are kept alive by ${holderClass === ASYNC_CONTEXT_EDGES.frameClass ? 'async context frames' : `${holderClass} objects`} that captured them${inFlightNote(held.length - reachable.length, true, params.inFlightMaxMs)}`],
    });
  }
  const rows = analysis.classSummary();
  for (const few of FRAMEWORK_OBJECTS.filter((f) => f.few)) {
    for (const row of rows) {
      if (!few.className.test(row.name) || row.count < params.minCopies) continue;
      let representative = -1;
      const { classOf } = analysis.classIndex;
      const alive: number[] = [];
      for (let n = 0; n < classOf.length; n++) if (classOf[n] === row.classId && paths.isReachable(n)) alive.push(n);
      if (alive.length < params.minCopies) continue;
      const members = alive.filter(lasting.keeps);
      heldInFlight = Math.max(heldInFlight, alive.length - members.length);
      if (members.length < params.minCopies) continue;
      for (const n of members) if (representative < 0 || retained[n]! > retained[representative]!) representative = n;
      const path = representative >= 0 ? paths.shortestPath(representative) : [];
      const chain = describeChain(analysis, path, false, labelChain);
      findings.push({
        kind: 'suspect',
        className: row.name,
        signature: path.length ? chainSignature(analysis, path) : null,
        count: members.length,
        perInterval: 0,
        retainedSize: unionRetained(analysis, members),
        chain,
        ...fixFields(suggestFix(row.name, chain)),
        evidence: [`suspected from one snapshot: ${members.length} ${row.name} alive — a ${few.text} a process needs only a few of${inFlightNote(alive.length - members.length, true, params.inFlightMaxMs)}`],
      });
    }
  }
  return { findings: findings.sort((a, b) => b.retainedSize - a.retainedSize), heldInFlight };
}

/**
 * Whether a node is held beyond the turns in flight: computed once, on first use (only when some group
 * reaches its least count), and only when the heap has timers of turns in flight.
 */
function lastingFilter(analysis: HeapAnalysis, inFlightMaxMs: number): { readonly keeps: (ordinal: number) => boolean } {
  let held: Uint8Array | null | undefined;
  return {
    keeps: (ordinal) => {
      if (held === undefined) {
        const timers = findArmedTimers(analysis, inFlightMaxMs);
        held = timers && timers.inFlightCount > 0 ? heldBeyondInFlight(analysis, timers) : null;
      }
      return held === null || held[ordinal] === 1;
    },
  };
}

/**
 * What the evidence says of members only the turns in flight hold (none: nothing); `beside` when others
 * of the group were counted.
 */
export function inFlightNote(inFlight: number, beside = true, inFlightMaxMs = DEFAULT_MODEL.inFlightMaxMs): string {
  return inFlight > 0 ? ` (${inFlight}${beside ? ' more' : ''} held only by one-shot timers due within ${inFlightMaxMs / 60_000} min: turns in flight, not counted)` : '';
}

/** What a set of objects retains together (analysis/group-retained.ts): never above the heap. */
function unionRetained(analysis: HeapAnalysis, members: readonly number[]): number {
  const groupOf = new Int32Array(analysis.graph.nodeCount).fill(-1);
  for (const m of members) groupOf[m] = 0;
  return unionRetainedByGroup(analysis, groupOf, 1)[0]!;
}
