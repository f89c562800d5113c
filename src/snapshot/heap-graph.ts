// The heap graph: struct-of-arrays over node ordinals and edge indexes, immutable after parsing.
// Node *ordinals* (0..nodeCount-1) are what every API speaks; V8 ids (`nodeId`) are a separate
// thing, stable across snapshots of one process, and only used to match objects between snapshots.
// Field layout follows the snapshot's own `meta`, resolved once by the parser.

import type { StringTable } from './string-table.js';
import type { TraceNodes } from './trace-nodes.js';

/**
 * Sizes in bytes: Uint32 while every size fits (V8's self sizes always do in practice), Float64 when one
 * does not. Read them by index; never assume which.
 */
export type SizeArray = Uint32Array | Float64Array;

/**
 * Optional sections of a snapshot, kept as the file has them (flat numbers; the trace tree as parsed
 * JSON, parsed on first read: src/snapshot/trace-tree.ts, which throws SnapshotFormatError if it is not JSON).
 */
export interface SnapshotExtras {
  /** `snapshot.meta` exactly as written, for the field lists of the sections below. */
  readonly meta: Readonly<Record<string, unknown>>;
  readonly traceFunctionInfos?: Float64Array;
  readonly traceTree?: unknown;
  /** The trace tree as flat arrays (trace-nodes.ts), read on first use; absent without a trace tree. */
  readonly traceNodes?: TraceNodes;
  readonly samples?: Float64Array;
  /** object_index, script_id, line, column per entry (meta.location_fields): all 32-bit. */
  readonly locations?: Uint32Array;
}

export interface HeapGraphInit {
  readonly nodeTypeNames: readonly string[];
  readonly edgeTypeNames: readonly string[];
  readonly nodeType: Uint8Array;
  readonly nodeName: Uint32Array;
  readonly nodeId: Uint32Array;
  readonly nodeSelfSize: SizeArray;
  /** Length nodeCount + 1: edges of node n are firstEdge[n] .. firstEdge[n+1]-1. */
  readonly firstEdge: Uint32Array;
  readonly nodeDetachedness?: Uint8Array;
  readonly nodeTraceId?: Uint32Array;
  readonly edgeType: Uint8Array;
  /** String index for named edges; the element/hidden index for `element` and `hidden` edges. */
  readonly edgeNameOrIndex: Uint32Array;
  /** Target node ordinal (not the file's ordinal × field count). */
  readonly edgeTarget: Uint32Array;
  readonly strings: StringTable;
  readonly rootOrdinal?: number;
  readonly extras?: SnapshotExtras;
}

/** Type codes looked up by name once; -1 where the snapshot's meta lacks the type. */
export interface NodeTypeCodes {
  readonly hidden: number; readonly array: number; readonly string: number; readonly object: number;
  readonly code: number; readonly closure: number; readonly regexp: number; readonly number: number;
  readonly native: number; readonly synthetic: number; readonly concatenatedString: number;
  readonly slicedString: number; readonly symbol: number; readonly bigint: number;
  readonly objectShape: number;
}

export interface EdgeTypeCodes {
  readonly context: number; readonly element: number; readonly property: number;
  readonly internal: number; readonly hidden: number; readonly shortcut: number; readonly weak: number;
}

export class HeapGraph {
  readonly nodeCount: number;
  readonly edgeCount: number;
  readonly rootOrdinal: number;
  readonly nodeTypeNames: readonly string[];
  readonly edgeTypeNames: readonly string[];
  readonly nodeTypes: NodeTypeCodes;
  readonly edgeTypes: EdgeTypeCodes;
  readonly nodeType: Uint8Array;
  readonly nodeName: Uint32Array;
  readonly nodeId: Uint32Array;
  readonly nodeSelfSize: SizeArray;
  readonly firstEdge: Uint32Array;
  readonly nodeDetachedness: Uint8Array | undefined;
  readonly nodeTraceId: Uint32Array | undefined;
  readonly edgeType: Uint8Array;
  readonly edgeNameOrIndex: Uint32Array;
  readonly edgeTarget: Uint32Array;
  readonly strings: StringTable;
  readonly extras: SnapshotExtras;

  constructor(init: HeapGraphInit) {
    this.nodeCount = init.nodeType.length;
    this.edgeCount = init.edgeType.length;
    this.rootOrdinal = init.rootOrdinal ?? 0;
    this.nodeTypeNames = init.nodeTypeNames;
    this.edgeTypeNames = init.edgeTypeNames;
    this.nodeType = init.nodeType;
    this.nodeName = init.nodeName;
    this.nodeId = init.nodeId;
    this.nodeSelfSize = init.nodeSelfSize;
    this.firstEdge = init.firstEdge;
    this.nodeDetachedness = init.nodeDetachedness;
    this.nodeTraceId = init.nodeTraceId;
    this.edgeType = init.edgeType;
    this.edgeNameOrIndex = init.edgeNameOrIndex;
    this.edgeTarget = init.edgeTarget;
    this.strings = init.strings;
    this.extras = init.extras ?? { meta: {} };
    const n = (name: string) => this.nodeTypeNames.indexOf(name);
    this.nodeTypes = {
      hidden: n('hidden'), array: n('array'), string: n('string'), object: n('object'), code: n('code'),
      closure: n('closure'), regexp: n('regexp'), number: n('number'), native: n('native'),
      synthetic: n('synthetic'), concatenatedString: n('concatenated string'), slicedString: n('sliced string'),
      symbol: n('symbol'), bigint: n('bigint'), objectShape: n('object shape'),
    };
    const e = (name: string) => this.edgeTypeNames.indexOf(name);
    this.edgeTypes = {
      context: e('context'), element: e('element'), property: e('property'), internal: e('internal'),
      hidden: e('hidden'), shortcut: e('shortcut'), weak: e('weak'),
    };
  }

  /** The node's `name` string (a constructor name, a closure name, or a string's own text). */
  nodeNameOf(ordinal: number): string {
    return this.strings.get(this.nodeName[ordinal]!);
  }

  nodeTypeNameOf(ordinal: number): string {
    return this.nodeTypeNames[this.nodeType[ordinal]!] ?? 'unknown';
  }

  edgeTypeNameOf(edge: number): string {
    return this.edgeTypeNames[this.edgeType[edge]!] ?? 'unknown';
  }

  /** An edge's name as DevTools shows it: the property name, or the element/hidden index as text. */
  edgeNameOf(edge: number): string {
    const t = this.edgeType[edge];
    const v = this.edgeNameOrIndex[edge]!;
    if (t === this.edgeTypes.element || t === this.edgeTypes.hidden) return String(v);
    return this.strings.get(v);
  }

  /** The ordinal of the node with V8 id `id`, or -1. Linear; callers that need many build an index. */
  ordinalOfId(id: number): number {
    return this.nodeId.indexOf(id);
  }
}
