// The fuzzer's mutations of a valid snapshot: what a damaged disk, a cut download, a buggy writer or a
// hostile author could hand leakhunt. Each mutation is a pure function of the base bytes and the seeded
// random numbers, and says what it did (`kind`) so failures group into classes.

import type { Random } from './prng.js';

export interface Mutated {
  readonly kind: string;
  readonly bytes: Buffer;
}

/** Where the sections of a valid base file are (byte offsets), found once per base. */
export interface BaseLayout {
  readonly bytes: Buffer;
  /** The `{...}` value of "snapshot". */
  readonly header: Span;
  readonly nodes: Span;
  readonly edges: Span;
  readonly strings: Span;
  /** Top-level `"key":value` spans, from the key's quote to the end of its value. */
  readonly sections: readonly Span[];
  readonly nodeFields: number;
  readonly edgeFields: number;
  readonly nodeCount: number;
}

export interface Span {
  readonly start: number;
  readonly end: number;
}

const KEYS = ['snapshot', 'nodes', 'edges', 'trace_function_infos', 'trace_tree', 'samples', 'locations', 'strings'];

export function layoutOf(bytes: Buffer): BaseLayout {
  const text = bytes.toString('latin1');
  const keyAt = KEYS.map((k) => ({ key: k, at: text.indexOf(`"${k}":`) })).filter((k) => k.at >= 0).sort((a, b) => a.at - b.at);
  const closing = text.lastIndexOf('}');
  const sections = keyAt.map((k, i) => {
    const next = keyAt[i + 1];
    const end = next ? text.lastIndexOf(',', next.at) : closing;
    return { start: k.at, end };
  });
  const valueOf = (key: string): Span => {
    const i = keyAt.findIndex((k) => k.key === key);
    const s = sections[i]!;
    return { start: text.indexOf(':', s.start) + 1, end: s.end };
  };
  const header = valueOf('snapshot');
  const h = JSON.parse(text.slice(header.start, header.end)) as { meta: { node_fields: string[]; edge_fields: string[] }; node_count: number };
  return {
    bytes, header, nodes: valueOf('nodes'), edges: valueOf('edges'), strings: valueOf('strings'), sections,
    nodeFields: h.meta.node_fields.length, edgeFields: h.meta.edge_fields.length, nodeCount: h.node_count,
  };
}

function splice(bytes: Buffer, start: number, end: number, insert: Buffer | string): Buffer {
  return Buffer.concat([bytes.subarray(0, start), typeof insert === 'string' ? Buffer.from(insert, 'latin1') : insert, bytes.subarray(end)]);
}

const isDigit = (b: number | undefined): boolean => b !== undefined && b >= 0x30 && b <= 0x39;

/** A number token at or after a random point of `span`: [start, end), or undefined. */
function numberIn(r: Random, bytes: Buffer, span: Span): Span | undefined {
  if (span.end - span.start < 2) return undefined;
  let p = r.int(span.start, span.end);
  while (p < span.end && !isDigit(bytes[p])) p++;
  if (p >= span.end) return undefined;
  let start = p;
  while (start > span.start && isDigit(bytes[start - 1])) start--;
  let end = p;
  while (end < span.end && isDigit(bytes[end])) end++;
  return { start, end };
}

/** The `k`-th value of record `index` in a numbers section (`fields` values a record), or undefined. */
function recordField(bytes: Buffer, span: Span, fields: number, index: number, k: number): Span | undefined {
  let value = 0;
  const target = index * fields + k;
  let p = span.start + 1;
  while (p < span.end) {
    while (p < span.end && !isDigit(bytes[p])) p++;
    if (p >= span.end) return undefined;
    let end = p;
    while (end < span.end && isDigit(bytes[end])) end++;
    if (value === target) return { start: p, end };
    value++;
    p = end;
  }
  return undefined;
}

