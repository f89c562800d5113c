// `JSON.stringify(value, null, 2)` in pieces: the same text, but a large array is written element by
// element, so a result with millions of rows is never one string (V8 caps a string at ~512 MB). Small
// values (arrays under SMALL elements, objects, primitives) go through JSON.stringify itself, re-indented
// to their depth, so the text is exactly JSON.stringify's. Results are plain data (no toJSON, no cycles).

const SMALL = 1000;

function indented(value: unknown, pad: string): string | undefined {
  const text = JSON.stringify(value, null, 2) as string | undefined;
  return text === undefined || pad === '' ? text : text.replace(/\n/g, `\n${pad}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** Whether the value holds an array large enough to be worth writing in pieces. */
function hasLargeArray(value: unknown, depth = 0): boolean {
  if (Array.isArray(value)) return value.length >= SMALL || (depth < 4 && value.some((v) => hasLargeArray(v, depth + 1)));
  if (isPlainObject(value) && depth < 4) return Object.values(value).some((v) => hasLargeArray(v, depth + 1));
  return false;
}

function* chunks(value: unknown, pad: string): Generator<string> {
  if (!hasLargeArray(value)) {
    yield indented(value, pad) ?? 'null';
    return;
  }
  const inner = `${pad}  `;
  if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      yield `${i === 0 ? '' : ','}\n${inner}`;
      const v: unknown = value[i];
      // JSON.stringify writes null for what it cannot show inside an array.
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') yield 'null';
      else yield* chunks(v, inner);
    }
    yield `\n${pad}]`;
    return;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(
    ([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol',
  );
  if (entries.length === 0) {
    yield '{}';
    return;
  }
  yield '{';
  for (let i = 0; i < entries.length; i++) {
    const [k, v] = entries[i]!;
    yield `${i === 0 ? '' : ','}\n${inner}${JSON.stringify(k)}: `;
    yield* chunks(v, inner);
  }
  yield `\n${pad}}`;
}

/** The pieces of `JSON.stringify(value, null, 2)`, in order. */
export function jsonChunks(value: unknown): Generator<string> {
  return chunks(value, '');
}
