// Differential test of the streaming parser against heapsnapshot-parser (the test oracle: it JSON.parses
// the whole file and makes an object per node and edge), on real snapshots: fixture programs under Node
// 20, 22 and 24, taken now, and the stored Chrome-written one. Every node (type, name, id, self size, edge
// count, detachedness, trace node id), every edge (owner, type, name or index, target), every string and
// the optional sections must agree. Mismatches are listed (first 20, with counts per field), not just counted.
//
// Oracle quirk, worked around: heapsnapshot-parser looks every edge's `name_or_index` up in the strings
// table, element and hidden indexes too, so for those it reports `strings[index]`. For them we compare our
// index with the raw number of the JSON the oracle was built from (and check the oracle's string as well).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseSnapshotFile } from '../../src/snapshot/parse.js';
import type { HeapGraph } from '../../src/snapshot/heap-graph.js';
import { requireNodeBinary, type NodeMajor } from '../helpers/node-binaries.js';
import { removeSnapshots, storedSnapshot, takeSnapshot } from '../helpers/take-snapshot.js';

interface OracleNode {
  type: string; name: string; id: number; self_size: number; edge_count: number;
  detachedness?: number; trace_node_id?: number;
}
interface OracleEdge { type: string; name_or_index: string | undefined; toNodeIndex: number; fromNode: OracleNode }
interface Oracle { nodes: OracleNode[]; edges: OracleEdge[] }
interface RawSnapshot {
  snapshot: { meta: Record<string, unknown> & { node_fields: string[]; edge_fields: string[] }; root_index?: number };
  nodes: number[]; edges: number[]; strings: string[];
  locations?: number[]; samples?: number[]; trace_function_infos?: number[]; trace_tree?: unknown;
}

const heapsnapshotParser = createRequire(import.meta.url)('heapsnapshot-parser') as {
  parse(snapshot: unknown): Oracle;
};

const MAX_LISTED = 20;
/** An odd read size, so that tokens and escapes are cut across chunk boundaries many times. */
const ODD_CHUNK_BYTES = 65_521;

class Mismatches {
  readonly listed: string[] = [];
  readonly byField = new Map<string, number>();
  add(field: string, where: string, expected: unknown, got: unknown): void {
    this.byField.set(field, (this.byField.get(field) ?? 0) + 1);
    if (this.listed.length < MAX_LISTED) {
      this.listed.push(`${where}: ${field} expected ${show(expected)}, got ${show(got)}`);
    }
  }
  check(field: string, where: () => string, expected: unknown, got: unknown): void {
    if (!Object.is(expected, got)) this.add(field, where(), expected, got);
  }
  assertNone(label: string): void {
    if (this.byField.size === 0) return;
    const counts = [...this.byField].map(([f, n]) => `${f}: ${n}`).join(', ');
    assert.fail(`${label}: parser differs from heapsnapshot-parser (${counts})\n  ${this.listed.join('\n  ')}`);
  }
}

