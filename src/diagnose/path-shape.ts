// Folds that only the shape of retainer paths can tell, for groups compared without ids (one finder,
// find-growth.ts): a group's objects can hold a finding's objects along a chain that does not name the
// finding's class, and siblings in one container (a Map's keys beside its values) are two groups. With
// ids the holder that existed before the first snapshot tells both (fold-findings.ts).

import type { ChainHop } from '../analysis/chain-description.js';

/** Hops compared when a group's chain is matched inside a finding's chain. */
const MATCHED_HOPS = 3;

/**
 * The group's objects hold the finding's: its chain is a tail of the finding's chain (same classes, same
 * edges but element indices, for MATCHED_HOPS hops or to the root). Closures that each hold one document:
 * the document is the finding, the closures its carriers.
 */
export function tailOfChain(own: readonly ChainHop[], of: readonly ChainHop[]): boolean {
  for (let i = 1; i < of.length; i++) {
    let j = 0;
    while (j < MATCHED_HOPS && j < own.length && i + j < of.length && sameHop(own[j]!, of[i + j]!)) j++;
    if (j === MATCHED_HOPS || (j > 0 && (j === own.length || i + j === of.length))) return true;
  }
  return false;
}

function sameHop(a: ChainHop, b: ChainHop): boolean {
  if (a.node.className !== b.node.className) return false;
  if (a.edge === null || b.edge === null) return a.edge === b.edge;
  return a.edge.type === b.edge.type && (a.edge.type === 'element' || a.edge.type === 'hidden' || a.edge.name === b.edge.name);
}

interface Signed {
  readonly className: string;
  readonly signature: string | null;
}

/** The same path from the holder up: siblings in one container (a signature is its class, then the holder's path). */
export function sameHolder(g: Signed, f: Signed): boolean {
  if (g.signature === null || f.signature === null || !g.signature.startsWith(g.className) || !f.signature.startsWith(f.className)) return false;
  return g.signature.slice(g.className.length) === f.signature.slice(f.className.length);
}
