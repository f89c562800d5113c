// Bench adapter for heapsnapshot-parser: the whole file as one string, an object per node and edge; no
// dominators or retained sizes at all (so it does less work than the others). Prints one JSON line.
import { readFileSync } from 'node:fs';
import parser from 'heapsnapshot-parser';

const snapshot = parser.parse(readFileSync(process.argv[2], 'utf-8'));
console.log(JSON.stringify({ nodes: snapshot.nodes.length, edges: snapshot.edges.length }));
