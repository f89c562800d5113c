// Reading `snapshot.meta`: which fields nodes and edges have, in what order, and the type names.
// Resolved once, so the parser's hot loop only indexes small role tables.

export interface SnapshotLayout {
  readonly meta: Readonly<Record<string, unknown>>;
  readonly nodeFields: readonly string[];
  readonly edgeFields: readonly string[];
  readonly nodeTypeNames: readonly string[];
  readonly edgeTypeNames: readonly string[];
  readonly nodeFieldCount: number;
  readonly edgeFieldCount: number;
  readonly nodeCount: number;
  readonly edgeCount: number;
  readonly rootOrdinal: number;
}

const REQUIRED_NODE_FIELDS = ['type', 'name', 'id', 'self_size', 'edge_count'];
const REQUIRED_EDGE_FIELDS = ['type', 'name_or_index', 'to_node'];

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
}

/** Validates the parsed `"snapshot"` object; `fail` throws with the caller's file and offset. */
export function readSnapshotMeta(value: unknown, fail: (reason: string) => never): SnapshotLayout {
  if (typeof value !== 'object' || value === null) fail('"snapshot" is not an object');
  const snapshot = value as Record<string, unknown>;
  const meta = snapshot['meta'] as Record<string, unknown> | undefined;
  if (typeof meta !== 'object' || meta === null) fail('not a heap snapshot: "snapshot.meta" is missing');
  const nodeFields = meta['node_fields'];
  const edgeFields = meta['edge_fields'];
  if (!isStringArray(nodeFields) || !isStringArray(edgeFields)) {
    fail('not a heap snapshot: meta.node_fields / meta.edge_fields missing');
  }
  for (const f of REQUIRED_NODE_FIELDS) if (!nodeFields.includes(f)) fail(`meta.node_fields lacks "${f}"`);
  for (const f of REQUIRED_EDGE_FIELDS) if (!edgeFields.includes(f)) fail(`meta.edge_fields lacks "${f}"`);
  const nodeTypes = (meta['node_types'] as unknown[] | undefined)?.[nodeFields.indexOf('type')];
  const edgeTypes = (meta['edge_types'] as unknown[] | undefined)?.[edgeFields.indexOf('type')];
  if (!isStringArray(nodeTypes) || !isStringArray(edgeTypes)) fail('meta.node_types / meta.edge_types missing');
  if (nodeTypes.length > 256 || edgeTypes.length > 256) fail('more than 256 node or edge types');
  const nodeCount = snapshot['node_count'];
  const edgeCount = snapshot['edge_count'];
  if (!isCount(nodeCount) || !isCount(edgeCount)) fail('"snapshot.node_count" / "edge_count" missing or invalid');
  if (nodeCount === 0) fail('the snapshot has no nodes');
  const rootIndex = snapshot['root_index'];
  const rootOrdinal = isCount(rootIndex) ? rootIndex / nodeFields.length : 0;
  if (!Number.isInteger(rootOrdinal) || rootOrdinal >= nodeCount) fail('"snapshot.root_index" is not a node');
  return {
    meta,
    nodeFields,
    edgeFields,
    nodeTypeNames: nodeTypes,
    edgeTypeNames: edgeTypes,
    nodeFieldCount: nodeFields.length,
    edgeFieldCount: edgeFields.length,
    nodeCount,
    edgeCount,
    rootOrdinal,
  };
}

/**
 * Whether the declared counts can be in a file with `bytesLeft` bytes after the header: every value of
 * `nodes` and `edges` takes at least one digit, and all but the last of each array a comma. The parser
 * preallocates its typed arrays from these counts, so a header that declares more than the file can
 * hold is refused here, before a byte is allocated (issue 13: `node_count` 500,000,000 in a 1.5 KB
 * file). Returns the reason to report, or undefined when the counts fit.
 */
export function checkCountsFit(layout: SnapshotLayout, bytesLeft: number): string | undefined {
  const nodeValues = layout.nodeCount * layout.nodeFieldCount;
  const edgeValues = layout.edgeCount * layout.edgeFieldCount;
  const needed = minimumArrayBytes(nodeValues) + minimumArrayBytes(edgeValues);
  if (needed <= bytesLeft) return undefined;
  return `"snapshot" declares node_count ${layout.nodeCount} and edge_count ${layout.edgeCount}: `
    + `their values need at least ${needed} bytes, the file has ${Math.max(bytesLeft, 0)} after the header`;
}

function minimumArrayBytes(values: number): number {
  return values === 0 ? 0 : 2 * values - 1;
}
