// The streaming `.heapsnapshot` parser: bytes in, chunk by chunk, a HeapGraph out. One pass, no
// whole-file string and no JSON.parse of the big arrays: `nodes` and `edges` are hand-parsed straight
// into typed arrays preallocated from `snapshot.meta` (as DevTools' HeapSnapshotLoader does), and
// `strings` are cut out byte-exactly so long ones can stay on disk. Chunk boundaries may fall anywhere,
// even inside a number, a string or an escape; the state needed to resume lives in fields.
//
// Invariants on success: edge targets are node ordinals < nodeCount; the per-node edge counts sum to
// edge_count; every name index is < the number of strings; every value array had exactly
// count × fields entries. Anything else is a SnapshotFormatError with the byte offset.

import { SnapshotFormatError } from '../errors.js';
import { HeapGraph, type SizeArray, type SnapshotExtras } from './heap-graph.js';
import { defineTraceTree, type TraceTreeSource } from './trace-tree.js';
import { decodeJsonStringBytes, isSpace } from './json-string.js';
import { checkCountsFit, readSnapshotMeta, type SnapshotLayout } from './snapshot-meta.js';
import { byteBuffer } from './buffers.js';
import { StringTableBuilder, LONG_STRING_BYTES } from './string-table.js';
import { EdgeFiller, edgeRecordLayout, namesString, type EdgeArrays } from './edge-records.js';
import type { EdgesElsewhere } from './parallel-edges.js';
import { ByteCarry } from './byte-carry.js';
import {
  BATCH_VALUES, createIntegerScanState, describeScanError, resetIntegerScan, scanIntegers, ScanStatus,
} from './integer-scanner.js';

/** The largest `"snapshot"` header accepted (V8 writes a few KB). */
const MAX_HEADER_BYTES = 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** The bytes a backslash may escape in JSON besides `u`: " \ / b f n r t. */
const SIMPLE_ESCAPE = byteSet('"\\/bfnrt');
const HEX_DIGIT = byteSet('0123456789abcdefABCDEF');

function byteSet(chars: string): Uint8Array {
  const set = new Uint8Array(256);
  for (const c of chars) set[c.charCodeAt(0)] = 1;
  return set;
}

const enum State {
  BeforeTop,
  KeyOrEnd,
  Key,
  Colon,
  Value,
  ArrayOpen,
  Numbers,
  Strings,
  Raw,
  SkipEdges, // `edges` parsed by another thread: only their ']' is looked for
  AfterValue,
  Done,
}

const enum Section {
  None,
  Meta,
  Nodes,
  Edges,
  Strings,
  Flat, // trace_function_infos, samples, locations: kept as flat number arrays
  Tree, // trace_tree: nested, kept as parsed JSON
  Skip, // unknown keys
}

export interface ParserOptions {
  /** Name used in error messages (usually the path). */
  readonly fileLabel: string;
  /** The file being parsed: long strings are left in it and read back on demand. */
  readonly longStringFile?: string;
  /** Another thread that may parse `edges` (parallel-edges.ts): edge arrays are then shared memory. */
  readonly edgesElsewhere?: EdgesElsewhere;
  /**
   * The file's size in bytes: the declared counts are checked against it before anything is allocated
   * (a crafted header must not cost more memory than the file's own bytes could fill), and the strings'
   * buffer is reserved once from it instead of grown.
   */
  readonly fileBytes: number;
}

function describeByte(b: number): string {
  return b >= 0x20 && b < 0x7f ? `'${String.fromCharCode(b)}'` : `byte 0x${b.toString(16).padStart(2, '0')}`;
}

export class SnapshotParser {
  readonly #label: string;
  readonly #longFile: string | undefined;
  readonly #elsewhere: EdgesElsewhere | undefined;
  readonly #fileBytes: number;
  #state = State.BeforeTop;
  #section = Section.None;
  #sectionName = '';
  #base = 0; // file offset of the current chunk's first byte
  #seenKeys = new Set<string>();
  readonly #carry = new ByteCarry();

  // Raw JSON capture (meta, trace_tree, unknown values).
  #rawStart = 0; // file offset of the value's first byte
  #rawDepth = 0;
  #rawInString = false;
  #rawEscape = false;

