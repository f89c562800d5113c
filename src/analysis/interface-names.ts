// Class names for plain objects, the way recent DevTools shows them: `{id, name, children}` instead of
// one huge `Object` row. Semantics of HeapSnapshot.inferInterfaceDefinitions + applyInterfaceDefinitions
// (Chrome DevTools HeapSnapshot.ts), computed here per shape (object-shapes.ts) instead of per object:
// 1. Each plain object proposes a name from its `property` edges in edge order, `__proto__` skipped:
//    `{a, b, c}`; names with `,`, quotes or braces are written as JSON strings; past 120 characters
//    no further property is added (the first always is). No properties, no proposal.
// 2. Proposals are ranked by how many objects made them (ties: first seen by ordinal); those made by at
//    least 2 objects and by at least 1 in 1000 plain objects become definitions, each the list of
//    properties its name shows (no long tail of one-off shapes).
// 3. Every plain object is named after the definition with the most properties that are all among its
//    own property names (ties: the higher-ranked one); with none, it stays `Object`.
// Invariant: a returned name is `Object` or one of the definitions' names, with property names that may
// be data shown as `<key, N chars>` (redact.ts): the definitions are made on the real names, so what is
// grouped is what DevTools groups; two definitions that then read the same share a class.

import type { HeapGraph } from '../snapshot/heap-graph.js';
import { ObjectShapeTable, type ObjectShapes } from './object-shapes.js';
import { shownKey } from './redact.js';

const MAX_NAME_LENGTH = 120;
const MIN_OBJECTS = 2;
const MIN_SHARE_OF_OBJECTS = 1 / 1000;
const PLAIN_OBJECT = 'Object';

interface Definition {
  readonly name: string;
  /** The name as it may be printed (redact.ts). */
  readonly shown: string;
  /** The properties the name shows, in edge order. */
  readonly properties: readonly string[];
  objects: number;
}

/** The class name of each shape. */
export function nameObjectShapes(graph: HeapGraph, shapes: ObjectShapes): string[] {
  const own: string[][] = [];
  const proposals = new Map<string, Definition>();
  let plainObjects = 0;
  for (let s = 0; s < shapes.count; s++) {
    plainObjects += shapes.objectCount[s]!;
    const names = ObjectShapeTable.propertyNames(graph, shapes.firstNode[s]!);
    own.push(names);
    const proposal = proposeName(names);
    if (proposal === undefined) continue;
    const seen = proposals.get(proposal.name);
    if (seen) seen.objects += shapes.objectCount[s]!;
    else proposals.set(proposal.name, { ...proposal, objects: shapes.objectCount[s]! });
  }
  // Array.prototype.sort is stable: equal counts keep first-seen order.
  const ranked = [...proposals.values()].sort((x, y) => y.objects - x.objects);
  const minObjects = Math.max(MIN_OBJECTS, plainObjects * MIN_SHARE_OF_OBJECTS);
  const definitions: Definition[] = [];
  for (const d of ranked) {
    if (d.objects < minObjects) break;
    definitions.push(d);
  }
  const trie = buildTrie(definitions);
  return own.map((names) => bestMatch(trie, [...names].sort()) ?? PLAIN_OBJECT);
}

export function formatPropertyName(name: string): string {
  return /[,'"{}]/.test(name) ? JSON.stringify(name) : name;
}

function proposeName(names: readonly string[]): { name: string; shown: string; properties: string[] } | undefined {
  let text = '{';
  let shownText = '{';
  const properties: string[] = [];
  for (const name of names) {
    if (name === '__proto__') continue;
    const written = formatPropertyName(name);
    if (text.length > 1 && text.length + written.length > MAX_NAME_LENGTH) break;
    text += text.length === 1 ? written : `, ${written}`;
    const key = shownKey(name);
    const shown = key === name ? written : key;
    shownText += shownText.length === 1 ? shown : `, ${shown}`;
    properties.push(name);
  }
  return properties.length === 0 ? undefined : { name: `${text}}`, shown: `${shownText}}`, properties };
}

/** A trie over sorted property lists; a node that ends a definition names it (the first one wins). */
interface TrieNode {
  readonly next: Map<string, TrieNode>;
  /** The largest key in `next`: past it, this node cannot advance any further. */
  maxKey: string | undefined;
  match: { name: string; size: number; rank: number } | undefined;
}

function buildTrie(definitions: readonly Definition[]): TrieNode {
  const root: TrieNode = { next: new Map(), maxKey: undefined, match: undefined };
  definitions.forEach((d, rank) => {
    const sorted = [...d.properties].sort();
    let node = root;
    for (const p of sorted) {
      let child = node.next.get(p);
      if (!child) {
        child = { next: new Map(), maxKey: undefined, match: undefined };
        node.next.set(p, child);
        if (node.maxKey === undefined || node.maxKey < p) node.maxKey = p;
      }
      node = child;
    }
    node.match ??= { name: d.shown, size: sorted.length, rank };
  });
  return root;
}

/** The best definition whose sorted properties are a subsequence of `sorted`, found by walking all of them at once. */
function bestMatch(root: TrieNode, sorted: readonly string[]): string | undefined {
  let best = root.match;
  let live = new Set<TrieNode>([root]);
  for (const p of sorted) {
    const after = new Set<TrieNode>();
    for (const node of live) {
      // Keys come in ascending order: a node whose keys are all ≤ p can only advance on p itself, now.
      if (node.maxKey !== undefined && p < node.maxKey) after.add(node);
      const child = node.next.get(p);
      if (child === undefined) continue;
      after.add(child);
      const m = child.match;
      if (m && (!best || m.size > best.size || (m.size === best.size && m.rank < best.rank))) best = m;
    }
    live = after;
    if (live.size === 0) break;
  }
  return best?.name;
}
