// The fuzzer's seed inputs: a real V8 snapshot of a fixture program, taken at the start of the run
// (never committed), cut down to small real-format subgraphs so that thousands of cases parse in
// seconds, plus the hand-made sample graph (sizes over 2^32, escapes, a long string). The cut is done
// with JSON.parse over the real file, independently of leakhunt's parser, and keeps V8's meta, field
// order and line layout; only the counts, indexes and string table are renumbered.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveFixture } from '../take-snapshot.js';
import { buildSampleGraph } from '../sample-graphs.js';

export interface BaseSnapshot {
  readonly name: string;
  readonly bytes: Buffer;
}

/**
 * Writes a real snapshot of `fixture` after `requests` requests into `dir` (fixtures/README.md, way 2:
 * no IPC) and returns its path.
 */
export function writeFixtureSnapshot(dir: string, fixture = 'map-cache', requests = 30): string {
  const path = join(dir, `${fixture}-base.heapsnapshot`);
  const r = spawnSync(process.execPath, [resolveFixture(fixture)], {
    env: { PATH: process.env['PATH'] ?? '', LEAKHUNT_SNAPSHOT_AFTER: String(requests), LEAKHUNT_SNAPSHOT_PATH: path },
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`fixture ${fixture} did not write a snapshot (exit ${r.status}): ${r.stderr}`);
  return path;
}

/** The bases a fuzz run mutates: `real` cut to a few sizes, and the sample graph. */
export function loadBases(realPath: string): { small: BaseSnapshot[]; full: BaseSnapshot } {
  const bytes = readFileSync(realPath);
  const real = JSON.parse(bytes.toString('utf8')) as V8Snapshot;
  return {
    small: [
      { name: 'real-300', bytes: Buffer.from(shrinkSnapshot(real, 300)) },
      { name: 'real-2000', bytes: Buffer.from(shrinkSnapshot(real, 2000)) },
      { name: 'sample', bytes: Buffer.from(buildSampleGraph().toJSON()) },
    ],
    full: { name: 'real-full', bytes },
  };
}

interface V8Snapshot {
  snapshot: { meta: Record<string, unknown>; node_count: number; edge_count: number; root_index?: number } & Record<string, unknown>;
  nodes: number[];
  edges: number[];
  strings: string[];
  locations?: number[];
  [key: string]: unknown;
}

/**
 * The first `keep` nodes in breadth-first order from the root with the edges among them, as a
 * snapshot in V8's layout (one node, edge, location or string a line). The root stays ordinal 0.
 */
export function shrinkSnapshot(s: V8Snapshot, keep: number): string {
  const meta = s.snapshot.meta as { node_fields: string[]; edge_fields: string[]; edge_types: unknown[]; location_fields?: string[] };
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const nodeCount = s.snapshot.node_count;
  const ecAt = meta.node_fields.indexOf('edge_count');
  const nameAt = meta.node_fields.indexOf('name');
  const eType = meta.edge_fields.indexOf('type');
  const eName = meta.edge_fields.indexOf('name_or_index');
  const eTo = meta.edge_fields.indexOf('to_node');
  const edgeTypes = meta.edge_types[eType] as string[];
  const indexed = new Set([edgeTypes.indexOf('element'), edgeTypes.indexOf('hidden')]);
  const first = new Uint32Array(nodeCount + 1);
  for (let n = 0; n < nodeCount; n++) first[n + 1] = first[n]! + s.nodes[n * nf + ecAt]!;
  const root = (s.snapshot.root_index ?? 0) / nf;
  const order: number[] = [root];
  const newOrdinal = new Map<number, number>([[root, 0]]);
  for (let k = 0; k < order.length && order.length < keep; k++) {
    const n = order[k]!;
    for (let e = first[n]!; e < first[n + 1]! && order.length < keep; e++) {
      const to = s.edges[e * ef + eTo]! / nf;
      if (!newOrdinal.has(to)) {
        newOrdinal.set(to, order.length);
        order.push(to);
      }
    }
  }
  const strings: string[] = [];
  const stringIndex = new Map<number, number>();
  const str = (i: number): number => {
    let j = stringIndex.get(i);
    if (j === undefined) {
      j = strings.push(s.strings[i]!) - 1;
      stringIndex.set(i, j);
    }
    return j;
  };
  const nodeLines: string[] = [];
  const edgeLines: string[] = [];
  for (const n of order) {
    const record = s.nodes.slice(n * nf, n * nf + nf);
    let edges = 0;
    for (let e = first[n]!; e < first[n + 1]!; e++) {
      const rec = s.edges.slice(e * ef, e * ef + ef);
      const to = newOrdinal.get(rec[eTo]! / nf);
      if (to === undefined) continue;
      rec[eTo] = to * nf;
      if (!indexed.has(rec[eType]!)) rec[eName] = str(rec[eName]!);
      edgeLines.push(rec.join(','));
      edges++;
    }
    record[nameAt] = str(record[nameAt]!);
    record[ecAt] = edges;
    nodeLines.push(record.join(','));
  }
  const locationLines: string[] = [];
  const lf = meta.location_fields?.length ?? 4;
  const locations = s.locations ?? [];
  for (let i = 0; i + lf <= locations.length; i += lf) {
    const at = newOrdinal.get(locations[i]! / nf);
    if (at !== undefined) locationLines.push([at * nf, ...locations.slice(i + 1, i + lf)].join(','));
  }
  const header = { ...s.snapshot, node_count: order.length, edge_count: edgeLines.length, root_index: 0, trace_function_count: 0 };
  if (s.snapshot.root_index === undefined) delete (header as Record<string, unknown>)['root_index'];
  return `{"snapshot":${JSON.stringify(header)},\n"nodes":[${nodeLines.join('\n,')}],\n"edges":[${edgeLines.join('\n,')}],\n`
    + `"trace_function_infos":[],\n"trace_tree":[],\n"samples":[],\n"locations":[${locationLines.join('\n,')}],\n`
    + `"strings":[${strings.map((t) => JSON.stringify(t)).join('\n,')}]}\n`;
}
