// A pool of large buffers that the analysis phases pass along instead of allocating afresh. On a 10M-node
// heap each per-node Uint32Array is 40 MB, and first-touching fresh memory costs far more than reusing
// memory the process already holds (measured here: ~5 ms per MB on first touch, under 0.1 ms on reuse;
// allocations past glibc's mmap threshold are always fresh). So temporaries are taken from the pool and
// given back, and a phase's output may be a recycled buffer that simply is never given back.
// Views handed out are zero-filled: recycled buffers are cleared, fresh ones are zero already and are
// left untouched, so pages a phase never writes (the unused end of a stack) never become resident.
// Giving a view back returns its whole buffer (both views of a pair): only give back what is no longer
// used. Pairs exist so that two per-node Uint32Arrays, once given back, make room for one per-node
// Float64Array.

import { byteBuffer } from '../snapshot/buffers.js';

type Bytes = ArrayBuffer | SharedArrayBuffer;

/** Fresh buffers from this size up are rounded up to a multiple of ROUND_TO. */
const ROUND_FROM = 1 << 20;
const ROUND_TO = 1 << 16;

export class Scratch {
  readonly #free: Bytes[] = [];
  readonly #shared: boolean;

  /** `shared`: fresh buffers are SharedArrayBuffers (a worker's pool, handed back to the main thread's). */
  constructor(options: { shared?: boolean } = {}) {
    this.#shared = options.shared === true;
  }

  /**
   * A zero-filled Uint32Array of `length`, on a pooled buffer when one is large enough. `anySize`: on
   * the smallest pooled buffer that fits however much larger (a pair's), for a temporary that nothing
   * larger will be asked for beside (the last ones of a graph's life).
   */
  u32(length: number, options: { anySize?: boolean } = {}): Uint32Array {
    return new Uint32Array(this.#take(length * 4, options.anySize === true), 0, length);
  }

  /** Two zero-filled Uint32Arrays of `length` on one buffer (given back together). */
  u32Pair(length: number): [Uint32Array, Uint32Array] {
    const buffer = this.#take(length * 8);
    return [new Uint32Array(buffer, 0, length), new Uint32Array(buffer, length * 4, length)];
  }

  /** A zero-filled Float64Array of `length`, on a pooled buffer when one is large enough. */
  f64(length: number): Float64Array {
    return new Float64Array(this.#take(length * 8), 0, length);
  }

  /** A zero-filled Uint8Array of `length`, on a pooled buffer when one is large enough (`anySize`: as for u32). */
  u8(length: number, options: { anySize?: boolean } = {}): Uint8Array {
    return new Uint8Array(this.#take(length, options.anySize === true), 0, length);
  }

  /** Returns the buffers behind these views to the pool. */
  give(...views: ArrayBufferView[]): void {
    for (const v of views) {
      const buffer = v.buffer;
      if ((buffer instanceof ArrayBuffer || buffer instanceof SharedArrayBuffer) && buffer.byteLength > 0 && !this.#free.includes(buffer)) {
        this.#free.push(buffer);
      }
    }
  }

  /** Bytes currently pooled. */
  get pooledBytes(): number {
    return this.#free.reduce((sum, b) => sum + b.byteLength, 0);
  }

  /** Drops every pooled buffer (they are freed with the last view on them). */
  clear(): void {
    this.#free.length = 0;
  }

  /** Views over every pooled buffer, and the pool emptied (to give them to another pool). */
  drain(): Uint8Array[] {
    return this.#free.splice(0).map((b) => new Uint8Array(b));
  }

  /** `bytes` zero bytes at the start of a buffer: a pooled one cleared, or a fresh one (zero already, left untouched). */
  #take(bytes: number, anySize = false): Bytes {
    let best = -1;
    for (let i = 0; i < this.#free.length; i++) {
      const size = this.#free[i]!.byteLength;
      if (size >= bytes && (best < 0 || size < this.#free[best]!.byteLength)) best = i;
    }
    // A request far smaller than every pooled buffer gets its own, so the big ones stay available.
    if (best < 0 || (!anySize && this.#free[best]!.byteLength > 2 * bytes)) {
      // Rounded up, so that per-node arrays of nodeCount and nodeCount + 1 entries (dominators number
      // vertices from 1) can stand in for one another.
      const size = bytes < ROUND_FROM ? bytes : Math.ceil(bytes / ROUND_TO) * ROUND_TO;
      return byteBuffer(size, this.#shared);
    }
    const [buffer] = this.#free.splice(best, 1);
    new Uint8Array(buffer!, 0, bytes).fill(0);
    return buffer!;
  }
}
