// Bench adapter for @vscode/v8-heap-parser (Rust → WASM): decode the whole file's bytes, then ask for the
// class groups sorted by retained size (which computes dominators and retained sizes). Prints one JSON line.
import { readFileSync } from 'node:fs';
import parser from '@vscode/v8-heap-parser'; // CommonJS

let graph;
try {
  graph = parser.decode_bytes(readFileSync(process.argv[2]));
} catch (e) {
  // An allocation failure inside WASM aborts as a bare "unreachable" trap: say how much memory it had.
  const wasmMiB = Math.round(parser.__wasm.memory.buffer.byteLength / 2 ** 20);
  throw new Error(`decode_bytes: WASM trap "${e.message}" with ${wasmMiB} MiB of WASM memory (4096 is the wasm32 limit)`);
}
const groups = graph.get_class_groups(0, 20, false);
const top = groups.map((g) => ({ name: g.name(), count: g.children_len, retainedSize: Number(g.retained_size) }));
console.log(JSON.stringify({ classes: top.length, top: top.slice(0, 3) }));