const HUGE = ['4294967295', '4294967296', '9007199254740991', '9007199254740993', '1' + '0'.repeat(30), '9'.repeat(400), '18446744073709551616'];
const NOT_NUMBERS = ['"x"', 'true', 'null', '1.5', '1e5', '0x10', '', '+1', 'NaN', 'Infinity', '[]', '{}', '1 2', '--1', '-', '0.0'];
const BYTES = [0x22, 0x5c, 0x2c, 0x5b, 0x5d, 0x7b, 0x7d, 0x3a, 0x2d, 0x30, 0x31, 0x39, 0x20, 0x0a, 0x00, 0xff, 0x80, 0xc3];
const INVALID_UTF8 = [[0xff], [0xc0, 0x80], [0x80], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]];
const COUNT_KEYS = ['node_count', 'edge_count', 'trace_function_count', 'root_index'];
const COUNT_VALUES = ['0', '1', '-1', '4294967295', '4294967296', '9007199254740993', '1e300', '"7"', 'null', '1.5', '500000000', '[]'];

type Mutator = (r: Random, b: BaseLayout) => Mutated;

const mutators: Record<string, Mutator> = {
  truncate: (r, b) => ({ kind: 'truncate', bytes: b.bytes.subarray(0, r.int(0, b.bytes.length)) }),

  flip: (r, b) => {
    const out = Buffer.from(b.bytes);
    const n = r.int(1, 9);
    for (let i = 0; i < n; i++) out[r.int(0, out.length)] = r.chance(0.6) ? r.pick(BYTES) : r.int(0, 256);
    return { kind: 'flip', bytes: out };
  },

  count: (r, b) => {
    const key = r.pick(COUNT_KEYS);
    const header = b.bytes.toString('latin1', b.header.start, b.header.end);
    const at = header.indexOf(`"${key}":`);
    const value = r.chance(0.3) ? String(r.int(0, 2 * b.nodeCount + 2)) : r.pick(COUNT_VALUES);
    if (at < 0) {
      // Add the key (root_index is optional).
      return { kind: 'count', bytes: splice(b.bytes, b.header.end - 1, b.header.end - 1, `,"${key}":${value}`) };
    }
    const start = b.header.start + at + key.length + 3;
    let end = start;
    while (end < b.header.end && b.bytes[end] !== 0x2c && b.bytes[end] !== 0x7d) end++;
    return { kind: 'count', bytes: splice(b.bytes, start, end, value) };
  },

  meta: (r, b) => {
    const header = JSON.parse(b.bytes.toString('utf8', b.header.start, b.header.end)) as Record<string, unknown>;
    const meta = header['meta'] as Record<string, unknown[]>;
    const fieldsKey = r.pick(['node_fields', 'edge_fields', 'location_fields']);
    const typesKey = r.pick(['node_types', 'edge_types']);
    const fields = [...(meta[fieldsKey] ?? [])];
    const types = [...(meta[typesKey] ?? [])];
    const change = r.int(0, 12);
    switch (change) {
      case 0: fields.splice(r.int(0, fields.length), 1); meta[fieldsKey] = fields; break;
      case 1: fields.push(r.pick(['extra', 'type', 'id'])); meta[fieldsKey] = fields; break;
      case 2: fields.reverse(); meta[fieldsKey] = fields; break;
      case 3: meta[fieldsKey] = r.pick([[], 'type', [1, 2, 3], null]) as unknown[]; break;
      case 4: types[0] = []; meta[typesKey] = types; break;
      case 5: types[0] = Array.from({ length: r.pick([255, 256, 257, 5000]) }, (_, i) => `t${i}`); meta[typesKey] = types; break;
      case 6: types[0] = r.pick([7, 'string', [1, 2], null]); meta[typesKey] = types; break;
      case 7: delete meta[r.pick(['node_fields', 'edge_fields', 'node_types', 'edge_types', 'location_fields'])]; break;
      case 8: header['meta'] = r.pick([[], null, 1, 'meta']); break;
      case 9: fields.push(...Array.from({ length: r.int(1, 300) }, (_, i) => `f${i}`)); meta[fieldsKey] = fields; break;
      case 10: types.unshift('shifted'); meta[typesKey] = types; break;
      default: meta[fieldsKey] = fields.map((f) => (r.chance(0.3) ? String(f).toUpperCase() : f));
    }
    return { kind: `meta`, bytes: splice(b.bytes, b.header.start, b.header.end, Buffer.from(JSON.stringify(header))) };
  },

  nesting: (r, b) => {
    const depth = r.pick([100, 10_000, 200_000, 1_000_000]);
    const balanced = r.chance(0.7);
    const value = '['.repeat(depth) + (balanced ? ']'.repeat(depth) : '');
    const where = r.int(0, 4);
    if (where === 0) { // an unknown top-level key
      return { kind: 'nesting', bytes: splice(b.bytes, b.strings.start - '"strings":'.length, b.strings.start - '"strings":'.length, `"deep":${value},\n`) };
    }
    if (where === 1) { // inside meta
      return { kind: 'nesting', bytes: splice(b.bytes, b.header.start + 1, b.header.start + 1, `"deep":${value},`) };
    }
    if (where === 2) { // trace_tree's value
      const tree = b.sections.find((s) => b.bytes.toString('latin1', s.start, s.start + 12) === '"trace_tree"');
      if (tree) {
        const at = b.bytes.indexOf(':', tree.start) + 1;
        return { kind: 'nesting', bytes: splice(b.bytes, at, tree.end, value) };
      }
    }
    const p = r.int(b.nodes.start + 1, b.nodes.end);
    return { kind: 'nesting', bytes: splice(b.bytes, p, p, value) };
  },

  huge: (r, b) => numberMutation(r, b, 'huge', () => r.pick(HUGE)),
  negative: (r, b) => numberMutation(r, b, 'negative', (old) => r.pick([`-${old}`, '-0', '-1', '-4294967296'])),
  'non-number': (r, b) => numberMutation(r, b, 'non-number', () => r.pick(NOT_NUMBERS)),

  'node-field': (r, b) => {
    const k = r.int(0, b.nodeFields);
    const field = recordField(b.bytes, b.nodes, b.nodeFields, r.int(0, Math.min(b.nodeCount, 400)), k);
    if (!field) return mutators['flip']!(r, b);
    const old = Number(b.bytes.toString('latin1', field.start, field.end));
    const value = r.pick([old + 1, Math.max(old - 1, 0), 255, 256, 65535, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 5 * 2 ** 32, r.int(0, 100_000)]);
    return { kind: 'node-field', bytes: splice(b.bytes, field.start, field.end, String(value)) };
  },

  'edge-field': (r, b) => {
    const k = r.int(0, b.edgeFields);
    const field = recordField(b.bytes, b.edges, b.edgeFields, r.int(0, 400), k);
    if (!field) return mutators['flip']!(r, b);
    const old = Number(b.bytes.toString('latin1', field.start, field.end));
    const limit = b.nodeCount * b.nodeFields;
    const value = r.pick([old + 1, Math.max(old - 1, 0), limit, limit - 1, limit + b.nodeFields, 7, 2 ** 32 - 1, 2 ** 32, r.int(0, limit)]);
    return { kind: 'edge-field', bytes: splice(b.bytes, field.start, field.end, String(value)) };
  },

  'dup-section': (r, b) => {
    const s = r.pick(b.sections);
    const copy = b.bytes.subarray(s.start, s.end);
    const other = r.pick(b.sections);
    return { kind: 'dup-section', bytes: splice(b.bytes, other.start, other.start, Buffer.concat([copy, Buffer.from(',\n')])) };
  },

  'missing-section': (r, b) => {
    const i = r.int(0, b.sections.length);
    const s = b.sections[i]!;
    // Take the comma after it too (or before it, for the last one), so the rest stays well-formed.
    const start = i === b.sections.length - 1 && i > 0 ? b.sections[i - 1]!.end : s.start;
    const end = i === b.sections.length - 1 ? s.end : b.sections[i + 1]!.start;
    return { kind: 'missing-section', bytes: splice(b.bytes, start, end, '') };
  },

  'garbage-string': (r, b) => {
    const p = stringStart(r, b);
    const garbage = Buffer.from(Array.from({ length: r.int(1, 200) }, () => (r.chance(0.3) ? r.pick(BYTES) : r.int(0, 256))));
    return { kind: 'garbage-string', bytes: splice(b.bytes, p, p + r.int(0, 20), garbage) };
  },

  'invalid-utf8': (r, b) => {
    const inMeta = r.chance(0.2);
    const p = inMeta ? b.bytes.indexOf('"', b.header.start + 2) + 1 : stringStart(r, b);
    return { kind: 'invalid-utf8', bytes: splice(b.bytes, p, p, Buffer.from(r.pick(INVALID_UTF8))) };
  },

  'long-string': (r, b) => {
    const length = r.pick([63, 64, 65, 4096, 1 << 20, 8 << 20]);
    const unit = r.pick(['a', '\\n', '\\u00e9', '\\"', 'é', '\\\\']);
    let text = unit.repeat(Math.ceil(length / unit.length));
    const terminated = r.chance(0.85);
    if (!terminated) return { kind: 'long-string', bytes: Buffer.concat([b.bytes.subarray(0, b.strings.start + 2), Buffer.from(text)]) };
    if (r.chance(0.2)) text += '\\'; // a backslash escaping the closing quote
    const p = stringStart(r, b);
    const close = b.bytes.indexOf('"', p);
    return { kind: 'long-string', bytes: splice(b.bytes, p, close, text) };
  },

  'bad-escape': (r, b) => {
    const p = stringStart(r, b);
    return { kind: 'bad-escape', bytes: splice(b.bytes, p, p, r.pick(['\\x', '\\u12G4', '\\u12', '\\', '\\\n', '\\U0041', '\\ud800', '\\udc00\\ud800'])) };
  },

  whitespace: (r, b) => {
    const out: Buffer[] = [];
    let last = 0;
    const n = r.int(1, 20);
    const points = Array.from({ length: n }, () => {
      const p = b.bytes.indexOf(',', r.int(0, b.bytes.length));
      return p < 0 ? b.bytes.length : p + 1;
    }).sort((x, y) => x - y);
    for (const p of points) {
      out.push(b.bytes.subarray(last, p), Buffer.from(r.pick([' ', '\n', '\r\n', '\t', ' '.repeat(5000)])));
      last = p;
    }
    out.push(b.bytes.subarray(last));
    return { kind: 'whitespace', bytes: Buffer.concat(out) };
  },

  'copy-range': (r, b) => {
    const from = r.int(0, b.bytes.length);
    const to = Math.min(b.bytes.length, from + r.int(1, 4096));
    const at = r.int(0, b.bytes.length);
    return { kind: 'copy-range', bytes: splice(b.bytes, at, r.chance(0.5) ? at : Math.min(b.bytes.length, at + (to - from)), b.bytes.subarray(from, to)) };
  },

  'delete-range': (r, b) => {
    const from = r.int(0, b.bytes.length);
    return { kind: 'delete-range', bytes: splice(b.bytes, from, Math.min(b.bytes.length, from + r.int(1, 64)), '') };
  },
};

