// Findings that share one root cause become one finding with its members listed. Decided on the graph,
// never on names: a growth finding's chain runs from its new objects back to the root, and the first
// hop that already existed at the first snapshot (its V8 id is at most that snapshot's largest id: ids
// only grow, docs/node-facts.md) is where the growth hangs on the program's lasting structure — its *anchor*.
// Groups anchored at the same node are held by the same lasting holder (in the demo: ResolvingLoadBalancer,
// ChannelzInfoTracker, InternalChannel and the RunTree the channel's timer captured all hang on one
// old Subchannel's listener set: one leaked channel per turn). The largest stays the finding; the
// others become its `members`, kept whole for JSON. The anchor also decides the fix when its kind is
// known (fixes.ts holderFix): it is the place the objects accumulate.

import type { ChainHop } from '../analysis/chain-description.js';
import type { Finding } from './finding.js';
import { fixFields, holderFix } from './fixes.js';

/** Kinds of growth that can share a holder; backlogs and external memory keep their own findings. */
const FOLDABLE: ReadonlySet<Finding['kind']> = new Set(['leak', 'should-be-few']);

/**
 * The first hop after the object that existed before the series began (id ≤ `firstMaxId`), or undefined
 * when every hop is new or only the root (or a synthetic root) is old: then nothing lasting is shared.
 */
export function anchorOf(chain: readonly ChainHop[], firstMaxId: number): ChainHop | undefined {
  const at = anchorIndex(chain, firstMaxId);
  return at < 0 ? undefined : chain[at];
}

/** The largest id of the series' first snapshot, or undefined without ids: hops at or below it were there before the series. */
export function firstMaxIdOf(diff: { readonly mode: string; readonly snapshots: readonly { readonly maxId: number }[] }): number | undefined {
  return diff.mode === 'ids' ? Math.min(...diff.snapshots.map((s) => s.maxId)) : undefined;
}

/** anchorOf's hop as a chain index, -1 when there is none. */
export function anchorIndex(chain: readonly ChainHop[], firstMaxId: number): number {
  for (let i = 1; i < chain.length - 1; i++) {
    const hop = chain[i]!;
    if (hop.node.type === 'synthetic') return -1;
    if (hop.node.id <= firstMaxId) return i;
  }
  return -1;
}

/** Kinds whose fix the lasting holder decides (a should-be-few class has its own: build it once). */
const FIXED_AT_HOLDER: ReadonlySet<Finding['kind']> = new Set(['leak', 'external']);

/** `f` with the fix its anchor's kind gives (holderFix), or as it was when the anchor says nothing. */
function fixAtAnchor(f: Finding, firstMaxId: number): Finding {
  if (!FIXED_AT_HOLDER.has(f.kind)) return f;
  const fix = holderFix(f.className, f.chain, anchorIndex(f.chain, firstMaxId));
  return fix ? { ...f, ...fixFields(fix) } : f;
}

/** Folds `findings` (largest first) by anchor; the order of the leads is kept. */
export function foldSharedHolders(findings: readonly Finding[], firstMaxId: number | undefined): Finding[] {
  if (firstMaxId === undefined) return [...findings];
  const leadOf = new Map<number, number>(); // anchor id → index in `out`
  const out: Finding[] = [];
  for (const found of findings) {
    const f = fixAtAnchor(found, firstMaxId);
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
