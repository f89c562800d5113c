// A growable byte buffer for the few tokens that straddle a chunk boundary (keys, strings, the meta
// object, the trace tree). Reused across tokens so a boundary costs a copy, not an allocation.

export class ByteCarry {
  #bytes = Buffer.allocUnsafe(4096);
  #length = 0;

  get length(): number {
    return this.#length;
  }

  pushByte(b: number): void {
    this.#reserve(1);
    this.#bytes[this.#length++] = b;
  }

  push(chunk: Uint8Array, from: number, to: number): void {
    const n = to - from;
    if (n <= 0) return;
    this.#reserve(n);
    this.#bytes.set(chunk.subarray(from, to), this.#length);
    this.#length += n;
  }

  /** The bytes so far (a view valid until the next push), and empties the carry. */
  takeBytes(): Uint8Array {
    const view = this.#bytes.subarray(0, this.#length);
    this.#length = 0;
    return view;
  }

  takeString(): string {
    const s = this.#bytes.toString('utf8', 0, this.#length);
    this.#length = 0;
    return s;
  }

  clear(): void {
    this.#length = 0;
  }

  #reserve(n: number): void {
    if (this.#length + n <= this.#bytes.length) return;
    let size = this.#bytes.length * 2;
    while (size < this.#length + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.#bytes.copy(next, 0, 0, this.#length);
    this.#bytes = next;
  }
}
