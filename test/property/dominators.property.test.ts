// Dominators, retained sizes and the essential-edge mask on seeded random graphs (cycles, weak edges,
// self edges, shortcut edges, WeakMap pairs, unreachable islands) against brute force:
//   d dominates v  ⇔  v cannot be reached from the root over essential edges once d is removed,
// over the graph DevTools uses: the essential edges plus a virtual root edge to every node that has no
// essential retainer; nodes that even that cannot reach are dominated by the root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphBuilder, type EdgeTypeName, type NodeTypeName } from '../helpers/graph-builder.js';
import {
  analyzeHeap, computeDominators, computeDominatorsInOrder, computeEssentialEdgeMask, computeRetainedSizes, EDGE_RETAINS,
} from '../../src/analysis/index.js';

const SEEDS = 600;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Edge { from: number; to: number; type: EdgeTypeName; name: string | number; tableOf?: number }

interface RandomGraph { builder: GraphBuilder; n: number; edges: Edge[]; sizes: number[]; types: NodeTypeName[] }

function randomGraph(seed: number): RandomGraph {
  const rnd = mulberry32(seed);
  const int = (k: number) => Math.floor(rnd() * k);
  const n = 2 + int(24);
  const builder = new GraphBuilder();
  const types: NodeTypeName[] = ['synthetic'];
  const sizes = [0];
  builder.node('synthetic', '', 0);
  for (let i = 1; i < n; i++) {
    const r = rnd();
    const type: NodeTypeName = r < 0.1 ? 'synthetic' : r < 0.2 ? 'hidden' : r < 0.3 ? 'array' : 'object';
    const size = rnd() < 0.1 ? 2 ** 32 + int(1000) : int(100);
    types.push(type);
    sizes.push(size);
    builder.node(type, type === 'synthetic' ? `(S${i})` : `N${i}`, size);
  }
  const edges: Edge[] = [];
  const kinds: EdgeTypeName[] = ['property', 'property', 'element', 'internal', 'hidden', 'context', 'shortcut', 'weak', 'weak'];
  const m = int(n * 3);
  for (let k = 0; k < m; k++) {
    const from = rnd() < 0.15 ? 0 : int(n);
    const to = rnd() < 0.05 ? from : int(n);
    const type = kinds[int(kinds.length)]!;
    edges.push({ from, to, type, name: type === 'element' || type === 'hidden' ? k : `e${k}` });
  }
  // WeakMap pairs: key → value and table → value, named as V8 names them.
  for (let k = int(3); k > 0; k--) {
    const key = int(n);
    const table = int(n);
    const value = int(n);
    const pair = ` / part of key (K @${builder.idOf(key)}) -> value (V @${builder.idOf(value)}) pair in WeakMap (table @${builder.idOf(table)})`;
    edges.push({ from: key, to: value, type: 'internal', name: `${int(9) + 1}${pair}`, tableOf: table });
    edges.push({ from: table, to: value, type: 'internal', name: `${int(9) + 10}${pair}`, tableOf: table });
  }
  // The builder keeps edges grouped by source in insertion order; the oracle needs only the set.
  for (const e of edges) builder.edge(e.from, e.to, e.type, e.name);
  return { builder, n, edges, sizes, types };
}

/** The essential-edge rule written out naively, per edge, from the edge list. */
function oracleEssential(g: RandomGraph): boolean[] {
  const owned = new Array<boolean>(g.n).fill(false);
  const stack: number[] = [];
  for (const e of g.edges) if (e.from === 0 && e.type === 'shortcut' && !owned[e.to]) { owned[e.to] = true; stack.push(e.to); }
  while (stack.length) {
    const v = stack.pop()!;
    for (const e of g.edges) if (e.from === v && e.type !== 'weak' && !owned[e.to]) { owned[e.to] = true; stack.push(e.to); }
  }
  return g.edges.map((e) => {
    if (e.type === 'weak' || e.from === e.to) return false;
    if (e.tableOf !== undefined && e.from === e.tableOf) return false;
    if (e.from !== 0 && (e.type === 'shortcut' || (owned[e.to] && !owned[e.from]))) return false;
    return true;
  });
}

