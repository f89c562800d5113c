// The snapshot's `strings` section. Most strings are never read (an analysis asks for class names,
// property names of plain objects, a few edge names), so they are kept as bytes, not JS strings:
// - short strings without escapes: their bytes, packed one after another in one buffer, decoded on
//   first use and cached (a heap's worth of JS strings costs the parse its garbage-collection time);
// - strings with escapes: decoded while parsing (so a bad escape is an error with its byte offset);
// - long ones (message bodies, source text: the bulk of an agent's snapshot) stay on disk and are
//   read back when asked for, so the parser's memory does not grow with the size of the heap's text.

import { openSync, readSync, closeSync } from 'node:fs';
import { SnapshotFormatError } from '../errors.js';
import { decodeJsonStringBytes } from './json-string.js';

/** Strings longer than this many raw (escaped) bytes are kept on disk, not in memory. */
export const LONG_STRING_BYTES = 64;

/** The largest buffer reserved up front for packed strings. */
const MAX_RESERVE = 1 << 30;

const enum Kind { Decoded = 0, Packed = 1, Long = 2 }

interface LongStrings {
  readonly file: string;
  /** The indexes of the strings kept on disk, ascending; `offset` / `length` run in step. */
  readonly index: Uint32Array;
  readonly offset: Float64Array;
  readonly length: Float64Array;
}

export class StringTable {
  readonly count: number;
  /** Decoded strings: those decoded while parsing, and packed ones once asked for. */
  readonly #decoded: (string | undefined)[];
  readonly #kind: Uint8Array;
  /** Packed string i is #packed[#start[i] .. #start[i + 1]); other strings take no bytes there. */
  readonly #start: Uint32Array;
  readonly #packed: Buffer;
  readonly #long: LongStrings | undefined;

  constructor(parts: { decoded: (string | undefined)[]; kind: Uint8Array; start: Uint32Array; packed: Buffer; long?: LongStrings }) {
    this.count = parts.kind.length;
    this.#decoded = parts.decoded;
    this.#kind = parts.kind;
    this.#start = parts.start;
    this.#packed = parts.packed;
    this.#long = parts.long;
  }

  /** An in-memory table, for graphs built by hand. */
  static fromArray(strings: readonly string[]): StringTable {
    return new StringTable({
      decoded: [...strings],
      kind: new Uint8Array(strings.length),
      start: new Uint32Array(strings.length + 1),
      packed: Buffer.alloc(0),
    });
  }

  /** True when the string's text is on disk (it is long); `get` will read it. */
  isLong(index: number): boolean {
    return this.#kind[index] === Kind.Long;
  }

