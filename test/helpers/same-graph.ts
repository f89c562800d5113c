// Two heap graphs equal array by array and string by string (parser tests: chunk sizes, threads).

import assert from 'node:assert/strict';
import type { HeapGraph } from '../../src/snapshot/heap-graph.js';

export function assertSameGraph(a: HeapGraph, b: HeapGraph, label: string): void {
  assert.equal(a.nodeCount, b.nodeCount, label);
  assert.equal(a.edgeCount, b.edgeCount, label);
  assert.deepEqual(a.nodeType, b.nodeType, label);
  assert.deepEqual(a.nodeName, b.nodeName, label);
  assert.deepEqual(a.nodeId, b.nodeId, label);
  assert.deepEqual(a.nodeSelfSize, b.nodeSelfSize, label);
  assert.deepEqual(a.firstEdge, b.firstEdge, label);
  assert.deepEqual(a.edgeType, b.edgeType, label);
  assert.deepEqual(a.edgeNameOrIndex, b.edgeNameOrIndex, label);
  assert.deepEqual(a.edgeTarget, b.edgeTarget, label);
  assert.equal(a.strings.count, b.strings.count, label);
  for (let i = 0; i < a.strings.count; i++) assert.equal(a.strings.get(i), b.strings.get(i), `${label}: string ${i}`);
}
