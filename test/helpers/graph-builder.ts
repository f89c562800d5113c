// A tiny heap-graph builder for tests: nodes and edges by hand, out as the real `.heapsnapshot` format
// (V8's meta, `to_node` = ordinal × node field count, strings table, empty trace sections) or straight
// to a HeapGraph, so analysis tests need no parser and parser tests can compare against the same graph.
//
//   const b = new GraphBuilder();
//   const root = b.node('synthetic', '', 0);
//   const a = b.node('object', 'Foo', 100);
//   b.edge(root, a, 'shortcut', '1');
//   b.toGraph(); b.toJSON(); b.writeFile(path);
//
// Node ids default to 1, 3, 5, ... (V8 gives JS objects odd ids); self sizes are plain numbers, so sizes
// above 2^32 are fine. `element` and `hidden` edges take a numeric index, every other type a name.

import { writeFileSync } from 'node:fs';
import { HeapGraph } from '../../src/snapshot/heap-graph.js';
import { StringTable } from '../../src/snapshot/string-table.js';

export const V8_NODE_TYPES = [
  'hidden', 'array', 'string', 'object', 'code', 'closure', 'regexp', 'number', 'native', 'synthetic',
  'concatenated string', 'sliced string', 'symbol', 'bigint', 'object shape',
] as const;
export const V8_EDGE_TYPES = ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'] as const;
export const NODE_FIELDS = ['type', 'name', 'id', 'self_size', 'edge_count', 'trace_node_id', 'detachedness'] as const;
export const EDGE_FIELDS = ['type', 'name_or_index', 'to_node'] as const;
export const LOCATION_FIELDS = ['object_index', 'script_id', 'line', 'column'] as const;

export type NodeTypeName = (typeof V8_NODE_TYPES)[number];
export type EdgeTypeName = (typeof V8_EDGE_TYPES)[number];

export interface NodeOptions {
  readonly id?: number;
  readonly traceNodeId?: number;
  /** 0 unknown, 1 attached, 2 detached. */
  readonly detachedness?: number;
}

interface NodeRecord {
  type: number; name: number; id: number; selfSize: number; traceNodeId: number; detachedness: number;
  edges: { type: number; nameOrIndex: number; to: number }[];
}

export class GraphBuilder {
  readonly #nodes: NodeRecord[] = [];
  readonly #strings: string[] = [];
  readonly #stringIndex = new Map<string, number>();
  readonly #locations: number[] = [];
  readonly #rootOrdinal: number;
  #nextId = 1;
  #edgeCount = 0;

  constructor(options: { rootOrdinal?: number } = {}) {
    this.#rootOrdinal = options.rootOrdinal ?? 0;
    this.string('<dummy>');
  }

  get nodeCount(): number {
    return this.#nodes.length;
  }

  get edgeCount(): number {
    return this.#edgeCount;
  }

  /** Interns a string; returns its index in the strings table. */
  string(s: string): number {
    let i = this.#stringIndex.get(s);
    if (i === undefined) {
      i = this.#strings.push(s) - 1;
      this.#stringIndex.set(s, i);
    }
    return i;
  }

