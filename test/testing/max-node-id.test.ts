// The largest object id streamed off a snapshot's chunks equals maxHeapObjectId of the parsed graph,
// however the text is cut into chunks; native and synthetic nodes do not count.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MaxNodeIdScanner } from '../../src/testing/max-node-id.js';

const snapshot = JSON.stringify({
  snapshot: {
    meta: {
      node_fields: ['type', 'name', 'id', 'self_size', 'edge_count', 'trace_node_id', 'detachedness'],
      node_types: [['hidden', 'array', 'string', 'object', 'code', 'closure', 'regexp', 'number', 'native', 'synthetic'], 'string', 'number', 'number', 'number', 'number', 'number'],
      edge_fields: ['type', 'name_or_index', 'to_node'],
      edge_types: [['context', 'element', 'property'], 'string_or_number', 'node'],
    },
    node_count: 5,
    edge_count: 0,
  },
  // (root) synthetic id 1; objects 3, 12345, 77; a native node with a huge id; a synthetic with another.
  nodes: [9, 0, 1, 0, 0, 0, 0, 3, 1, 3, 16, 0, 0, 0, 3, 2, 12345, 32, 0, 0, 0, 8, 3, 4000000001, 0, 0, 0, 0, 5, 4, 77, 56, 0, 0, 0, 9, 5, 3999999999, 0, 0, 0, 0],
  edges: [17, 18],
  strings: ['', 'a', 'b', 'c', 'd', 'e'],
});

test('the largest id of a heap object, whatever the chunking', () => {
  for (let size = 1; size <= snapshot.length; size += size < 40 ? 1 : 13) {
    const scanner = new MaxNodeIdScanner();
    for (let i = 0; i < snapshot.length; i += size) scanner.push(snapshot.slice(i, i + size));
    assert.equal(scanner.maxId, 12345, `chunks of ${size}`);
  }
});

test('a snapshot cut before its nodes array ends is an error, not an id', () => {
  const scanner = new MaxNodeIdScanner();
  scanner.push(snapshot.slice(0, snapshot.indexOf('"edges"') - 10));
  assert.throws(() => scanner.maxId, /ended before its nodes array did/);
});
