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

function decodeEscaped(bytes: Uint8Array, start: number, end: number): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let out = '';
  let runStart = start;
  let i = start;
  while (i < end) {
    if (bytes[i] !== BACKSLASH) {
      i++;
      continue;
    }
    if (i > runStart) out += buf.toString('utf8', runStart, i);
    const c = bytes[i + 1];
    switch (c) {
      case 0x22: out += '"'; break;
      case 0x5c: out += '\\'; break;
      case 0x2f: out += '/'; break;
      case 0x62: out += '\b'; break;
      case 0x66: out += '\f'; break;
      case 0x6e: out += '\n'; break;
      case 0x72: out += '\r'; break;
      case 0x74: out += '\t'; break;
      case 0x75: {
        const code = parseHex4(bytes, i + 2, end);
        if (code < 0) throw new SyntaxError(`bad \\u escape at offset ${i - start} of a string`);
        out += String.fromCharCode(code);
        i += 6;
        runStart = i;
        continue;
      }
      default:
        throw new SyntaxError(`bad escape at offset ${i - start} of a string`);
    }
    i += 2;
    runStart = i;
  }
  if (end > runStart) out += buf.toString('utf8', runStart, end);
  return out;
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