  /** Adds a node; returns its ordinal. */
  node(type: NodeTypeName, name: string, selfSize: number, options: NodeOptions = {}): number {
    const t = V8_NODE_TYPES.indexOf(type);
    if (t < 0) throw new Error(`unknown node type ${type}`);
    const id = options.id ?? this.#nextId;
    this.#nextId = Math.max(this.#nextId, id) + 2;
    this.#nodes.push({
      type: t, name: this.string(name), id, selfSize,
      traceNodeId: options.traceNodeId ?? 0, detachedness: options.detachedness ?? 0, edges: [],
    });
    return this.#nodes.length - 1;
  }

  /** Adds an edge from → to. Edges of one node keep the order they were added in. */
  edge(from: number, to: number, type: EdgeTypeName, nameOrIndex: string | number): this {
    const t = V8_EDGE_TYPES.indexOf(type);
    if (t < 0) throw new Error(`unknown edge type ${type}`);
    if (this.#nodes[from] === undefined || this.#nodes[to] === undefined) throw new Error(`no node ${from} or ${to}`);
    const indexed = type === 'element' || type === 'hidden';
    let v: number;
    if (indexed) {
      v = typeof nameOrIndex === 'number' ? nameOrIndex : Number(nameOrIndex);
      if (!Number.isInteger(v) || v < 0) throw new Error(`${type} edge needs a numeric index, got ${nameOrIndex}`);
    } else {
      v = this.string(String(nameOrIndex));
    }
    this.#nodes[from]!.edges.push({ type: t, nameOrIndex: v, to });
    this.#edgeCount++;
    return this;
  }

  /** Records a source location for a node (the snapshot's `locations` section). */
  location(ordinal: number, scriptId: number, line: number, column: number): this {
    this.#locations.push(ordinal * NODE_FIELDS.length, scriptId, line, column);
    return this;
  }

  idOf(ordinal: number): number {
    return this.#nodes[ordinal]!.id;
  }

  meta(): Record<string, unknown> {
    return {
      node_fields: [...NODE_FIELDS],
      node_types: [[...V8_NODE_TYPES], 'string', 'number', 'number', 'number', 'number', 'number'],
      edge_fields: [...EDGE_FIELDS],
      edge_types: [[...V8_EDGE_TYPES], 'string_or_number', 'node'],
      trace_function_info_fields: ['function_id', 'name', 'script_name', 'script_id', 'line', 'column'],
      trace_node_fields: ['id', 'function_info_index', 'count', 'size', 'children'],
      sample_fields: ['timestamp_us', 'last_assigned_id'],
      location_fields: [...LOCATION_FIELDS],
    };
  }

  /** The snapshot as V8 writes it: one node or edge per line, strings one per line. */
  toJSON(): string {
    const snapshot: Record<string, unknown> = {
      meta: this.meta(), node_count: this.#nodes.length, edge_count: this.#edgeCount, trace_function_count: 0,
    };
    if (this.#rootOrdinal !== 0) snapshot['root_index'] = this.#rootOrdinal * NODE_FIELDS.length;
    const nodes = this.#nodes.map((n) =>
      [n.type, n.name, n.id, n.selfSize, n.edges.length, n.traceNodeId, n.detachedness].join(','));
    const edges: string[] = [];
    for (const n of this.#nodes) {
      for (const e of n.edges) edges.push(`${e.type},${e.nameOrIndex},${e.to * NODE_FIELDS.length}`);
    }
    const locations: string[] = [];
    for (let i = 0; i < this.#locations.length; i += 4) locations.push(this.#locations.slice(i, i + 4).join(','));
    return `{"snapshot":${JSON.stringify(snapshot)},\n` +
      `"nodes":[${nodes.join('\n,')}],\n` +
      `"edges":[${edges.join('\n,')}],\n` +
      `"trace_function_infos":[],\n"trace_tree":[],\n"samples":[],\n` +
      `"locations":[${locations.join('\n,')}],\n` +
      `"strings":[${this.#strings.map((s) => JSON.stringify(s)).join(',\n')}]}\n`;
  }

  writeFile(path: string): void {
    writeFileSync(path, this.toJSON());
  }

  /** The same graph as a HeapGraph, built directly from arrays (no parser involved). */
  toGraph(): HeapGraph {
    const n = this.#nodes.length;
    const e = this.#edgeCount;
    const nodeType = new Uint8Array(n);
    const nodeName = new Uint32Array(n);
    const nodeId = new Uint32Array(n);
    const nodeSelfSize = new Float64Array(n);
    const nodeTraceId = new Uint32Array(n);
    const nodeDetachedness = new Uint8Array(n);
    const firstEdge = new Uint32Array(n + 1);
    const edgeType = new Uint8Array(e);
    const edgeNameOrIndex = new Uint32Array(e);
    const edgeTarget = new Uint32Array(e);
    let k = 0;
    this.#nodes.forEach((node, i) => {
      nodeType[i] = node.type;
      nodeName[i] = node.name;
      nodeId[i] = node.id;
      nodeSelfSize[i] = node.selfSize;
      nodeTraceId[i] = node.traceNodeId;
      nodeDetachedness[i] = node.detachedness;
      firstEdge[i] = k;
      for (const edge of node.edges) {
        edgeType[k] = edge.type;
        edgeNameOrIndex[k] = edge.nameOrIndex;
        edgeTarget[k] = edge.to;
        k++;
      }
    });
    firstEdge[n] = k;
    return new HeapGraph({
      nodeTypeNames: [...V8_NODE_TYPES], edgeTypeNames: [...V8_EDGE_TYPES],
      nodeType, nodeName, nodeId, nodeSelfSize, firstEdge, nodeDetachedness, nodeTraceId,
      edgeType, edgeNameOrIndex, edgeTarget,
      strings: StringTable.fromArray(this.#strings),
      rootOrdinal: this.#rootOrdinal,
      extras: {
        meta: this.meta(),
        ...(this.#locations.length > 0 ? { locations: Uint32Array.from(this.#locations) } : {}),
      },
    });
  }
}

/** The top of every V8 heap: the root, `(GC roots)` with `(Global handles)` under it, and `global` (a root shortcut). */
export interface World {
  readonly b: GraphBuilder;
  readonly root: number;
  readonly global: number;
  readonly gcRoots: number;
  readonly globalHandles: number;
}

export function world(): World {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const gcRoots = b.node('synthetic', '(GC roots)', 0);
  const global = b.node('object', 'global', 64);
  const globalHandles = b.node('synthetic', '(Global handles)', 0);
  b.edge(root, gcRoots, 'element', 1);
  b.edge(root, global, 'shortcut', 'global');
  b.edge(gcRoots, globalHandles, 'element', 1);
  return { b, root, global, gcRoots, globalHandles };
}