function bruteForce(g: RandomGraph, essential: boolean[], sizes = g.sizes): { idom: number[]; retained: number[] } {
  const n = g.n;
  const succ: number[][] = Array.from({ length: n }, () => []);
  const hasRetainer = new Array<boolean>(n).fill(false);
  g.edges.forEach((e, i) => {
    if (!essential[i]) return;
    succ[e.from]!.push(e.to);
    hasRetainer[e.to] = true;
  });
  for (let v = 1; v < n; v++) if (!hasRetainer[v]) succ[0]!.push(v);
  const reach = (removed: number): boolean[] => {
    const seen = new Array<boolean>(n).fill(false);
    if (removed === 0) return seen;
    seen[0] = true;
    const queue = [0];
    while (queue.length) for (const w of succ[queue.shift()!]!) if (w !== removed && !seen[w]) { seen[w] = true; queue.push(w); }
    return seen;
  };
  const all = reach(-1);
  const without = Array.from({ length: n }, (_, d) => reach(d));
  const doms = (v: number): number[] => [...Array(n).keys()].filter((d) => d === v || (all[v] && !without[d]![v]));
  const idom = [...Array(n).keys()].map((v) => {
    if (v === 0 || !all[v]) return 0;
    const strict = doms(v).filter((d) => d !== v);
    return strict.reduce((best, d) => (doms(d).length > doms(best).length ? d : best));
  });
  const retained = [...Array(n).keys()].map((d) => {
    if (d === 0) return sizes.reduce((a, b) => a + b, 0);
    let sum = 0;
    for (let v = 0; v < n; v++) if (v === d || (all[v] && all[d] && !without[d]![v])) sum += sizes[v]!;
    return sum;
  });
  return { idom, retained };
}

test(`dominators and retained sizes match brute force on ${SEEDS} random graphs`, () => {
  for (let seed = 1; seed <= SEEDS; seed++) {
    const g = randomGraph(seed);
    const graph = g.builder.toGraph();
    const mask = computeEssentialEdgeMask(graph);
    // Map the builder's insertion-ordered edges to the graph's source-grouped edge indexes.
    const order: number[] = [];
    for (let v = 0; v < g.n; v++) g.edges.forEach((e, i) => { if (e.from === v) order.push(i); });
    const essential = oracleEssential(g);
    order.forEach((i, k) => {
      assert.equal((mask[k]! & EDGE_RETAINS) !== 0, essential[i], `seed ${seed}: edge ${JSON.stringify(g.edges[i])}`);
    });
    const expected = bruteForce(g, essential);
    const dominators = computeDominators(graph, mask);
    assert.deepEqual([...dominators], expected.idom, `seed ${seed}: dominators`);
    const retained = computeRetainedSizes(graph, dominators);
    assert.deepEqual([...retained], expected.retained, `seed ${seed}: retained sizes`);
    // The order retained sizes are folded along: every node once, the root first, each after its dominator.
    const inOrder = computeDominatorsInOrder(graph, mask);
    assert.deepEqual([...inOrder.dominators], expected.idom, `seed ${seed}: dominators (in order)`);
    const position = new Array<number>(g.n).fill(-1);
    inOrder.order.forEach((n, k) => { position[n] = k; });
    assert.equal(inOrder.order.length, g.n, `seed ${seed}: order length`);
    assert.ok(position.every((k) => k >= 0), `seed ${seed}: every node in the order`);
    assert.equal(inOrder.order[0], graph.rootOrdinal, `seed ${seed}: the root first`);
    for (let v = 0; v < g.n; v++) {
      if (v !== graph.rootOrdinal) assert.ok(position[expected.idom[v]!]! < position[v]!, `seed ${seed}: node ${v} after its dominator`);
    }
    // The same through HeapAnalysis, whose phases share and recycle buffers, on DevTools self sizes.
    const analysis = analyzeHeap(graph);
    assert.deepEqual([...analysis.dominators], expected.idom, `seed ${seed}: analyzeHeap dominators`);
    const adjusted = bruteForce(g, essential, [...analysis.selfSizes]).retained;
    assert.deepEqual([...analysis.retainedSizes], adjusted, `seed ${seed}: analyzeHeap retained sizes`);
  }
});
