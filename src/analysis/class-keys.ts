// Class names and class keys, as the DevTools Summary view groups objects
// (HeapSnapshot.calculateObjectNames, applyInterfaceDefinitions and classKeyInternal, Chrome DevTools):
// - `hidden` → `(system)`; `code` → `(compiled code)`; `closure` → `Function`; `regexp` → `RegExp`;
//   `object` / `native` → the node's name (a constructor name; `<div id="a">` → `<div>`); plain objects
//   (`object` named `Object`) → their property-shape name (interface-names.ts); every other type →
//   `(<type>)`: `(string)`, `(concatenated string)`, `(sliced string)`, `(array)`, `(number)`,
//   `(symbol)`, `(bigint)`, `(synthetic)`, `(object shape)`.
// - The class *key* adds the constructor's source location for `object` nodes that have one (the
//   snapshot's `locations`), because many constructors share a name: `<script>,<line>,<col>,<name>`;
//   otherwise `,<name>`. Keys are what DevTools compares between snapshots of one process.
// - Native nodes that DevTools shows as detached (dom-state.ts) are named `Detached <name>`.
// Interning is by text, with per-string-index caches: a 10M-node heap builds one string per class.

import type { HeapGraph } from '../snapshot/heap-graph.js';
import { computeDetachedNatives } from './dom-state.js';
import { nameObjectShapes } from './interface-names.js';
import { ObjectShapeTable } from './object-shapes.js';
import { Scratch } from './scratch.js';
import { forEachLocation } from './source-locations.js';

export interface ClassIndex {
  /** Class id of each node ordinal. */
  readonly classOf: Uint32Array;
  /** Display name of each class id (several ids share a name when their locations differ). */
  readonly names: readonly string[];
  /** DevTools class key of each class id; unique. */
  readonly keys: readonly string[];
}

const PLAIN = 0x80000000;
const NAME_UNSEEN = 0xffffffff;
const NAME_PLAIN_OBJECT = 0xfffffffe;

/**
 * The class name DevTools derives from the node alone: plain objects are `Object` here (no shape name)
 * and detached natives keep their plain name; computeClassIndex has the full picture.
 */
export function classNameOf(graph: HeapGraph, ordinal: number): string {
  const t = graph.nodeType[ordinal]!;
  const types = graph.nodeTypes;
  if (t === types.object || t === types.native) return constructorClassName(graph.nodeNameOf(ordinal));
  return classNameOfType(graph, t);
}

export function computeClassIndex(
  graph: HeapGraph,
  detached: Uint8Array | undefined = computeDetachedNatives(graph),
  scratch: Scratch = new Scratch(),
): ClassIndex {
  const { nodeCount, nodeType, nodeName } = graph;
  const { object, native } = graph.nodeTypes;
  const names: string[] = [];
  const idOfName = new Map<string, number>();
  const intern = (name: string): number => {
    let id = idOfName.get(name);
    if (id === undefined) {
      id = names.push(name) - 1;
      idOfName.set(name, id);
    }
    return id;
  };
  const byType = new Uint32Array(graph.nodeTypeNames.length).fill(NAME_UNSEEN);
  const byName = scratch.u32(graph.strings.count).fill(NAME_UNSEEN);
  const byDetachedName = new Map<number, number>();
  const shapes = new ObjectShapeTable(graph);
  const classOf = scratch.u32(nodeCount);
  for (let n = 0; n < nodeCount; n++) {
    const t = nodeType[n]!;
    if (t !== object && t !== native) {
      let c = byType[t]!;
      if (c === NAME_UNSEEN) c = byType[t] = intern(classNameOfType(graph, t));
      classOf[n] = c;
      continue;
    }
    const s = nodeName[n]!;
    if (detached !== undefined && detached[n] === 1) {
      let d = byDetachedName.get(s);
      if (d === undefined) byDetachedName.set(s, (d = intern(constructorClassName(`Detached ${graph.strings.get(s)}`))));
      classOf[n] = d;
      continue;
    }
    let c = byName[s]!;
    if (c === NAME_UNSEEN) {
      const text = graph.strings.get(s);
      c = byName[s] = text === 'Object' ? NAME_PLAIN_OBJECT : intern(constructorClassName(text));
    }
    if (c !== NAME_PLAIN_OBJECT) classOf[n] = c;
    else classOf[n] = t === object ? (PLAIN | shapes.add(n)) >>> 0 : intern('Object');
  }
  scratch.give(byName);
  const shapeClass = nameObjectShapes(graph, shapes.result()).map(intern);
  for (let n = 0; n < nodeCount; n++) {
    const c = classOf[n]!;
    if (c >= PLAIN) classOf[n] = shapeClass[c - PLAIN]!;
  }
  const keys = names.map((name) => `,${name}`);
  splitByLocation(graph, classOf, names, keys);
  return { classOf, names, keys };
}

/** Gives `object` nodes with a source location their own class per (location, class). */
function splitByLocation(graph: HeapGraph, classOf: Uint32Array, names: string[], keys: string[]): void {
  const object = graph.nodeTypes.object;
  const baseCount = names.length;
  // scriptId → (line, column) → base class → located class.
  const located = new Map<number, Map<number, Map<number, number>>>();
  forEachLocation(graph, (n, s, l, col) => {
    if (graph.nodeType[n] !== object) return;
    let byPlace = located.get(s);
    if (!byPlace) located.set(s, (byPlace = new Map()));
    const place = l * 0x100000000 + col;
    let byClass = byPlace.get(place);
    if (!byClass) byPlace.set(place, (byClass = new Map()));
    const base = classOf[n]!;
    if (base >= baseCount) return; // a node listed twice keeps its first location
    let id = byClass.get(base);
    if (id === undefined) {
      id = names.push(names[base]!) - 1;
      keys.push(`${s},${l},${col},${names[base]!}`);
      byClass.set(base, id);
    }
    classOf[n] = id;
  });
}

function constructorClassName(name: string): string {
  // DOM wrappers are named like `<div id="a">`; the class is the tag.
  if (name.startsWith('<')) {
    const space = name.indexOf(' ');
    return space === -1 ? name : `${name.slice(0, space)}>`;
  }
  if (name.startsWith('Detached <')) {
    const space = name.indexOf(' ', 10);
    return space === -1 ? name : `${name.slice(0, space)}>`;
  }
  return name;
}

function classNameOfType(graph: HeapGraph, type: number): string {
  const t = graph.nodeTypes;
  switch (type) {
    case t.hidden: return '(system)';
    case t.code: return '(compiled code)';
    case t.closure: return 'Function';
    case t.regexp: return 'RegExp';
    default: return `(${graph.nodeTypeNames[type] ?? 'unknown'})`;
  }
}
