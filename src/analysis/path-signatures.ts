// Retainer-path signatures: the shape of an object's shortest chain to the root, written object first,
// `RunTree ← (array)[] ← Map.table ← Tracer.runsById ← …`, with indices folded (edge-labels.ts) so
// that a thousand objects leaked the same way share one signature.
//
// Signatures are hash-consed along the chain: sig(v) = (class(v), label(edge), sig(holder)), so each
// distinct signature is built once however many objects share it, and a node's signature costs one
// map lookup once its holder's is known. A run of identical links (a linked list: RunTree.parent →
// RunTree.parent → …) folds into one, so the members of a growing list share a signature too.
// Chains follow the lasting distances (retainer-paths.ts: lasting holders before per-moment roots and
// bookkeeping lists), so a leak is one signature whichever transient root held some of it at the moment.
// Every node has a signature: one that no path from the root reaches ends with the top of what holds
// it and then NO_ROOT, never a shared "(unreachable)" that would lump objects of every class together.
// Invariant: a signature's first class is the hopName of every node that has it (a list member takes its
// holder's signature only when the holder has its own class).

import type { HeapAnalysis } from './heap-analysis.js';
import { edgeLabel } from './edge-labels.js';
import type { Chain, RetainerPaths } from './retainer-paths.js';

const UNKNOWN: number = -1;

/** The end of a signature (and chain) that no path from the GC roots reaches. */
export const NO_ROOT = '(no path from the GC roots)';

interface SignatureEntry {
  /** `Class` of the object at this end of the signature. */
  readonly className: string;
  /** How the holder holds it, e.g. `.runsById`, `[]`; '' at the root. */
  readonly label: string;
  /** The holder's signature, or -1 at the root. */
  readonly parent: number;
}

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

export class PathSignatures {
  readonly #analysis: HeapAnalysis;
  readonly #paths: RetainerPaths;
  readonly #memo: Int32Array;
  readonly #entries: SignatureEntry[] = [];
  readonly #ids = new Map<string, number>();
  #noRoot = -1;

  constructor(analysis: HeapAnalysis, paths: RetainerPaths) {
    this.#analysis = analysis;
    this.#paths = paths;
    paths.preferLasting();
    this.#memo = new Int32Array(analysis.graph.nodeCount).fill(UNKNOWN);
  }