  /**
   * The first index of `text` among the strings kept in memory, or -1. Names looked up this way
   * (property names, class names) are short; long strings on disk are never compared.
   */
  indexOf(text: string): number {
    const kind = this.#kind;
    const start = this.#start;
    const needle = Buffer.from(text, 'utf8');
    for (let i = 0; i < this.count; i++) {
      const k = kind[i];
      if (k === Kind.Decoded) {
        if (this.#decoded[i] === text) return i;
      } else if (k === Kind.Packed && start[i + 1]! - start[i]! === needle.length) {
        if (this.#packed.compare(needle, 0, needle.length, start[i]!, start[i + 1]!) === 0) return i;
      }
    }
    return -1;
  }

  /** The decoded string. Long strings are read back from the snapshot file. */
  get(index: number): string {
    const s = this.#decoded[index];
    if (s !== undefined) return s;
    const kind = this.#kind[index];
    if (kind === Kind.Packed) {
      // Packed strings have no escapes: this is a plain UTF-8 (or ASCII) decode.
      return (this.#decoded[index] = decodeJsonStringBytes(this.#packed, this.#start[index]!, this.#start[index + 1]!));
    }
    if (kind === Kind.Long) return this.#readLong(index);
    throw new RangeError(`string index ${index} is outside the snapshot's ${this.count} strings`);
  }

  /**
   * The decoded string's length in UTF-16 units, as `get(index).length`. A long string is measured from
   * the file piece by piece and never held whole: a report line only says how long a string is, and
   * one string of an agent's heap (a source text, a message log) can be a hundred MB, which as a JS
   * string stays on the heap until a full GC, on top of everything else at a diff's peak.
   */
  lengthOf(index: number, pieceBytes = LENGTH_PIECE_BYTES): number {
    if (this.#kind[index] !== Kind.Long || this.#decoded[index] !== undefined) return this.get(index).length;
    const long = this.#long!;
    const slot = slotOf(long.index, index);
    const total = long.length[slot]!;
    const start = long.offset[slot]!;
    let bytes = Buffer.allocUnsafe(Math.min(total, pieceBytes));
    let fd: number;
    try {
      fd = openSync(long.file, 'r');
    } catch (e) {
      throw new SnapshotFormatError(long.file, `string ${index} cannot be read back (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`);
    }
    let units = 0;
    try {
      let read = 0;
      let carry = 0; // bytes of the last piece that could not be decoded apart from what follows them
      while (read < total) {
        if (carry === bytes.length) bytes = Buffer.concat([bytes, Buffer.allocUnsafe(bytes.length)]);
        const n = readSync(fd, bytes, carry, Math.min(bytes.length - carry, total - read), start + read);
        if (n === 0) {
          throw new SnapshotFormatError(long.file, `string ${index} cannot be read back: the file is shorter than when it was parsed`, start + read);
        }
        read += n;
        const end = carry + n;
        const cut = read === total ? end : safeCut(bytes, end);
        try {
          units += decodeJsonStringBytes(bytes, 0, cut).length;
        } catch (e) {
          throw new SnapshotFormatError(long.file, `string ${index} changed since the file was parsed: ${(e as Error).message}`, start);
        }
        bytes.copy(bytes, 0, cut, end);
        carry = end - cut;
      }
    } finally {
      closeSync(fd);
    }
    return units;
  }

  #readLong(index: number): string {
    const long = this.#long!;
    const slot = slotOf(long.index, index);
    const length = long.length[slot]!;
    const bytes = Buffer.allocUnsafe(length);
    let read = 0;
    let fd: number;
    try {
      fd = openSync(long.file, 'r');
    } catch (e) {
      throw new SnapshotFormatError(long.file, `string ${index} cannot be read back (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`);
    }
    try {
      while (read < length) {
        const n = readSync(fd, bytes, read, length - read, long.offset[slot]! + read);
        if (n === 0) break;
        read += n;
      }
    } finally {
      closeSync(fd);
    }
    // The parser checked these bytes; a file changed since then must not hand back unread memory.
    if (read < length) {
      throw new SnapshotFormatError(long.file, `string ${index} cannot be read back: the file is shorter than when it was parsed`, long.offset[slot]! + read);
    }
    try {
      return decodeJsonStringBytes(bytes, 0, length);
    } catch (e) {
      throw new SnapshotFormatError(long.file, `string ${index} changed since the file was parsed: ${(e as Error).message}`, long.offset[slot]!);
    }
  }
}

/** Piece size for lengthOf. */
const LENGTH_PIECE_BYTES = 64 * 1024;

/**
 * The last place in bytes[0, end) where the text can be cut and both sides decoded apart to the same
 * UTF-16 length as the whole: at the start of a raw byte that is not a UTF-8 continuation byte (a
 * decoder ends any sequence before such a byte, valid or not) and not inside an escape. A surrogate
 * pair written as two escapes is two units whether or not the cut parts it. 0 when there is none.
 */
function safeCut(bytes: Uint8Array, end: number): number {
  let cut = 0;
  let i = 0;
  while (i < end) {
    const b = bytes[i]!;
    if (b === 0x5c) {
      // An escape: `\u` and four hex digits, or a backslash and one letter; a cut before it, none inside.
      cut = i;
      i += bytes[i + 1] === 0x75 ? 6 : 2;
      continue;
    }
    if (b < 0x80 || b >= 0xc0) cut = i;
    i++;
  }
  return cut;
}

/** Where `index` sits in the ascending `indexes` (binary search); -1 when absent. */
function slotOf(indexes: Uint32Array, index: number): number {
  let lo = 0;
  let hi = indexes.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = indexes[mid]!;
    if (v === index) return mid;
    if (v < index) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Collects the strings as the parser finds them, in order; `build` makes the table. */
export class StringTableBuilder {
  #count = 0;
  #kind = new Uint8Array(1024);
  #start = new Uint32Array(1025);
  #packed = Buffer.allocUnsafe(64 * 1024);
  #packedLength = 0;
  readonly #decoded = new Map<number, string>();
  #longIndex = new Uint32Array(256);
  #longOffset = new Float64Array(256);
  #longLength = new Float64Array(256);
  #longCount = 0;

  get count(): number {
    return this.#count;
  }

  /** Room for `bytes` packed bytes in all (beyond it the buffer grows by copying). */
  reserve(bytes: number): void {
    bytes = Math.min(bytes, MAX_RESERVE); // a padded or text-heavy file: grow past this if need be
    if (bytes > this.#packed.length) this.#movePacked(bytes);
  }

  /** A string without escapes, as its bytes (copied). */
  addBytes(bytes: Uint8Array, from: number, to: number): void {
    const n = to - from;
    if (this.#packedLength + n > this.#packed.length) this.#movePacked(Math.max(2 * this.#packed.length, this.#packedLength + n));
    this.#packed.set(bytes.subarray(from, to), this.#packedLength);
    this.#packedLength += n;
    this.#push(Kind.Packed);
  }

  /** A string already decoded. */
  addDecoded(text: string): void {
    this.#decoded.set(this.#count, text);
    this.#push(Kind.Decoded);
  }

  /** A string left on disk: its raw (escaped) bytes at `offset`. */
  addLong(offset: number, length: number): void {
    const k = this.#longCount++;
    if (k === this.#longIndex.length) {
      this.#longIndex = grow(this.#longIndex, new Uint32Array(2 * k));
      this.#longOffset = grow(this.#longOffset, new Float64Array(2 * k));
      this.#longLength = grow(this.#longLength, new Float64Array(2 * k));
    }
    this.#longIndex[k] = this.#count;
    this.#longOffset[k] = offset;
    this.#longLength[k] = length;
    this.#push(Kind.Long);
  }

  /** The packed bytes so far, moved to a buffer of `bytes`. */
  #movePacked(bytes: number): void {
    const room = Buffer.allocUnsafe(bytes);
    this.#packed.copy(room, 0, 0, this.#packedLength);
    this.#packed = room;
  }

  #push(kind: Kind): void {
    const i = this.#count++;
    if (i === this.#kind.length) {
      this.#kind = grow(this.#kind, new Uint8Array(2 * i));
      this.#start = grow(this.#start, new Uint32Array(2 * i + 1));
    }
    this.#kind[i] = kind;
    this.#start[i + 1] = this.#packedLength;
  }

  /** `file`: where long strings are read back from (only strings added with addLong need it). */
  build(file?: string): StringTable {
    const count = this.#count;
    const decoded: (string | undefined)[] = new Array<string | undefined>(count);
    for (const [i, text] of this.#decoded) decoded[i] = text;
    return new StringTable({
      decoded,
      kind: this.#kind.slice(0, count),
      start: this.#start.slice(0, count + 1),
      packed: this.#packed.subarray(0, this.#packedLength), // the unwritten rest was never touched
      long: this.#longCount > 0 && file !== undefined
        ? {
          file,
          index: this.#longIndex.slice(0, this.#longCount),
          offset: this.#longOffset.slice(0, this.#longCount),
          length: this.#longLength.slice(0, this.#longCount),
        }
        : undefined,
    });
  }
}

function grow<T extends Uint8Array | Uint32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
