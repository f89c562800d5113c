// One snapshot reduced to live objects per retainer-path signature, for series whose object ids do not
// line up (one process across inspector sessions, or two instances of one service): signatures are ids
// of one graph (path-signatures.ts), so each is turned into a text once per snapshot — its comparison
// key (signature-keys.ts: the path up to its first shared holder), read off its first member — and the
// text into a series-wide id (SignatureTexts), and counts compare by that.
//
// Cost: one PathSignatures.signatureOf per counted reachable object, all in one pass (computeEvery; no
// string per object), then one key per distinct signature. What is kept per snapshot is two Float64Arrays over the series'
// signatures; the newest snapshot also keeps its SignatureIndex, to find the members of a signature there.
// Counted objects are those the class summary counts (DevTools' self size > 0), when reachable: an
// unreachable object has no path, so no signature.

import type { HeapAnalysis } from '../heap-analysis.js';
import { hopName, PathSignatures } from '../path-signatures.js';
import { RetainerPaths } from '../retainer-paths.js';
import { comparisonKey } from './signature-keys.js';

/** Signature texts interned across every snapshot of a series, so ids compare between snapshots. */
export class SignatureTexts {
  readonly texts: string[] = [];
  /** Per id: the class of the objects at its start (hopName, as the group's className; sameClass). */
  readonly classes: string[] = [];
  readonly #ids = new Map<string, number>();

  idOf(text: string, className: string): number {
    let id = this.#ids.get(text);
    if (id === undefined) {
      id = this.texts.push(text) - 1;
      this.classes.push(className);
      this.#ids.set(text, id);
    }
    return id;
  }
}

export interface SignatureCounts {
  /** Per series signature id: live objects and their self sizes (ids past the end: none). */
  readonly count: Float64Array;
  readonly size: Float64Array;
}

/** One graph's signatures, kept for the newest snapshot of a series. */
export interface SignatureIndex {
  readonly analysis: HeapAnalysis;
  readonly paths: RetainerPaths;
  readonly signatures: PathSignatures;
  /** Graph signature id → series signature id. */
  readonly seriesOf: Int32Array;
}

export function countBySignature(analysis: HeapAnalysis, texts: SignatureTexts): { counts: SignatureCounts; index: SignatureIndex } {
  const { nodeCount } = analysis.graph;
  const selfSizes = analysis.selfSizes;
  const paths = new RetainerPaths(analysis);
  const signatures = new PathSignatures(analysis, paths);
  let localCount: Float64Array = new Float64Array(4096);
  let localSize: Float64Array = new Float64Array(4096);
  let firstMember: Int32Array = new Int32Array(4096);
  let localEnd = 0;
  const counted = (n: number): boolean => selfSizes[n] !== 0 && paths.isReachable(n);
  signatures.computeEvery(counted);
  for (let n = 0; n < nodeCount; n++) {
    if (!counted(n)) continue;
    const self = selfSizes[n]!;
    const s = signatures.signatureOf(n);
    if (s < 0) continue;
    if (s >= localCount.length) {
      localCount = grow(localCount, s);
      localSize = grow(localSize, s);
      firstMember = grow(firstMember, s);
    }
    if (localCount[s] === 0) firstMember[s] = n;
    localCount[s]!++;
    localSize[s]! += self;
    if (s >= localEnd) localEnd = s + 1;
  }
  // Keys of the signatures that hold objects; graph signatures that differ only above the cut share a
  // key, and then add up.
  const seriesOf = new Int32Array(localEnd).fill(-1);
  for (let s = 0; s < localEnd; s++) {
    if (localCount[s]! > 0) seriesOf[s] = texts.idOf(comparisonKey(analysis, paths, firstMember[s]!), sameClass(hopName(analysis, firstMember[s]!)));
  }
  const count = new Float64Array(texts.texts.length);
  const size = new Float64Array(texts.texts.length);
  for (let s = 0; s < localEnd; s++) {
    const id = seriesOf[s]!;
    if (id < 0) continue;
    count[id]! += localCount[s]!;
    size[id]! += localSize[s]!;
  }
  return { counts: { count, size }, index: { analysis, paths, signatures, seriesOf } };
}

/**
 * One name for a class in every process: a plain object's `{a, b, c}` lists its properties in edge order,
 * and the edge order of a dictionary-mode object is its hash table's, seeded per process (the package.json
 * cache entries of Node read `{pjsonPath, exists, name, …}` in one process and `{type, pjsonPath, main, …}`
 * in another), so the properties are sorted here. Other names are their own.
 */
export function sameClass(name: string): string {
  if (!name.startsWith('{') || !name.endsWith('}')) return name;
  return `{${name.slice(1, -1).split(', ').sort().join(', ')}}`;
}

/** The series id of a node's signature in the graph of `index`, or -1 (not counted, or unreachable). */
export function seriesSignatureOf(index: SignatureIndex, ordinal: number): number {
  if (index.analysis.selfSizes[ordinal] === 0 || !index.paths.isReachable(ordinal)) return -1;
  const s = index.signatures.signatureOf(ordinal);
  return s < 0 || s >= index.seriesOf.length ? -1 : index.seriesOf[s]!;
}

function grow<T extends Float64Array | Int32Array>(array: T, index: number): T {
  let length = array.length;
  while (length <= index) length *= 2;
  const out = new (array.constructor as new (length: number) => T)(length);
  out.set(array);
  return out;
}
