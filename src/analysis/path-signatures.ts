// Retainer-path signatures: the shape of an object's shortest chain to the root, written object first,
// `RunTree ← (array)[] ← Map.table ← Tracer.runsById ← …`, with indices folded (edge-labels.ts) so
// that a thousand objects leaked the same way share one signature.
//
// Signatures are hash-consed along the chain: sig(v) = (class(v), label(edge), sig(holder)), so each
// distinct signature is built once however many objects share it, and a node's signature costs one
// probe of a typed hash table once its holder's is known. Everything per node is a number: the name and
// label ids of signature-parts.ts, one signature id per node in an Int32Array, and the triples in typed
// arrays; text is made only for the signatures a caller prints (text(), className()).
// A run of identical links (a linked list: RunTree.parent → RunTree.parent → …) folds into one, so the
// members of a growing list share a signature too.
// Chains follow the lasting distances (retainer-paths.ts: lasting holders before per-moment roots and
// bookkeeping lists), so a leak is one signature whichever transient root held some of it at the moment.
// Every node has a signature: one that no path from the root reaches ends with the top of what holds
// it and then NO_ROOT, never a shared "(unreachable)" that would lump objects of every class together.
// Invariant: a signature's first class is the hopName of every node that has it (a list member takes its
// holder's signature only when the holder has its own class).

import type { HeapAnalysis } from './heap-analysis.js';
import { retainingEdgesOf } from './retainer-index.js';
import type { Chain, RetainerPaths } from './retainer-paths.js';
import { SignatureParts } from './signature-parts.js';

export { hopName } from './signature-parts.js';

const UNKNOWN = -1;

/** The end of a signature (and chain) that no path from the GC roots reaches. */
export const NO_ROOT = '(no path from the GC roots)';

/** One SignatureParts per graph: every signature of it, and chainSignature, read the same ids. */
const partsOf = new WeakMap<HeapAnalysis, SignatureParts>();

export function signatureParts(analysis: HeapAnalysis): SignatureParts {
  let parts = partsOf.get(analysis);
  if (!parts) partsOf.set(analysis, (parts = new SignatureParts(analysis)));
  return parts;
}

export class PathSignatures {
  readonly #analysis: HeapAnalysis;
  readonly #paths: RetainerPaths;
  readonly #parts: SignatureParts;
  /** Per node: its signature id, or UNKNOWN. */
  readonly #memo: Int32Array;
  /** Per signature id: the name id of its first hop, the label id of its link, its holder's id (-1 at the root). */
  #name: Int32Array = new Int32Array(1024);
  #label: Int32Array = new Int32Array(1024);
  #parent: Int32Array = new Int32Array(1024);
  #count = 0;
  /** Open addressing over the triples: signature id + 1 per bucket, 0 empty; at most half full. */
  #table = new Int32Array(2048);
  /** The walk's stack of nodes and their parent slots, kept between calls. */
  #pending: Int32Array = new Int32Array(256);
  #pendingSlot: Int32Array = new Int32Array(256);
  #noRoot = -1;
  /** During computeEvery: every node's parent slot and the edge behind it. */
  #slots: Int32Array | undefined;
  #edges: Int32Array | undefined;

  constructor(analysis: HeapAnalysis, paths: RetainerPaths) {
    this.#analysis = analysis;
    this.#paths = paths;
    this.#parts = signatureParts(analysis);
    paths.preferLasting();
    // From the pool (scratch.ts), kept with the signatures: the buffer of a temporary of the analysis
    // (the dominator tree's, given back), not fresh memory beside the graph.
    const memo = analysis.scratch.u32(analysis.graph.nodeCount);
    this.#memo = new Int32Array(memo.buffer, memo.byteOffset, memo.length).fill(UNKNOWN);
  }

