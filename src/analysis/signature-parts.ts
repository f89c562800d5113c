// The parts of a retainer-path signature as small integers, for one graph: hop names (hopName, and the
// list keys of V8's own list nodes) and link labels (edgeLabel, folded) each interned by their text, so
// two ids are equal exactly when their texts are. A text is built once per distinct class, closure
// name, synthetic name or edge name, never once per node: path-signatures.ts keys every node by these
// ids and turns them back into text only for the signatures it prints.

import type { HeapAnalysis } from './heap-analysis.js';
import { edgeLabel } from './edge-labels.js';
import { TextIds } from './text-ids.js';

const UNSEEN = -1;
/** In a per-name cache of list keys: not yet decided (-1 there means "not a list link"). */
const LIST_UNSEEN = -2;
/** In the cache of closure names: the empty name, so the hop is named by the node's class. */
const BY_CLASS = -3;

/**
 * V8's own linked lists, folded like a class's: the reactions of a pending promise (each reaction's
 * hidden slot 0 is the next one), so objects that `.then` callbacks keep, whichever position their
 * reaction has in the list, share one signature (thousands of per-request callbacks on one pending
 * promise were thousands of one-member groups, and no group grew).
 */
const V8_LIST_NODES: ReadonlySet<string> = new Set(['system / PromiseReaction']);

/**
 * What a hop is called in a chain: the class for objects, but the node's own name where that says more
 * and is stable: synthetic roots (`(GC roots)`, `(Global handles)`), the root itself, named functions.
 */
export function hopName(analysis: HeapAnalysis, ordinal: number): string {
  const graph = analysis.graph;
  if (ordinal === graph.rootOrdinal) return '(root)';
  const t = graph.nodeType[ordinal];
  if (t === graph.nodeTypes.synthetic) return graph.nodeNameOf(ordinal) || '(synthetic)';
  if (t === graph.nodeTypes.closure) {
    const name = graph.nodeNameOf(ordinal);
    return name ? `${name}()` : analysis.className(ordinal);
  }
  return analysis.className(ordinal);
}

/**
 * Whether objects of class `name` fold as links of a list when one of their class holds them (listKeyOf;
 * V8's list nodes above fold by their own name): instances of a named class do; V8's own contexts, plain
 * objects and arrays, whose "class" says nothing about a shared structure, keep their edges.
 */
function isListClass(name: string): boolean {
  return !name.startsWith('system / ') && name !== 'Object' && name !== 'Array' && !name.startsWith('{');
}

export class SignatureParts {
  readonly #names = new TextIds();
  readonly #labels = new TextIds();
  /** Name id → text: hop names, and the own names of V8 list nodes (their list keys). */
  readonly names: readonly string[] = this.#names.texts;
  /** Label id → text. */
  readonly labels: readonly string[] = this.#labels.texts;
  readonly #analysis: HeapAnalysis;
  readonly #rootName: number;
  /** By class id: the name id of its class name. */
  readonly #byClass: Int32Array;
  /** By string index: name ids of closures (`f()`) and synthetic nodes, list keys of hidden nodes. */
  readonly #byClosureName = new Map<number, number>();
  readonly #bySyntheticName = new Map<number, number>();
  readonly #hiddenListKey = new Map<number, number>();
  /** By name id: its list key (the name id itself) or -1; LIST_UNSEEN until asked. */
  #nameListKey = new Int32Array(256).fill(LIST_UNSEEN);
  /** By edge-name string index: label ids of property edges and of other named edges (made on first use). */
  #propertyLabel: Int32Array | undefined;
  #namedLabel: Int32Array | undefined;
  /** Label ids of every element and hidden edge (`[]`), of the root (''), of a list member (' (list)'). */
  readonly foldedLabel: number;
  readonly rootLabel: number;
  readonly listLabel: number;

  constructor(analysis: HeapAnalysis) {
    this.#analysis = analysis;
    this.#rootName = this.nameId('(root)');
    this.#byClass = new Int32Array(analysis.classIndex.names.length).fill(UNSEEN);
    this.foldedLabel = this.labelId('[]');
    this.rootLabel = this.labelId('');
    this.listLabel = this.labelId(' (list)');
  }

  nameId(text: string): number {
    return this.#names.idOf(text);
  }

  labelId(text: string): number {
    return this.#labels.idOf(text);
  }

  /** The name id of hopName(node). */
  hopNameOf(node: number): number {
    const analysis = this.#analysis;
    const graph = analysis.graph;
    if (node === graph.rootOrdinal) return this.#rootName;
    const t = graph.nodeType[node];
    if (t === graph.nodeTypes.synthetic || t === graph.nodeTypes.closure) {
      const s = graph.nodeName[node]!;
      const cache = t === graph.nodeTypes.closure ? this.#byClosureName : this.#bySyntheticName;
      let id = cache.get(s);
      if (id === undefined) {
        // An unnamed closure is named by its class (BY_CLASS), like any object.
        id = t === graph.nodeTypes.closure && graph.strings.get(s) === '' ? BY_CLASS : this.nameId(hopName(analysis, node));
        cache.set(s, id);
      }
      if (id !== BY_CLASS) return id;
    }
    const c = analysis.classIndex.classOf[node]!;
    const known = this.#byClass[c]!;
    return known !== UNSEEN ? known : (this.#byClass[c] = this.nameId(analysis.classIndex.names[c]!));
  }

  /**
   * What links of one list have in common, as a name id, or -1 (never a list link): the node's own name
   * for V8's list nodes, its hop name for objects of a class that folds (isListClass); `name` is
   * hopNameOf(node).
   */
  listKeyOf(node: number, name: number): number {
    const graph = this.#analysis.graph;
    const t = graph.nodeType[node];
    if (t === graph.nodeTypes.hidden) {
      const s = graph.nodeName[node]!;
      let key = this.#hiddenListKey.get(s);
      if (key === undefined) {
        const own = graph.strings.get(s);
        key = V8_LIST_NODES.has(own) ? this.nameId(own) : -1;
        this.#hiddenListKey.set(s, key);
      }
      return key;
    }
    if (t !== graph.nodeTypes.object) return -1;
    if (name >= this.#nameListKey.length) {
      const grown = new Int32Array(Math.max(name + 1, this.#nameListKey.length * 2)).fill(LIST_UNSEEN);
      grown.set(this.#nameListKey);
      this.#nameListKey = grown;
    }
    const known = this.#nameListKey[name]!;
    if (known !== LIST_UNSEEN) return known;
    return (this.#nameListKey[name] = isListClass(this.names[name]!) ? name : -1);
  }

  /** The label id of edgeLabel(edge, folded). */
  edgeLabelOf(edge: number): number {
    const graph = this.#analysis.graph;
    const t = graph.edgeType[edge];
    if (edge < 0 || t === undefined) return this.labelId(edgeLabel(graph, edge, true));
    if (t === graph.edgeTypes.element || t === graph.edgeTypes.hidden) return this.foldedLabel;
    // Otherwise the label is a function of the edge's name and whether it is a property.
    const s = graph.edgeNameOrIndex[edge]!;
    const property = t === graph.edgeTypes.property;
    const cache = property
      ? (this.#propertyLabel ??= new Int32Array(graph.strings.count).fill(UNSEEN))
      : (this.#namedLabel ??= new Int32Array(graph.strings.count).fill(UNSEEN));
    const known = cache[s]!;
    return known !== UNSEEN ? known : (cache[s] = this.labelId(edgeLabel(graph, edge, true)));
  }
}

