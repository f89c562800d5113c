// Retainer-path signatures: the shape of an object's shortest chain to the root, written object first,
// `RunTree ← (array)[] ← Map.table ← Tracer.runsById ← …`, with indices folded (edge-labels.ts) so
// that a thousand objects leaked the same way share one signature.
//
// Signatures are hash-consed along the chain: sig(v) = (class(v), label(edge), sig(holder)), so each
// distinct signature is built once however many objects share it, and a node's signature costs one
// map lookup once its holder's is known. A run of identical links (a linked list: RunTree.parent →
// RunTree.parent → …) folds into one, so the members of a growing list share a signature too.

import type { HeapAnalysis } from './heap-analysis.js';
import { edgeLabel } from './edge-labels.js';
import type { Chain, RetainerPaths } from './retainer-paths.js';

const UNKNOWN: number = -1;
const UNREACHABLE: number = -2;

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

  constructor(analysis: HeapAnalysis, paths: RetainerPaths) {
    this.#analysis = analysis;
    this.#paths = paths;
    this.#memo = new Int32Array(analysis.graph.nodeCount).fill(UNKNOWN);
  }

  /** The signature id of `ordinal`'s shortest chain, or -1 when it is unreachable. */
  signatureOf(ordinal: number): number {
    const memo = this.#memo;
    if (memo[ordinal] !== UNKNOWN) return memo[ordinal] === UNREACHABLE ? -1 : memo[ordinal]!;
    const graph = this.#analysis.graph;
    const { retainingEdge, retainingNode } = graph.retainers();
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
        known = v === graph.rootOrdinal ? -1 : UNREACHABLE;
        break;
      }
      v = retainingNode[slot]!;
    }
    for (let i = pending.length - 1; i >= 0; i--) {
      const node = pending[i]!;
      if (known === UNREACHABLE) {
        memo[node] = UNREACHABLE;
        continue;
      }
      const slot = this.#paths.parentSlot(node);
      const label = slot < 0 ? '' : edgeLabel(graph, retainingEdge[slot]!, true);
      known = this.#intern(hopName(this.#analysis, node), label, known);
      memo[node] = known;
    }
    return memo[ordinal] === UNREACHABLE ? -1 : memo[ordinal]!;
  }

  #intern(className: string, label: string, parent: number): number {
    // A link identical to the one right above it folds into it (lists, chains of the same class).
    if (parent >= 0) {
      const above = this.#entries[parent]!;
      if (above.className === className && above.label === label) return parent;
    }
    const key = `${parent}\u0000${label}\u0000${className}`;
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = this.#entries.push({ className, label, parent }) - 1;
      this.#ids.set(key, id);
    }
    return id;
  }

  /** `RunTree ← (array)[] ← Map.table ← … ← (root)`; at most `maxHops` holders, then `← …`. */
  text(signature: number, maxHops = 32): string {
    if (signature < 0) return '(unreachable)';
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

/** The signature text of one given chain (object first), with the same folding as PathSignatures. */
export function chainSignature(analysis: HeapAnalysis, chain: Chain): string {
  const graph = analysis.graph;
  const parts: string[] = [];
  let previousLink = '';
  chain.forEach((hop, i) => {
    const name = hopName(analysis, hop.ordinal);
    const label = i === 0 ? '' : edgeLabel(graph, chain[i - 1]!.edge, true);
    const link = `${name}${label}`;
    if (link !== previousLink) parts.push(link);
    previousLink = link;
  });
  return parts.join(' ← ');
}
