// Findings that share one root cause become one finding with its members listed. Decided on the graph,
// never on names: a growth finding's chain runs from its new objects back to the root, and the first
// hop that already existed at the first snapshot (its V8 id is at most that snapshot's largest id: ids
// only grow, DESIGN.md) is where the growth hangs on the program's lasting structure — its *anchor*.
// Groups anchored at the same node are held by the same lasting holder (in the demo: ResolvingLoadBalancer,
// ChannelzInfoTracker, InternalChannel and the RunTree the channel's timer captured all hang on one
// old Subchannel's listener set: one leaked channel per turn). The largest stays the finding; the
// others become its `members`, kept whole for JSON.

import type { ChainHop } from '../analysis/chain-description.js';
import type { Finding } from './finding.js';

/** Kinds of growth that can share a holder; backlogs and external memory keep their own findings. */
const FOLDABLE: ReadonlySet<Finding['kind']> = new Set(['leak', 'should-be-few']);

/**
 * The first hop after the object that existed before the series began (id ≤ `firstMaxId`), or undefined
 * when every hop is new or only the root (or a synthetic root) is old: then nothing lasting is shared.
 */
export function anchorOf(chain: readonly ChainHop[], firstMaxId: number): ChainHop | undefined {
  for (let i = 1; i < chain.length - 1; i++) {
    const hop = chain[i]!;
    if (hop.node.type === 'synthetic') return undefined;
    if (hop.node.id <= firstMaxId) return hop;
  }
  return undefined;
}

/** Folds `findings` (largest first) by anchor; the order of the leads is kept. */
export function foldSharedHolders(findings: readonly Finding[], firstMaxId: number | undefined): Finding[] {
  if (firstMaxId === undefined) return [...findings];
  const leadOf = new Map<number, number>(); // anchor id → index in `out`
  const out: Finding[] = [];
  for (const f of findings) {
    const anchor = FOLDABLE.has(f.kind) ? anchorOf(f.chain, firstMaxId) : undefined;
    const at = anchor === undefined ? undefined : leadOf.get(anchor.node.id);
    if (at === undefined) {
      if (anchor) leadOf.set(anchor.node.id, out.length);
      out.push(f);
      continue;
    }
    const lead = out[at]!;
    out[at] = { ...lead, members: [...(lead.members ?? []), f] };
  }
  return out;
}
