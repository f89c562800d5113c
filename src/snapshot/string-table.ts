// The snapshot's `strings` section. Short strings are decoded once into a JS array; long ones
// (message bodies, source text: the bulk of an agent's snapshot) stay on disk and are read back only
// when asked for, so the parser's memory does not grow with the size of the heap's text.

import { openSync, readSync, closeSync } from 'node:fs';
import { decodeJsonStringBytes } from './json-string.js';

/** Strings longer than this many raw (escaped) bytes are kept on disk, not in memory. */
export const LONG_STRING_BYTES = 64;

export class StringTable {
  readonly count: number;
  readonly #inline: (string | undefined)[];
  /** The indexes of the strings kept on disk, ascending; `#longOffset` / `#longLength` run in step. */
  readonly #longIndex: Uint32Array;
  readonly #longOffset: Float64Array;
  readonly #longLength: Float64Array;
  readonly #file: string | undefined;

  constructor(
    inline: (string | undefined)[],
    long?: { file: string; index: Uint32Array; offset: Float64Array; length: Float64Array },
  ) {
    this.count = inline.length;
    this.#inline = inline;
    this.#file = long?.file;
    this.#longIndex = long?.index ?? new Uint32Array(0);
    this.#longOffset = long?.offset ?? new Float64Array(0);
    this.#longLength = long?.length ?? new Float64Array(0);
  }

  /** An in-memory table, for graphs built by hand. */
  static fromArray(strings: readonly string[]): StringTable {
    return new StringTable([...strings]);
  }

  /** True when the string's text is on disk (it is long); `get` will read it. */
  isLong(index: number): boolean {
    return this.#inline[index] === undefined && this.#slotOf(index) >= 0;
  }

  /**
   * The first index of `text` among the strings kept in memory, or -1. Names looked up this way
   * (property names, class names) are short; long strings on disk are never compared.
   */
  indexOf(text: string): number {
    return this.#inline.indexOf(text);
  }

  /** Where string `index` sits among the long ones (binary search), or -1. */
  #slotOf(index: number): number {
    const long = this.#longIndex;
    let lo = 0;
    let hi = long.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = long[mid]!;
      if (v === index) return mid;
      if (v < index) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The decoded string. Long strings are read back from the snapshot file. */
  get(index: number): string {
    const s = this.#inline[index];
    if (s !== undefined) return s;
    const slot = this.#slotOf(index);
    if (slot < 0 || this.#file === undefined) {
      throw new RangeError(`string index ${index} is outside the snapshot's ${this.count} strings`);
    }
    const length = this.#longLength[slot]!;
    const bytes = Buffer.allocUnsafe(length);
    const fd = openSync(this.#file, 'r');
    try {
      let read = 0;
      while (read < length) {
        const n = readSync(fd, bytes, read, length - read, this.#longOffset[slot]! + read);
        if (n === 0) break;
        read += n;
      }
    } finally {
      closeSync(fd);
    }
    return decodeJsonStringBytes(bytes, 0, length);
  }
}