  /** The signature id of `ordinal`'s shortest chain (lasting holders first). */
  signatureOf(ordinal: number): number {
    const memo = this.#memo;
    if (memo[ordinal] !== UNKNOWN) return memo[ordinal]!;
    const graph = this.#analysis.graph;
    const { retainingNode } = this.#analysis.retainers;
    // Walk up to the first node whose signature is known (or the root), then assign on the way down.
    const pending: number[] = [];
    let v = ordinal;
    let known: number = -1;
    for (;;) {
      if (memo[v] !== UNKNOWN) {
        known = memo[v]!;
        break;
      }
      pending.push(v);
      const slot = this.#paths.parentSlot(v);
      if (slot < 0) {
        // The root, or the top of what holds an object no path from the root reaches.
        if (v !== graph.rootOrdinal) known = this.#noRoot >= 0 ? this.#noRoot : (this.#noRoot = this.#intern(NO_ROOT, '', -1));
        break;
      }
      v = retainingNode[slot]!;
    }
    for (let i = pending.length - 1; i >= 0; i--) {
      const node = pending[i]!;
      const slot = this.#paths.parentSlot(node);
      const name = hopName(this.#analysis, node);
      if (slot >= 0 && isListLink(this.#analysis, node, retainingNode[slot]!, name)) {
        // A link of a list (Timeout._idleNext → Timeout): members share the list's signature.
        memo[node] = known;
        continue;
      }
      const label = slot < 0 ? '' : linkLabel(this.#analysis, node, this.#paths.edgeOfSlot(node, slot), name);
      known = this.#intern(name, label, known);
      memo[node] = known;
    }
    return memo[ordinal]!;
  }

  #intern(className: string, label: string, parent: number): number {
    const key = `${parent}\u0000${label}\u0000${className}`;
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = this.#entries.push({ className, label, parent }) - 1;
      this.#ids.set(key, id);
    }
    return id;
  }

  /** The class (hopName) the signature starts with: that of every node that has it. */
  className(signature: number): string {
    return this.#entries[signature]!.className;
  }

  /** `RunTree ← (array)[] ← Map.table ← … ← (root)`; at most `maxHops` holders, then `← …`. */
  text(signature: number, maxHops = 32): string {
    const entries = this.#entries;
    let e = entries[signature]!;
    let out = e.className;
    let label = e.label;
    let hops = 0;
    while (e.parent >= 0) {
      const holder = entries[e.parent]!;
      if (hops++ >= maxHops) return `${out} ← …`;
      out += ` ← ${holder.className}${label}`;
      label = holder.label;
      e = holder;
    }
    return out;
  }
}

/**
 * The signature text of one given chain (object first), with the same folding as PathSignatures. A chain
 * that does not end at the root ends with NO_ROOT, or with `…` when `cut` says the caller stopped it
 * short on purpose (signature-keys.ts).
 */
export function chainSignature(analysis: HeapAnalysis, chain: Chain, cut = false): string {
  const parts: string[] = [];
  let label = '';
  for (let i = 0; i < chain.length; i++) {
    const hop = chain[i]!;
    const name = hopName(analysis, hop.ordinal);
    const holder = chain[i + 1];
    if (holder && isListLink(analysis, hop.ordinal, holder.ordinal, name)) continue;
    parts.push(i === 0 ? name : `${name}${label}`);
    if (holder) label = linkLabel(analysis, hop.ordinal, hop.edge, name);
  }
  const top = chain[chain.length - 1];
  if (top !== undefined && top.ordinal !== analysis.graph.rootOrdinal) parts.push(cut ? '…' : NO_ROOT);
  return parts.join(' ← ');
}

/**
 * V8's own linked lists, folded like a class's: the reactions of a pending promise (each reaction's
 * hidden slot 0 is the next one), so objects that `.then` callbacks keep, whichever position their
 * reaction has in the list, share one signature (thousands of per-request callbacks on one pending
 * promise were thousands of one-member groups, and no group grew).
 */
const V8_LIST_NODES: ReadonlySet<string> = new Set(['system / PromiseReaction']);

/**
 * What links of one list have in common, or undefined for a node that is not folded: instances of a
 * named class (V8's own contexts, plain objects and arrays, whose "class" says nothing about a shared
 * structure, keep their edges), and the V8 list nodes above by their own name.
 */
function listKey(analysis: HeapAnalysis, node: number, name: string): string | undefined {
  const graph = analysis.graph;
  const t = graph.nodeType[node];
  if (t === graph.nodeTypes.hidden) {
    const own = graph.nodeNameOf(node);
    return V8_LIST_NODES.has(own) ? own : undefined;
  }
  if (t !== graph.nodeTypes.object) return undefined;
  return !name.startsWith('system / ') && name !== 'Object' && name !== 'Array' && !name.startsWith('{') ? name : undefined;
}

function sameList(analysis: HeapAnalysis, other: number, key: string): boolean {
  return listKey(analysis, other, hopName(analysis, other)) === key;
}

/** `node` held by another link of its own list (Timeout._idleNext → Timeout): its holder's signature. */
function isListLink(analysis: HeapAnalysis, node: number, holder: number, name: string): boolean {
  const key = listKey(analysis, node, name);
  return key !== undefined && sameList(analysis, holder, key);
}

/**
 * The label of the link that holds `node`: the folded edge name, except for members of a linked list,
 * whose entry edge (`_idleNext` for the first half of a list, `_idlePrev` for the second, in a
 * shortest-path tree) says nothing about the leak. A member of a list both is held by and holds
 * another link of its own list (Timeout ⇄ Timeout); a node of a tree held through an array of
 * children, or a root its children point back to, is not.
 */
function linkLabel(analysis: HeapAnalysis, node: number, edge: number, name: string): string {
  const graph = analysis.graph;
  const key = listKey(analysis, node, name);
  if (key === undefined || edge < 0) return edgeLabel(graph, edge, true);
  const { firstRetainer, retainingNode } = analysis.retainers;
  let heldBySame = false;
  for (let s = firstRetainer[node]!, end = firstRetainer[node + 1]!; s < end && !heldBySame; s++) {
    const u = retainingNode[s]!;
    heldBySame = u !== node && sameList(analysis, u, key);
  }
  if (!heldBySame) return edgeLabel(graph, edge, true);
  const { firstEdge, edgeTarget } = graph;
  for (let e = firstEdge[node]!, end = firstEdge[node + 1]!; e < end; e++) {
    const t = edgeTarget[e]!;
    if (t !== node && analysis.edgeMask[e] !== 0 && sameList(analysis, t, key)) return ' (list)';
  }
  return edgeLabel(graph, edge, true);
}
