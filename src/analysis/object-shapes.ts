// Grouping plain objects (type `object`, name `Object`) by *shape*: the sequence of their `property`
// edge names, in edge order, `__proto__` included. Objects of one V8 hidden class share a shape, so a
// heap with millions of plain objects has a few thousand shapes, and everything derived from property
// names (the `{a, b, c}` class names of interface-names.ts) is computed once per shape, not per object.
// Shapes are hash-consed on the name indexes with no string built per object; ids are given in order of
// first appearance (by ordinal), so shape 0 is the shape of the lowest-ordinal plain object.

import type { HeapGraph } from '../snapshot/heap-graph.js';

export interface ObjectShapes {
  readonly count: number;
  /** The lowest-ordinal object of each shape: its property edges are the shape. */
  readonly firstNode: Uint32Array;
  /** How many objects have each shape. */
  readonly objectCount: Float64Array;
}

export class ObjectShapeTable {
  readonly #graph: HeapGraph;
  readonly #property: number;
  readonly #byHash = new Map<number, number>();
  #first = new Uint32Array(256);
  #objects = new Float64Array(256);
  #nextWithHash = new Int32Array(256);
  #count = 0;

  constructor(graph: HeapGraph) {
    this.#graph = graph;
    this.#property = graph.edgeTypes.property;
  }

  /** The shape id of plain object `n`, adding the shape when it is new. */
  add(n: number): number {
    const h = this.#hash(n);
    const head = this.#byHash.get(h);
    for (let s = head ?? -1; s !== -1; s = this.#nextWithHash[s]!) {
      if (this.#sameProperties(this.#first[s]!, n)) {
        this.#objects[s]!++;
        return s;
      }
    }
    const s = this.#count++;
    if (s === this.#first.length) this.#grow();
    this.#first[s] = n;
    this.#objects[s] = 1;
    this.#nextWithHash[s] = head ?? -1;
    this.#byHash.set(h, s);
    return s;
  }

  result(): ObjectShapes {
    return {
      count: this.#count,
      firstNode: this.#first.slice(0, this.#count),
      objectCount: this.#objects.slice(0, this.#count),
    };
  }

  /** Property edge names of `n` in edge order (the shape's definition). */
  static propertyNames(graph: HeapGraph, n: number): string[] {
    const { firstEdge, edgeType, edgeNameOrIndex, strings } = graph;
    const property = graph.edgeTypes.property;
    const names: string[] = [];
    for (let e = firstEdge[n]!, end = firstEdge[n + 1]!; e < end; e++) {
      if (edgeType[e] === property) names.push(strings.get(edgeNameOrIndex[e]!));
    }
    return names;
  }

  /** Two 26-bit multiplicative hashes of the name indexes, combined into one exact double. */
  #hash(n: number): number {
    const { firstEdge, edgeType, edgeNameOrIndex } = this.#graph;
    let a = 0x9e3779b9 | 0;
    let b = 0x85ebca6b | 0;
    for (let e = firstEdge[n]!, end = firstEdge[n + 1]!; e < end; e++) {
      if (edgeType[e] !== this.#property) continue;
      const v = edgeNameOrIndex[e]!;
      a = Math.imul(a ^ v, 0x01000193);
      b = Math.imul((b + v) ^ (b >>> 15), 0x2c1b3c6d);
    }
    return (a >>> 6) * 0x4000000 + (b >>> 6);
  }

  #sameProperties(x: number, y: number): boolean {
    const { firstEdge, edgeType, edgeNameOrIndex } = this.#graph;
    const p = this.#property;
    let i = firstEdge[x]!;
    let j = firstEdge[y]!;
    const iEnd = firstEdge[x + 1]!;
    const jEnd = firstEdge[y + 1]!;
    for (;;) {
      while (i < iEnd && edgeType[i] !== p) i++;
      while (j < jEnd && edgeType[j] !== p) j++;
      if (i === iEnd || j === jEnd) return i === iEnd && j === jEnd;
      if (edgeNameOrIndex[i] !== edgeNameOrIndex[j]) return false;
      i++;
      j++;
    }
  }

  #grow(): void {
    const size = this.#first.length * 2;
    const first = new Uint32Array(size);
    first.set(this.#first);
    const objects = new Float64Array(size);
    objects.set(this.#objects);
    const next = new Int32Array(size);
    next.set(this.#nextWithHash);
    this.#first = first;
    this.#objects = objects;
    this.#nextWithHash = next;
  }
}