function show(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : String(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

async function compareWithOracle(path: string, label: string): Promise<string> {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as RawSnapshot;
  const rawEdges = raw.edges; // the oracle reads these arrays and leaves them as they are
  const oracle = heapsnapshotParser.parse(raw);
  // Two threads (edges on the worker), as production-size files are read; parser-threads.test.ts
  // checks one thread gives the same graph, parser-chunks.test.ts checks one thread on its own.
  const graph = await parseSnapshotFile(path, { chunkBytes: ODD_CHUNK_BYTES, threads: 2 });
  assert.ok(graph.edgeTarget.buffer instanceof SharedArrayBuffer, `${label}: the edges worker parsed the edges`);
  const m = new Mismatches();

  assert.equal(graph.nodeCount, oracle.nodes.length, `${label}: node count`);
  assert.equal(graph.edgeCount, oracle.edges.length, `${label}: edge count`);
  compareNodes(graph, oracle, m);
  compareEdges(graph, oracle, raw, rawEdges, m);
  compareStrings(graph, raw, m);
  compareSections(graph, raw, m);
  m.assertNone(label);
  return `${graph.nodeCount} nodes, ${graph.edgeCount} edges, ${graph.strings.count} strings`;
}

function compareNodes(graph: HeapGraph, oracle: Oracle, m: Mismatches): void {
  const { nodeId, nodeSelfSize, firstEdge, nodeDetachedness, nodeTraceId } = graph;
  for (let n = 0; n < graph.nodeCount; n++) {
    const o = oracle.nodes[n]!;
    const where = () => `node #${n} (@${o.id} ${o.type} ${show(o.name)})`;
    m.check('node type', where, o.type, graph.nodeTypeNameOf(n));
    m.check('node name', where, o.name, graph.nodeNameOf(n));
    m.check('node id', where, o.id, nodeId[n]);
    m.check('node self_size', where, o.self_size, nodeSelfSize[n]);
    m.check('node edge_count', where, o.edge_count, firstEdge[n + 1]! - firstEdge[n]!);
    if (o.detachedness !== undefined) m.check('node detachedness', where, o.detachedness, nodeDetachedness?.[n]);
    if (o.trace_node_id !== undefined) m.check('node trace_node_id', where, o.trace_node_id, nodeTraceId?.[n]);
  }
}

function compareEdges(graph: HeapGraph, oracle: Oracle, raw: RawSnapshot, rawEdges: number[], m: Mismatches): void {
  const fields = raw.snapshot.meta.edge_fields;
  const width = fields.length;
  const nameAt = fields.indexOf('name_or_index');
  const { firstEdge, edgeNameOrIndex, edgeTarget } = graph;
  const { element, hidden } = graph.edgeTypes;
  let owner = 0;
  for (let e = 0; e < graph.edgeCount; e++) {
    while (owner < graph.nodeCount && firstEdge[owner + 1]! <= e) owner++;
    const o = oracle.edges[e]!;
    const where = () => `edge #${e} (${o.fromNode.type} ${show(o.fromNode.name)} @${o.fromNode.id} --${o.type} ` +
      `${show(o.name_or_index)}--> node #${o.toNodeIndex})`;
    m.check('edge owner id', where, o.fromNode.id, graph.nodeId[owner]);
    m.check('edge type', where, o.type, graph.edgeTypeNameOf(e));
    m.check('edge target', where, o.toNodeIndex, edgeTarget[e]);
    const t = graph.edgeType[e];
    if (t === element || t === hidden) {
      m.check('edge index', where, rawEdges[e * width + nameAt], edgeNameOrIndex[e]);
      m.check('edge index (as the oracle names it)', where, o.name_or_index, raw.strings[edgeNameOrIndex[e]!]);
    } else {
      m.check('edge name', where, o.name_or_index, graph.edgeNameOf(e));
    }
  }
}

function compareStrings(graph: HeapGraph, raw: RawSnapshot, m: Mismatches): void {
  m.check('strings count', () => 'strings', raw.strings.length, graph.strings.count);
  const count = Math.min(raw.strings.length, graph.strings.count);
  for (let i = 0; i < count; i++) {
    m.check('string', () => `strings[${i}]`, raw.strings[i], graph.strings.get(i));
  }
}

/** Optional sections, compared with the JSON they came from (the oracle drops them). */
function compareSections(graph: HeapGraph, raw: RawSnapshot, m: Mismatches): void {
  const extras = graph.extras;
  m.check('meta', () => 'snapshot.meta', JSON.stringify(raw.snapshot.meta), JSON.stringify(extras.meta));
  const rootIndex = raw.snapshot.root_index;
  if (rootIndex !== undefined) {
    m.check('root ordinal', () => 'snapshot.root_index', rootIndex / raw.snapshot.meta.node_fields.length, graph.rootOrdinal);
  }
  const numeric: [string, number[] | undefined, Float64Array | Uint32Array | undefined][] = [
    ['locations', raw.locations, extras.locations],
    ['samples', raw.samples, extras.samples],
    ['trace_function_infos', raw.trace_function_infos, extras.traceFunctionInfos],
  ];
  for (const [name, expected, got] of numeric) {
    if (expected === undefined || (expected.length === 0 && got === undefined)) continue;
    m.check(`${name} length`, () => name, expected.length, got?.length);
    const count = Math.min(expected.length, got?.length ?? 0);
    for (let i = 0; i < count; i++) m.check(name, () => `${name}[${i}]`, expected[i], got![i]);
  }
  if (raw.trace_tree !== undefined && !(Array.isArray(raw.trace_tree) && raw.trace_tree.length === 0 && extras.traceTree === undefined)) {
    m.check('trace_tree', () => 'trace_tree', JSON.stringify(raw.trace_tree), JSON.stringify(extras.traceTree));
  }
}

const FIXTURES = ['control', 'map-cache'] as const;
const MAJORS: NodeMajor[] = [20, 22, 24];

for (const fixture of FIXTURES) {
  for (const major of MAJORS) {
    test(`${fixture}.cjs under Node ${major}: parser equals heapsnapshot-parser`, { timeout: 120_000 }, async (t) => {
      const info = requireNodeBinary(major);
      const path = await takeSnapshot(fixture, { node: major, requests: 200 });
      try {
        t.diagnostic(`${info.version}: ${await compareWithOracle(path, `${fixture} ${info.version}`)}`);
      } finally {
        removeSnapshots([path]);
      }
    });
  }
}

test('Chrome-written snapshot (fixtures/snapshots/chrome-blank): parser equals heapsnapshot-parser', { timeout: 120_000 }, async (t) => {
  const path = storedSnapshot('chrome-blank.heapsnapshot.gz');
  try {
    t.diagnostic(await compareWithOracle(path, 'chrome-blank'));
  } finally {
    removeSnapshots([path]);
  }
});

test('hand-written edge cases (fixtures/snapshots/strings-and-sizes): escapes, surrogates, long strings, sizes > 2^32', async (t) => {
  const path = storedSnapshot('strings-and-sizes.heapsnapshot');
  try {
    t.diagnostic(await compareWithOracle(path, 'strings-and-sizes'));
  } finally {
    removeSnapshots([path]);
  }
});
