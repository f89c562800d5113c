// Bench adapter for @vscode/v8-heap-parser (Rust → WASM): decode the whole file's bytes, then ask for the
// class groups sorted by retained size (which computes dominators and retained sizes). Prints one JSON line.
import { readFileSync } from 'node:fs';
import { decode_bytes } from '@vscode/v8-heap-parser';

const graph = decode_bytes(readFileSync(process.argv[2]));
const groups = graph.get_class_groups(0, 20, false);
const top = groups.map((g) => ({ name: g.name(), count: g.children_len, retainedSize: Number(g.retained_size) }));
console.log(JSON.stringify({ classes: top.length, top: top.slice(0, 3) }));