function numberMutation(r: Random, b: BaseLayout, kind: string, value: (old: string) => string): Mutated {
  const span = r.pick([b.nodes, b.nodes, b.edges, b.edges, ...b.sections.filter((s) => s !== b.sections[0])]);
  const n = numberIn(r, b.bytes, span);
  if (!n) return mutators['flip']!(r, b);
  return { kind, bytes: splice(b.bytes, n.start, n.end, value(b.bytes.toString('latin1', n.start, n.end))) };
}

/** The byte just after a random string's opening quote in "strings". */
function stringStart(r: Random, b: BaseLayout): number {
  const q = b.bytes.indexOf('"', r.int(b.strings.start, b.strings.end - 1));
  return q < 0 || q >= b.strings.end ? b.strings.start + 2 : q + 1;
}

export const MUTATION_KINDS = Object.keys(mutators);

/** One case: one mutation, or (one time in six) two or three applied in turn. */
export function mutate(r: Random, base: BaseLayout): Mutated {
  const m = mutators[r.pick(MUTATION_KINDS)]!(r, base);
  if (!r.chance(1 / 6)) return m;
  const kinds = [m.kind];
  let bytes = m.bytes;
  for (let i = r.int(1, 3); i > 0; i--) {
    let next: Mutated;
    try {
      next = mutators[r.pick(MUTATION_KINDS)]!(r, layoutOf(bytes));
    } catch {
      // The earlier mutation broke what this one reads (the header's JSON, a section's place; a nested
      // header too deep to stringify): keep what was made so far.
      break;
    }
    kinds.push(next.kind);
    bytes = next.bytes;
  }
  return { kind: kinds.join('+'), bytes };
}
