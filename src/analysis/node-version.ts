// The Node.js version a snapshot was written by, when the heap says so: the `process` object's
// `version` property points at a string like "v20.20.2". Chrome snapshots have no such object.

import type { HeapGraph } from '../snapshot/heap-graph.js';

const VERSION = /^v\d+\.\d+\.\d+/;

export function findNodeVersion(graph: HeapGraph): string | undefined {
  const { strings } = graph;
  const processName = strings.indexOf('process');
  const versionName = strings.indexOf('version');
  if (processName < 0 || versionName < 0) return undefined;
  const { nodeType, nodeName, firstEdge, edgeType, edgeNameOrIndex, edgeTarget } = graph;
  const object = graph.nodeTypes.object;
  const property = graph.edgeTypes.property;
  const stringType = graph.nodeTypes.string;
  for (let n = 0; n < graph.nodeCount; n++) {
    if (nodeType[n] !== object || nodeName[n] !== processName) continue;
    for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e++) {
      if (edgeType[e] !== property || edgeNameOrIndex[e] !== versionName) continue;
      const target = edgeTarget[e]!;
      if (nodeType[target] !== stringType) continue;
      const text = strings.get(nodeName[target]!);
      if (VERSION.test(text)) return text;
    }
  }
  return undefined;
}