  // Number arrays.
  readonly #scan = createIntegerScanState(BATCH_VALUES);
  #count = 0; // values stored in the current array
  #expected = 0; // values the current array must hold (-1: any)
  #needComma = false;
  /** Values of a flat section (trace_function_infos, samples, locations) so far: `#flat[0 .. #count)`. */
  #flat = new Float64Array(0);

  // Strings.
  #inString = false;
  /** A backslash ended the previous chunk: its escape letter is the next byte. */
  #strEscape = false;
  /** Hex digits of a `\u` escape still to come (it ran into the next chunk). */
  #hexLeft = 0;
  #strStart = 0; // file offset of the first byte after the opening quote
  #strLong = false;
  /** Chunk index of the next backslash (see #backslashAfter); -1 at the start of each chunk. */
  #nextBackslash = -1;
  readonly #strings = new StringTableBuilder();

  // The graph being filled.
  #layout: SnapshotLayout | undefined;
  #nodeFieldAt = { type: 0, name: 0, id: 0, selfSize: 0, edgeCount: 0, traceId: 0, detachedness: 0 };
  #edges: EdgeArrays = { type: new Uint8Array(0), name: new Uint32Array(0), target: new Uint32Array(0) };
  #edgeFiller: EdgeFiller | undefined;
  /**
   * Where the edges array starts and ends when another thread parses it (end -1 until its ']' is seen),
   * and the largest string index its edges name, once the other thread's result is accepted.
   */
  #edgesElsewhereAt = { start: -1, end: -1, accepted: false, maxName: -1 };
  #nodeType = new Uint8Array(0);
  #nodeName = new Uint32Array(0);
  #nodeId = new Uint32Array(0);
  #nodeSelfSize: SizeArray = new Uint32Array(0);
  #firstEdge: Uint32Array = new Uint32Array(1);
  #nodeTraceId: Uint32Array | undefined;
  #nodeDetachedness: Uint8Array | undefined;
  #edgeCountSum = 0;
  #maxNameIndex = -1;
  #maxNameOffset = 0;
  #extras: { traceFunctionInfos?: Float64Array; samples?: Float64Array; locations?: Uint32Array } = {};
  /** Where `trace_tree` is, read and parsed only when asked for (trace-tree.ts). */
  #traceTree: TraceTreeSource | undefined;

  constructor(options: ParserOptions) {
    this.#label = options.fileLabel;
    this.#longFile = options.longStringFile;
    this.#elsewhere = options.edgesElsewhere;
    this.#fileBytes = options.fileBytes;
  }

  #fail(reason: string, offset: number): never {
    throw new SnapshotFormatError(this.#label, reason, offset);
  }

  /** Feeds the next chunk of the file. Chunks must arrive in order and without gaps. */
  push(bytes: Uint8Array): void {
    const chunk = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const end = chunk.length;
    let i = 0;
    this.#nextBackslash = -1;
    while (i < end) {
      switch (this.#state) {
        case State.Numbers:
          i = this.#parseNumbers(chunk, i, end);
          break;
        case State.Strings:
          i = this.#parseStrings(chunk, i, end);
          break;
        case State.Raw:
          i = this.#parseRaw(chunk, i, end);
          break;
        case State.SkipEdges:
          i = this.#skipEdges(chunk, i, end);
          break;
        default:
          i = this.#parseStructure(chunk, i, end);
      }
    }
    this.#base += end;
  }