  /**
   * The signatures of every node `wanted` accepts, in ordinal order, as signatureOf would give them one
   * by one; for callers that ask about most of the heap (signature-counts.ts). The parent slots and
   * their edges are found for the whole graph first, in passes over the retainers and the edges
   * (retainingEdgesOf), in pooled buffers given back after.
   */
  computeEvery(wanted: (ordinal: number) => boolean): void {
    const analysis = this.#analysis;
    const { nodeCount } = analysis.graph;
    // Pooled (scratch.ts): the dominators' temporaries, given back by now, hold them.
    const pair = analysis.scratch.u32Pair(nodeCount);
    const slots = new Int32Array(pair[0].buffer, pair[0].byteOffset, nodeCount);
    const edges = new Int32Array(pair[1].buffer, pair[1].byteOffset, nodeCount);
    for (let v = 0; v < nodeCount; v++) slots[v] = this.#paths.findParentSlot(v);
    retainingEdgesOf(analysis.graph, analysis.edgeMask, analysis.retainers, slots, edges);
    this.#slots = slots;
    this.#edges = edges;
    try {
      for (let n = 0; n < nodeCount; n++) if (wanted(n)) this.signatureOf(n);
    } finally {
      this.#slots = this.#edges = undefined;
      analysis.scratch.give(pair[0]);
    }
  }

  /** The signature id of `ordinal`'s shortest chain (lasting holders first). */
  signatureOf(ordinal: number): number {
    const memo = this.#memo;
    if (memo[ordinal] !== UNKNOWN) return memo[ordinal]!;
    const graph = this.#analysis.graph;
    const parts = this.#parts;
    const paths = this.#paths;
    const { retainingNode } = this.#analysis.retainers;
    // Walk up to the first node whose signature is known (or the root), then assign on the way down.
    // Each node's parent slot is found once here (its signature is kept), so none is memoised.
    let depth = 0;
    let v = ordinal;
    let known = -1;
    for (;;) {
      if (memo[v] !== UNKNOWN) {
        known = memo[v]!;
        break;
      }
      const slot = this.#slots ? this.#slots[v]! : paths.findParentSlot(v);
      this.#push(depth++, v, slot);
      if (slot < 0) {
        // The root, or the top of what holds an object no path from the root reaches.
        if (v !== graph.rootOrdinal) known = this.#noRoot >= 0 ? this.#noRoot : (this.#noRoot = this.#intern(parts.nameId(NO_ROOT), parts.rootLabel, -1));
        break;
      }
      v = retainingNode[slot]!;
    }
    const pending = this.#pending, pendingSlot = this.#pendingSlot;
    for (let i = depth - 1; i >= 0; i--) {
      const node = pending[i]!;
      const slot = pendingSlot[i]!;
      const name = parts.hopNameOf(node);
      if (slot >= 0 && isListLink(parts, node, retainingNode[slot]!, name)) {
        // A link of a list (Timeout._idleNext → Timeout): members share the list's signature.
        memo[node] = known;
        continue;
      }
      const edge = slot < 0 ? -1 : this.#edges ? this.#edges[node]! : paths.edgeOfSlot(node, slot);
      const label = slot < 0 ? parts.rootLabel : linkLabel(this.#analysis, parts, node, edge, name);
      known = this.#intern(name, label, known);
      memo[node] = known;
    }
    return memo[ordinal]!;
  }

  #push(i: number, node: number, slot: number): void {
    if (i >= this.#pending.length) {
      this.#pending = grown(this.#pending, i);
      this.#pendingSlot = grown(this.#pendingSlot, i);
    }
    this.#pending[i] = node;
    this.#pendingSlot[i] = slot;
  }

