// Recognising WeakMap ephemeron edges by name. For every live WeakMap entry V8 writes two `internal`
// edges to the value, one from the key and one from the backing hash table, both named
//   `<n> / part of key (<key name> @<key id>) -> value (<value name> @<value id>) pair in WeakMap (table @<table id>)`
// where `<n>` is the auto-index of the edge in its owner and differs between the two (V8
// heap-snapshot-generator.cc, ExtractEphemeronHashTableReferences). Everything after `<n>` is the same
// for both edges and identifies the pair. Matching follows Chrome DevTools' tryParseWeakMapEdgeName:
// the whole name must match, and `.` does not cross a line break (a name with a newline is not an
// ephemeron edge there either).

import type { HeapGraph } from '../snapshot/heap-graph.js';

const EPHEMERON_NAME = /^\d+( \/ part of key \(.*? @\d+\) -> value \(.*? @\d+\) pair in WeakMap \(table @(\d+)\))$/;
const MARKER = ' / part of key (';

export interface EphemeronName {
  /** The text both edges of one WeakMap entry share (from the space after the leading index). */
  readonly pairKey: string;
  /** V8 id of the WeakMap's backing table: the edge *from* the table has this owner id. */
  readonly tableId: number;
}

export function parseEphemeronEdgeName(name: string): EphemeronName | undefined {
  const c = name.charCodeAt(0);
  if (!(c >= 0x30 && c <= 0x39) || !name.includes(MARKER)) return undefined;
  const m = EPHEMERON_NAME.exec(name);
  if (m === null) return undefined;
  return { pairKey: m[1]!, tableId: Number(m[2]) };
}

const UNKNOWN = 0;
const NOT_EPHEMERON = 1;
const EPHEMERON = 2;

/** Per-string memo of `parseEphemeronEdgeName`, so 10M internal edges cost ~10M byte reads, not regexes. */
export class EphemeronNameCache {
  readonly #graph: HeapGraph;
  readonly #state: Uint8Array;
  readonly #parsed = new Map<number, EphemeronName>();

  constructor(graph: HeapGraph) {
    this.#graph = graph;
    this.#state = new Uint8Array(graph.strings.count);
  }

  /** The parsed name of string `nameIndex`, or undefined when it is not an ephemeron edge name. */
  get(nameIndex: number): EphemeronName | undefined {
    const s = this.#state[nameIndex];
    if (s === NOT_EPHEMERON) return undefined;
    if (s === EPHEMERON) return this.#parsed.get(nameIndex);
    if (s === UNKNOWN && nameIndex < this.#state.length) {
      const parsed = parseEphemeronEdgeName(this.#graph.strings.get(nameIndex));
      if (parsed === undefined) {
        this.#state[nameIndex] = NOT_EPHEMERON;
        return undefined;
      }
      this.#state[nameIndex] = EPHEMERON;
      this.#parsed.set(nameIndex, parsed);
      return parsed;
    }
    return undefined;
  }
}