  /** Top-level object structure: `{ "key": value, ... }`. Handles one token per call. */
  #parseStructure(chunk: Buffer, i: number, end: number): number {
    const b = chunk[i]!;
    if (this.#state === State.Key) {
      while (i < end && chunk[i] !== QUOTE) {
        this.#carry.pushByte(chunk[i]!);
        i++;
      }
      if (i === end) return i;
      const key = this.#carry.takeString();
      this.#startKey(key, this.#base + i);
      this.#state = State.Colon;
      return i + 1;
    }
    if (isSpace(b)) return i + 1;
    const at = this.#base + i;
    switch (this.#state) {
      case State.BeforeTop:
        if (b !== OPEN_BRACE) this.#fail(`not a heap snapshot: expected '{', found ${describeByte(b)}`, at);
        this.#state = State.KeyOrEnd;
        return i + 1;
      case State.KeyOrEnd:
        if (b === QUOTE) {
          this.#state = State.Key;
          return i + 1;
        }
        if (b === CLOSE_BRACE && this.#seenKeys.size === 0) {
          this.#fail('not a heap snapshot: the top-level object is empty', at);
        }
        return this.#fail(`expected a quoted key, found ${describeByte(b)}`, at);
      case State.Colon:
        if (b !== COLON) this.#fail(`expected ':' after "${this.#sectionName}", found ${describeByte(b)}`, at);
        this.#state = State.Value;
        return i + 1;
      case State.Value:
        return this.#startValue(b, i, at);
      case State.ArrayOpen:
        if (b !== OPEN_BRACKET) this.#fail(`expected '[' to open "${this.#sectionName}", found ${describeByte(b)}`, at);
        this.#state = this.#section === Section.Strings ? State.Strings : State.Numbers;
        this.#needComma = false;
        return i + 1;
      case State.AfterValue:
        if (b === COMMA) {
          this.#state = State.KeyOrEnd;
          return i + 1;
        }
        if (b === CLOSE_BRACE) {
          this.#state = State.Done;
          return i + 1;
        }
        return this.#fail(`expected ',' or '}' after "${this.#sectionName}", found ${describeByte(b)}`, at);
      case State.Done:
        return this.#fail(`unexpected ${describeByte(b)} after the end of the snapshot`, at);
      default:
        return this.#fail('parser state error', at);
    }
  }

  #startKey(key: string, at: number): void {
    if (this.#seenKeys.size === 0 && key !== 'snapshot') {
      this.#fail(`not a heap snapshot: first key is "${key.slice(0, 40)}", expected "snapshot"`, at);
    }
    if (this.#seenKeys.has(key)) this.#fail(`duplicate section "${key}"`, at);
    this.#seenKeys.add(key);
    this.#sectionName = key;
    switch (key) {
      case 'snapshot': this.#section = Section.Meta; break;
      case 'nodes': this.#section = Section.Nodes; break;
      case 'edges': this.#section = Section.Edges; break;
      case 'strings': this.#section = Section.Strings; break;
      case 'trace_function_infos': case 'samples': case 'locations': this.#section = Section.Flat; break;
      case 'trace_tree': this.#section = Section.Tree; break;
      default: this.#section = Section.Skip;
    }
  }

  #startValue(b: number, i: number, at: number): number {
    const section = this.#section;
    if (section === Section.Meta || section === Section.Tree || section === Section.Skip) {
      this.#state = State.Raw;
      this.#rawStart = at;
      this.#rawDepth = 0;
      this.#rawInString = false;
      this.#rawEscape = false;
      return i; // the raw scanner consumes the first byte itself
    }
    const layout = this.#layout;
    if (!layout) return this.#fail(`"${this.#sectionName}" comes before "snapshot"`, at);
    if (b !== OPEN_BRACKET) this.#fail(`expected '[' to open "${this.#sectionName}", found ${describeByte(b)}`, at);
    this.#count = 0;
    resetIntegerScan(this.#scan);
    this.#needComma = false;
    if (section === Section.Nodes) this.#expected = layout.nodeCount * layout.nodeFieldCount;
    else if (section === Section.Edges) this.#expected = layout.edgeCount * layout.edgeFieldCount;
    else this.#expected = -1;
    this.#flat = new Float64Array(0);
    this.#state = section === Section.Strings ? State.Strings : State.Numbers;
    // Short strings are packed into one buffer: room for all that is left of the file, reserved once
    // (pages never written are never resident) rather than grown by copies that stay until a GC.
    if (section === Section.Strings) this.#strings.reserve(this.#fileBytes - at);
    if (section === Section.Edges && this.#elsewhere) {
      if (this.#elsewhere.claim(at + 1)) {
        this.#edgesElsewhereAt.start = at + 1;
        this.#state = State.SkipEdges;
      } else {
        this.#allocateEdges(layout, false); // the worker may have written into the shared ones
      }
    }
    return i + 1;
  }

  /** `edges` parsed elsewhere: their values are digits, commas and spaces, so the first ']' ends them. */
  #skipEdges(chunk: Buffer, i: number, end: number): number {
    const close = chunk.indexOf(CLOSE_BRACKET, i);
    if (close < 0 || close >= end) return end;
    this.#edgesElsewhereAt.end = this.#base + close;
    this.#state = State.AfterValue;
    return close + 1;
  }

  /**
   * The other thread's edges are in: `end` is where it found their ']', `maxName` the largest string
   * index they name (EdgeFiller.maxName). Call before finish() when
   * edgesElsewhere claimed them (`edgesParsedElsewhere`).
   */
  acceptEdges(end: number, maxName: number): void {
    const at = this.#edgesElsewhereAt;
    if (at.start < 0 || end !== at.end) {
      this.#fail(`"edges" end at byte ${end} on the other thread, ${at.end} on this one`, Math.max(end, at.end));
    }
    at.accepted = true;
    at.maxName = maxName;
  }

  get edgesParsedElsewhere(): boolean {
    return this.#edgesElsewhereAt.start >= 0;
  }

  /**
   * A run of integers up to ']'. `scanIntegers` fills a batch (the hot loop, kept small and
   * standalone); the consumers below distribute each batch to the typed arrays, one record at a time.
   */
  #parseNumbers(chunk: Buffer, i: number, end: number): number {
    const st = this.#scan;
    for (;;) {
      i = scanIntegers(chunk, i, end, this.#base, st);
      switch (st.status) {
        case ScanStatus.NeedMore:
          return i;
        case ScanStatus.BatchFull:
          this.#consumeBatch(st.length);
          st.length = 0;
          continue;
        case ScanStatus.Closed:
          this.#consumeBatch(st.length);
          st.length = 0;
          this.#finishNumbers(this.#base + i - 1);
          return i;
        case ScanStatus.Error:
          return this.#fail(`${describeScanError(st.errorKind)} in "${this.#sectionName}"`, st.errorOffset);
      }
    }
  }

  #consumeBatch(n: number): void {
    if (n === 0) return;
    const section = this.#section;
    if (section === Section.Edges) {
      const problem = this.#edgeFiller!.take(this.#scan.batch, this.#scan.offsets, n);
      if (problem) this.#fail(problem.reason, problem.offset);
    } else if (section === Section.Nodes) {
      const room = this.#expected - this.#count;
      if (n > room) {
        const layout = this.#layout!;
        this.#fail(`"nodes" has more values than node_count ${layout.nodeCount} × ${layout.nodeFieldCount} fields`, this.#scan.offsets[room]!);
      }
      this.#consumeNodes(n);
    } else {
      if (this.#count + n > this.#flat.length) {
        const grown = new Float64Array(Math.max(2 * this.#flat.length, this.#count + n, 4096));
        grown.set(this.#flat.subarray(0, this.#count));
        this.#flat = grown;
      }
      this.#flat.set(this.#scan.batch.subarray(0, n), this.#count);
    }
    this.#count += n;
  }

  /**
   * Whole records only: batches hold a multiple of every field count (BATCH_VALUES is), and
   * each array starts a fresh batch, so a record never straddles two batches. A short final
   * record is left unwritten; `#finishNumbers` reports the count mismatch.
   */
  #consumeNodes(n: number): void {
    const { batch, offsets } = this.#scan;
    const f = this.#nodeFieldAt;
    const fields = this.#layout!.nodeFieldCount;
    const typeLimit = this.#layout!.nodeTypeNames.length;
    const nodeType = this.#nodeType;
    const nodeName = this.#nodeName;
    const nodeId = this.#nodeId;
    let selfSize = this.#nodeSelfSize;
    const firstEdge = this.#firstEdge;
    const traceId = this.#nodeTraceId;
    const detachedness = this.#nodeDetachedness;
    let ordinal = this.#count / fields;
    let maxName = this.#maxNameIndex;
    let edgeSum = this.#edgeCountSum;
    for (let j = 0; j + fields <= n; j += fields, ordinal++) {
      const type = batch[j + f.type]!;
      const name = batch[j + f.name]!;
      const id = batch[j + f.id]!;
      const size = batch[j + f.selfSize]!;
      const edges = batch[j + f.edgeCount]!;
      if (!(type >= 0 && type < typeLimit)) this.#fail(`node type ${type} is not in meta.node_types`, offsets[j + f.type]!);
      if (!(id >= 0 && id <= 0xffffffff)) this.#fail(`node id ${id} is not a 32-bit unsigned integer`, offsets[j + f.id]!);
      if (name < 0 || size < 0 || edges < 0) this.#fail('negative value in "nodes"', offsets[j]!);
      if (name > maxName) {
        maxName = name;
        this.#maxNameOffset = offsets[j + f.name]!;
      }
      nodeType[ordinal] = type;
      nodeName[ordinal] = name;
      nodeId[ordinal] = id;
      // Sizes are kept in 32 bits until one does not fit (half the memory of Float64 on every heap).
      if (size > 0xffffffff && selfSize instanceof Uint32Array) selfSize = this.#widenSizes(selfSize, ordinal);
      selfSize[ordinal] = size;
      firstEdge[ordinal + 1] = edges;
      edgeSum += edges;
      // Both are almost always 0: skipping zero stores leaves those pages of the (zeroed) arrays
      // untouched, and first-touched memory is what parsing spends most of its time on.
      if (traceId !== undefined) {
        const t = batch[j + f.traceId]!;
        if (t !== 0) traceId[ordinal] = t;
      }
      if (detachedness !== undefined) {
        const d = batch[j + f.detachedness]!;
        if (d !== 0) detachedness[ordinal] = d;
      }
    }
    this.#maxNameIndex = maxName;
    this.#edgeCountSum = edgeSum;
    const edgeCount = this.#layout!.edgeCount;
    if (edgeSum > edgeCount) {
      this.#fail(`node edge counts add up to more than edge_count ${edgeCount}`, offsets[n - 1]!);
    }
  }

  /**
   * The self sizes as Float64, the first `read` of them copied: the rest of the fresh (zeroed) array is
   * left untouched, so its pages cost nothing until nodes are stored there. (A `Float64Array.from` of
   * the whole array wrote every page of it: issue 13's crafted 1.5 KB file took 3.96 GB that way.)
   */
  #widenSizes(sizes: Uint32Array, read: number): Float64Array {
    const wide = new Float64Array(sizes.length);
    wide.set(sizes.subarray(0, read));
    this.#nodeSelfSize = wide;
    return wide;
  }

  #finishNumbers(at: number): void {
    const layout = this.#layout!;
    const section = this.#section;
    if (section === Section.Edges) {
      const problem = this.#edgeFiller!.close(at);
      if (problem) this.#fail(problem.reason, problem.offset);
    } else if (section === Section.Nodes) {
      if (this.#count !== this.#expected) {
        this.#fail(`"nodes" has ${this.#count} values, expected ${this.#expected} (node_count ${layout.nodeCount} × ${layout.nodeFieldCount} fields)`, at);
      }
      if (this.#edgeCountSum !== layout.edgeCount) {
        this.#fail(`node edge counts add up to ${this.#edgeCountSum}, expected edge_count ${layout.edgeCount}`, at);
      }
    } else {
      const flat = this.#flat.subarray(0, this.#count);
      this.#flat = new Float64Array(0);
      if (this.#sectionName === 'trace_function_infos') this.#extras.traceFunctionInfos = flat.slice();
      else if (this.#sectionName === 'samples') this.#extras.samples = flat.slice();
      else if (flat.every((v) => v >= 0 && v <= 0xffffffff)) this.#extras.locations = new Uint32Array(flat);
      else this.#fail('"locations" holds a value that is not a 32-bit unsigned integer', at);
    }
    this.#state = State.AfterValue;
  }

  /** `[ "…", "…" ]`: each string is cut out byte-exactly; long ones stay in the file. */
  #parseStrings(chunk: Buffer, i: number, end: number): number {
    const base = this.#base;
    while (i < end) {
      if (this.#inString) {
        // To the closing quote: the next quote not escaped by a backslash, both found with indexOf
        // (native byte search; most of the section's bytes are in long strings that are not decoded).
        const from = i;
        let hasEscape = false;
        if (this.#strEscape || this.#hexLeft > 0) {
          hasEscape = true;
          i = this.#resumeEscape(chunk, i, end); // an escape begun at the end of the previous chunk
        }
        // The next quote is searched for again only once an escape has taken `i` past it: searching
        // from every escape made a string with many escapes quadratic (a fuzz case, an 8 MB string of
        // `\n`, took 11 s).
        let limit = -1;
        for (;;) {
          if (limit < i) {
            const quote = chunk.indexOf(QUOTE, i);
            limit = quote < 0 ? end : quote;
          }
          const backslash = this.#backslashAfter(chunk, i);
          if (backslash >= limit) {
            i = limit; // the closing quote, or the end of the chunk (the string goes on in the next)
            break;
          }
          hasEscape = true;
          if (backslash + 1 >= end) {
            this.#strEscape = true; // it escapes the next chunk's first byte
            i = end;
            break;
          }
          i = this.#checkEscape(chunk, backslash + 1, end);
        }
        if (i === end) {
          // The string continues in the next chunk.
          if (!this.#strLong) {
            this.#carry.push(chunk, from, end);
            if (this.#longFile !== undefined && this.#carry.length > LONG_STRING_BYTES) {
              this.#strLong = true;
              this.#carry.clear();
            }
          }
          return i;
        }
        const stringEnd = base + i;
        if (this.#strLong || (this.#longFile !== undefined && stringEnd - this.#strStart > LONG_STRING_BYTES)) {
          this.#strings.addLong(this.#strStart, stringEnd - this.#strStart);
          this.#carry.clear();
        } else if (this.#carry.length > 0) {
          this.#carry.push(chunk, from, i);
          this.#addInlineString(this.#carry.takeBytes(), this.#strStart);
        } else {
          this.#addDecoded(chunk, from, i, hasEscape, this.#strStart);
        }
        this.#inString = false;
        this.#strLong = false;
        this.#needComma = true;
        i++;
        continue;
      }
      const b = chunk[i]!;
      if (b === QUOTE) {
        if (this.#needComma) this.#fail('expected \',\' between strings in "strings"', base + i);
        this.#inString = true;
        this.#strEscape = false;
        this.#hexLeft = 0;
        this.#strStart = base + i + 1;
      } else if (b === COMMA) {
        if (!this.#needComma) this.#fail('unexpected \',\' in "strings"', base + i);
        this.#needComma = false;
      } else if (b === CLOSE_BRACKET) {
        this.#state = State.AfterValue;
        return i + 1;
      } else if (!isSpace(b)) {
        this.#fail(`expected a string in "strings", found ${describeByte(b)}`, base + i);
      }
      i++;
    }
    return i;
  }

  /**
   * Checks the escape whose letter is at `at` (the byte after a backslash) and returns the index after
   * what was checked: every escape is checked here, as the bytes pass, because long strings are not
   * decoded while parsing (a bad escape in one must still be a format error with its offset, not a
   * failure when the string is first read). `\u` needs four hex digits, which may run into the next chunk.
   */
  #checkEscape(chunk: Buffer, at: number, end: number): number {
    const c = chunk[at]!;
    if (c === 0x75) {
      this.#hexLeft = 4;
      return this.#takeHex(chunk, at + 1, end);
    }
    if (SIMPLE_ESCAPE[c] !== 1) this.#fail(`bad escape in string ${this.#strings.count}: backslash before ${describeByte(c)}`, this.#base + at - 1);
    return at + 1;
  }

  #takeHex(chunk: Buffer, i: number, end: number): number {
    while (this.#hexLeft > 0 && i < end) {
      if (HEX_DIGIT[chunk[i]!] !== 1) this.#fail(`bad \\u escape in string ${this.#strings.count}: ${describeByte(chunk[i]!)} is not a hex digit`, this.#base + i);
      this.#hexLeft--;
      i++;
    }
    return i;
  }

  #resumeEscape(chunk: Buffer, i: number, end: number): number {
    if (!this.#strEscape) return this.#takeHex(chunk, i, end);
    this.#strEscape = false;
    return this.#checkEscape(chunk, i, end);
  }

  /** The first backslash at or after `i` in this chunk (chunk.length when none), found once per stretch. */
  #backslashAfter(chunk: Buffer, i: number): number {
    let at = this.#nextBackslash;
    if (at < i) {
      at = chunk.indexOf(BACKSLASH, i);
      if (at < 0) at = chunk.length;
      this.#nextBackslash = at;
    }
    return at;
  }

  #addDecoded(chunk: Buffer, from: number, to: number, hasEscape: boolean, at: number): void {
    if (!hasEscape) {
      this.#strings.addBytes(chunk, from, to);
      return;
    }
    this.#addInlineString(chunk.subarray(from, to), at);
  }

  #addInlineString(bytes: Uint8Array, at: number): void {
    try {
      this.#strings.addDecoded(decodeJsonStringBytes(bytes, 0, bytes.length));
    } catch (e) {
      this.#fail(`bad string ${this.#strings.count}: ${(e as Error).message}`, at);
    }
  }

  /** Any JSON value, captured (meta, trace_tree) or skipped (unknown keys), by bracket depth. */
  #parseRaw(chunk: Buffer, i: number, end: number): number {
    const from = i;
    let done = false;
    for (; i < end; i++) {
      const b = chunk[i]!;
      if (this.#rawInString) {
        if (this.#rawEscape) this.#rawEscape = false;
        else if (b === BACKSLASH) this.#rawEscape = true;
        else if (b === QUOTE) {
          this.#rawInString = false;
          if (this.#rawDepth === 0) {
            i++;
            done = true; // a top-level string value
            break;
          }
        }
        continue;
      }
      if (b === QUOTE) {
        this.#rawInString = true;
      } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
        this.#rawDepth++;
      } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        if (this.#rawDepth === 0) {
          done = true; // the end of a top-level number/literal: leave the bracket to the structure
          break;
        }
        if (--this.#rawDepth === 0) {
          i++;
          done = true;
          break;
        }
      } else if (b === COMMA && this.#rawDepth === 0) {
        done = true;
        break;
      }
    }
    const section = this.#section;
    if (section === Section.Meta) {
      this.#carry.push(chunk, from, i);
      // V8's header is a few KB; it is parsed as one JSON value, so a huge one would cost many times its size.
      if (this.#carry.length > MAX_HEADER_BYTES) this.#fail(`"snapshot" is larger than ${MAX_HEADER_BYTES} bytes: not a heap snapshot header`, this.#rawStart + MAX_HEADER_BYTES);
    } else if (section === Section.Tree && this.#longFile === undefined) {
      this.#carry.push(chunk, from, i); // no file to read it back from: keep its bytes (trace-tree.ts)
    }
    if (done) this.#finishRaw(this.#base + i);
    return i;
  }

  #finishRaw(at: number): void {
    this.#state = State.AfterValue;
    if (this.#section === Section.Skip) return;
    if (this.#section === Section.Tree) {
      const offset = this.#rawStart;
      this.#traceTree = this.#longFile !== undefined
        ? { file: this.#longFile, offset, length: at - offset }
        : { bytes: Buffer.from(this.#carry.takeBytes()), offset };
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(this.#carry.takeString());
    } catch {
      this.#fail(`"${this.#sectionName}" is not valid JSON`, at);
    }
    const layout = readSnapshotMeta(value, (reason) => this.#fail(reason, at));
    const short = checkCountsFit(layout, this.#fileBytes - at);
    if (short) this.#fail(short, at);
    this.#layout = layout;
    this.#allocate(layout, at);
  }

  #allocate(layout: SnapshotLayout, at: number): void {
    if (BATCH_VALUES % layout.nodeFieldCount !== 0 || BATCH_VALUES % layout.edgeFieldCount !== 0) {
      this.#fail(`unsupported field counts (${layout.nodeFieldCount} per node, ${layout.edgeFieldCount} per edge)`, at);
    }
    const n = layout.nodeCount;
    const nf = layout.nodeFields;
    this.#nodeFieldAt = {
      type: nf.indexOf('type'), name: nf.indexOf('name'), id: nf.indexOf('id'), selfSize: nf.indexOf('self_size'),
      edgeCount: nf.indexOf('edge_count'), traceId: nf.indexOf('trace_node_id'), detachedness: nf.indexOf('detachedness'),
    };
    this.#nodeType = new Uint8Array(n);
    this.#nodeName = new Uint32Array(n);
    this.#nodeId = new Uint32Array(n);
    this.#nodeSelfSize = new Uint32Array(n);
    // Shared with a second thread's analyses (the retainer index) when edges are parsed on one.
    this.#firstEdge = new Uint32Array(byteBuffer(4 * (n + 1), this.#elsewhere !== undefined));
    if (layout.nodeFields.includes('trace_node_id')) this.#nodeTraceId = new Uint32Array(n);
    if (layout.nodeFields.includes('detachedness')) this.#nodeDetachedness = new Uint8Array(n);
    this.#allocateEdges(layout, this.#elsewhere !== undefined);
    this.#elsewhere?.begin(layout, this.#edges, at);
  }

  #allocateEdges(layout: SnapshotLayout, shared: boolean): void {
    const e = layout.edgeCount;
    this.#edges = {
      type: new Uint8Array(byteBuffer(e, shared)),
      name: new Uint32Array(byteBuffer(4 * e, shared)),
      target: new Uint32Array(byteBuffer(4 * e, shared)),
    };
    this.#edgeFiller = new EdgeFiller(edgeRecordLayout(layout), this.#edges);
  }

  /** Call after the last chunk; checks the file was whole and builds the graph. */
  finish(): HeapGraph {
    const at = this.#base;
    if (this.#state !== State.Done) {
      if (this.#base === 0) this.#fail('empty file', 0);
      this.#fail(`file ends early (${this.#describeTruncation()})`, at);
    }
    for (const key of ['nodes', 'edges', 'strings']) {
      if (!this.#seenKeys.has(key)) this.#fail(`no "${key}" section`, at);
    }
    if (this.edgesParsedElsewhere && !this.#edgesElsewhereAt.accepted) throw new Error('SnapshotParser: edges parsed elsewhere were not accepted');
    const layout = this.#layout!;
    const stringCount = this.#strings.count;
    if (this.#maxNameIndex >= stringCount) {
      this.#fail(`node name ${this.#maxNameIndex} is outside the ${stringCount} strings`, this.#maxNameOffset);
    }
    this.#checkEdgeNames(stringCount, layout);
    const firstEdge = this.#firstEdge;
    for (let i = 0; i < layout.nodeCount; i++) firstEdge[i + 1]! += firstEdge[i]!;
    const strings = this.#strings.build(this.#longFile);
    const extras: SnapshotExtras = { meta: layout.meta, ...this.#extras };
    if (this.#traceTree) defineTraceTree(extras, this.#traceTree, this.#label);
    return new HeapGraph({
      nodeTypeNames: layout.nodeTypeNames,
      edgeTypeNames: layout.edgeTypeNames,
      nodeType: this.#nodeType,
      nodeName: this.#nodeName,
      nodeId: this.#nodeId,
      nodeSelfSize: this.#nodeSelfSize,
      firstEdge,
      nodeDetachedness: this.#nodeDetachedness,
      nodeTraceId: this.#nodeTraceId,
      edgeType: this.#edges.type,
      edgeNameOrIndex: this.#edges.name,
      edgeTarget: this.#edges.target,
      strings,
      rootOrdinal: layout.rootOrdinal,
      extras,
    });
  }

  /**
   * Every string-named edge names a string of the table. The largest such index was kept while the
   * edges were stored; only when it is out of range are the edges walked, to name the first culprit.
   */
  #checkEdgeNames(stringCount: number, layout: SnapshotLayout): void {
    const maxName = this.edgesParsedElsewhere ? this.#edgesElsewhereAt.maxName : this.#edgeFiller!.maxName;
    if (maxName < stringCount) return;
    const records = edgeRecordLayout(layout);
    const { type: types, name: names } = this.#edges;
    for (let e = 0; e < types.length; e++) {
      if (namesString(records, types[e]!) && names[e]! >= stringCount) {
        this.#fail(`edge ${e} names string ${names[e]}, outside the ${stringCount} strings`, this.#base);
      }
    }
  }

  #describeTruncation(): string {
    switch (this.#state) {
      case State.Numbers:
        return this.#expected >= 0
          ? `inside "${this.#sectionName}" after ${this.#count + this.#scan.length} of ${this.#expected} values`
          : `inside "${this.#sectionName}"`;
      case State.Strings:
        return `inside "strings" after ${this.#strings.count} strings`;
      case State.Raw:
      case State.SkipEdges:
        return `inside "${this.#sectionName}"`;
      case State.BeforeTop:
        return 'no JSON object found';
      default:
        return this.#sectionName ? `after "${this.#sectionName}"` : 'in the header';
    }
  }
}
