// Decoding the inside of a JSON string literal (between the quotes) from raw bytes: UTF-8 text plus
// JSON escapes, `\uXXXX` included. UTF-16 surrogate pairs written as two escapes combine by
// themselves, because JS strings are UTF-16; a lone surrogate (V8 writes those too) is kept as is.

const BACKSLASH = 0x5c;

/** Buffer's own slice decoders (public on Buffer.prototype, untyped): no argument checks per call. */
interface FastSlices {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

/** JSON whitespace. */
export function isSpace(b: number | undefined): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

export function decodeJsonStringBytes(bytes: Uint8Array, start: number, end: number): string {
  let plainAscii = true;
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b === BACKSLASH) return decodeEscaped(bytes, start, end);
    if (b >= 0x80) plainAscii = false;
  }
  const buf = (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) as unknown as FastSlices;
  return plainAscii ? buf.latin1Slice(start, end) : buf.utf8Slice(start, end);
}

/**
 * A string with escapes, transcoded to UTF-8 bytes in one buffer and decoded once: the output is never
 * longer than the input (an escape is at least as long as what it stands for). Appending piece by piece
 * built a rope of one node per escape: a crafted 4 M-escape name took 360 MiB and 17 s to read (fuzz
 * seed 1813134175, case 700). A lone surrogate has no UTF-8 form: the text is cut there and the
 * surrogate joined in as its own one-unit string, so even a file of nothing else stays linear.
 */
function decodeEscaped(bytes: Uint8Array, start: number, end: number): string {
  const out = outputFor(end - start);
  let parts: string[] | undefined; // only for a lone surrogate: most strings decode in one slice
  let n = 0;
  let i = start;
  while (i < end) {
    const b = bytes[i]!;
    if (b !== BACKSLASH) {
      out[n++] = b;
      i++;
      continue;
    }
    const c = bytes[i + 1];
    const simple = c === undefined ? -1 : SIMPLE_ESCAPES[c]!;
    if (simple >= 0) {
      out[n++] = simple;
      i += 2;
      continue;
    }
    if (c !== 0x75) throw new SyntaxError(`bad escape at offset ${i - start} of a string`);
    let code = parseHex4(bytes, i + 2, end);
    if (code < 0) throw new SyntaxError(`bad \\u escape at offset ${i - start} of a string`);
    i += 6;
    if (code >= 0xd800 && code <= 0xdbff && bytes[i] === BACKSLASH && bytes[i + 1] === 0x75) {
      const low = parseHex4(bytes, i + 2, end);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        i += 6;
      }
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      parts ??= [];
      if (n > 0) parts.push(out.utf8Slice(0, n));
      n = 0;
      parts.push(String.fromCharCode(code));
    } else n = putUtf8(out, n, code);
  }
  if (parts === undefined) return out.utf8Slice(0, n);
  if (n > 0) parts.push(out.utf8Slice(0, n));
  return parts.join('');
}

/** What a one-letter escape stands for (its byte), -1 for the rest; `\u` is handled apart. */
const SIMPLE_ESCAPES = new Int16Array(256).fill(-1);
for (const [letter, byte] of [['"', 0x22], ['\\', 0x5c], ['/', 0x2f], ['b', 0x08], ['f', 0x0c], ['n', 0x0a], ['r', 0x0d], ['t', 0x09]] as const) {
  SIMPLE_ESCAPES[letter.charCodeAt(0)] = byte;
}

/** One scratch buffer for ordinary strings; a string over 1 MiB gets its own (not kept). */
const SCRATCH_LIMIT = 1 << 20;
let scratch = Buffer.allocUnsafe(4096) as Buffer & FastSlices;

function outputFor(length: number): Buffer & FastSlices {
  if (length > SCRATCH_LIMIT) return Buffer.allocUnsafe(length) as Buffer & FastSlices;
  if (scratch.length < length) scratch = Buffer.allocUnsafe(Math.max(length, scratch.length * 2)) as Buffer & FastSlices;
  return scratch;
}

/** Writes `code` (not a surrogate) as UTF-8 at `n`; returns the index after it. */
function putUtf8(out: Buffer, n: number, code: number): number {
  if (code < 0x80) {
    out[n++] = code;
  } else if (code < 0x800) {
    out[n++] = 0xc0 | (code >> 6);
    out[n++] = 0x80 | (code & 0x3f);
  } else if (code < 0x10000) {
    out[n++] = 0xe0 | (code >> 12);
    out[n++] = 0x80 | ((code >> 6) & 0x3f);
    out[n++] = 0x80 | (code & 0x3f);
  } else {
    out[n++] = 0xf0 | (code >> 18);
    out[n++] = 0x80 | ((code >> 12) & 0x3f);
    out[n++] = 0x80 | ((code >> 6) & 0x3f);
    out[n++] = 0x80 | (code & 0x3f);
  }
  return n;
}

function parseHex4(bytes: Uint8Array, at: number, end: number): number {
  if (at + 4 > end) return -1;
  let v = 0;
  for (let k = 0; k < 4; k++) {
    const b = bytes[at + k]!;
    let d: number;
    if (b >= 0x30 && b <= 0x39) d = b - 0x30;
    else if (b >= 0x61 && b <= 0x66) d = b - 0x57;
    else if (b >= 0x41 && b <= 0x46) d = b - 0x37;
    else return -1;
    v = v * 16 + d;
  }
  return v;
}