  #intern(name: number, label: number, parent: number): number {
    let mask = this.#table.length - 1;
    let h = hashTriple(name, label, parent) & mask;
    for (;;) {
      const e = this.#table[h]! - 1;
      if (e < 0) break;
      if (this.#name[e] === name && this.#label[e] === label && this.#parent[e] === parent) return e;
      h = (h + 1) & mask;
    }
    const id = this.#count++;
    if (id >= this.#name.length) {
      this.#name = grown(this.#name, id);
      this.#label = grown(this.#label, id);
      this.#parent = grown(this.#parent, id);
    }
    this.#name[id] = name;
    this.#label[id] = label;
    this.#parent[id] = parent;
    if (2 * this.#count > this.#table.length) {
      this.#rehash();
      mask = this.#table.length - 1;
      h = hashTriple(name, label, parent) & mask;
      while (this.#table[h] !== 0) h = (h + 1) & mask;
    }
    this.#table[h] = id + 1;
    return id;
  }

  #rehash(): void {
    const table = new Int32Array(this.#table.length * 2);
    const mask = table.length - 1;
    for (let e = 0; e < this.#count - 1; e++) {
      let h = hashTriple(this.#name[e]!, this.#label[e]!, this.#parent[e]!) & mask;
      while (table[h] !== 0) h = (h + 1) & mask;
      table[h] = e + 1;
    }
    this.#table = table;
  }

  /** The class (hopName) the signature starts with: that of every node that has it. */
  className(signature: number): string {
    return this.#parts.names[this.#name[signature]!]!;
  }

  /** `RunTree ← (array)[] ← Map.table ← … ← (root)`; at most `maxHops` holders, then `← …`. */
  text(signature: number, maxHops = 32): string {
    const { names, labels } = this.#parts;
    let e = signature;
    let out = names[this.#name[e]!]!;
    let label = labels[this.#label[e]!]!;
    let hops = 0;
    while (this.#parent[e]! >= 0) {
      const holder = this.#parent[e]!;
      if (hops++ >= maxHops) return `${out} ← …`;
      out += ` ← ${names[this.#name[holder]!]!}${label}`;
      label = labels[this.#label[holder]!]!;
      e = holder;
    }
    return out;
  }
}

function hashTriple(name: number, label: number, parent: number): number {
  let h = Math.imul(name, 0x9e3779b1) ^ Math.imul(label + 0x7f4a7c15, 0x85ebca77) ^ Math.imul(parent + 1, 0xc2b2ae3d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return (h ^ (h >>> 13)) >>> 0;
}

function grown(array: Int32Array, index: number): Int32Array<ArrayBuffer> {
  const out = new Int32Array(Math.max(index + 1, array.length * 2));
  out.set(array);
  return out;
}

/**
 * The signature text of one given chain (object first), with the same folding as PathSignatures. A chain
 * that does not end at the root ends with NO_ROOT, or with `…` when `cut` says the caller stopped it
 * short on purpose (signature-keys.ts).
 */
export function chainSignature(analysis: HeapAnalysis, chain: Chain, cut = false): string {
  const parts = signatureParts(analysis);
  const out: string[] = [];
  let label = '';
  for (let i = 0; i < chain.length; i++) {
    const hop = chain[i]!;
    const name = parts.hopNameOf(hop.ordinal);
    const holder = chain[i + 1];
    if (holder && isListLink(parts, hop.ordinal, holder.ordinal, name)) continue;
    out.push(i === 0 ? parts.names[name]! : `${parts.names[name]!}${label}`);
    if (holder) label = parts.labels[linkLabel(analysis, parts, hop.ordinal, hop.edge, name)]!;
  }
  const top = chain[chain.length - 1];
  if (top !== undefined && top.ordinal !== analysis.graph.rootOrdinal) out.push(cut ? '…' : NO_ROOT);
  return out.join(' ← ');
}

function sameList(parts: SignatureParts, other: number, key: number): boolean {
  return parts.listKeyOf(other, parts.hopNameOf(other)) === key;
}

/** `node` held by another link of its own list (Timeout._idleNext → Timeout): its holder's signature. */
function isListLink(parts: SignatureParts, node: number, holder: number, name: number): boolean {
  const key = parts.listKeyOf(node, name);
  return key >= 0 && sameList(parts, holder, key);
}

/**
 * The label of the link that holds `node`: the folded edge name, except for members of a linked list,
 * whose entry edge (`_idleNext` for the first half of a list, `_idlePrev` for the second, in a
 * shortest-path tree) says nothing about the leak. A member of a list both is held by and holds
 * another link of its own list (Timeout ⇄ Timeout); a node of a tree held through an array of
 * children, or a root its children point back to, is not.
 */
function linkLabel(analysis: HeapAnalysis, parts: SignatureParts, node: number, edge: number, name: number): number {
  const graph = analysis.graph;
  const key = parts.listKeyOf(node, name);
  if (key < 0 || edge < 0) return parts.edgeLabelOf(edge);
  const { firstRetainer, retainingNode } = analysis.retainers;
  let heldBySame = false;
  for (let s = firstRetainer[node]!, end = firstRetainer[node + 1]!; s < end && !heldBySame; s++) {
    const u = retainingNode[s]!;
    heldBySame = u !== node && sameList(parts, u, key);
  }
  if (!heldBySame) return parts.edgeLabelOf(edge);
  const { firstEdge, edgeTarget } = graph;
  for (let e = firstEdge[node]!, end = firstEdge[node + 1]!; e < end; e++) {
    const t = edgeTarget[e]!;
    if (t !== node && analysis.edgeMask[e] !== 0 && sameList(parts, t, key)) return parts.listLabel;
  }
  return parts.edgeLabelOf(edge);
}
