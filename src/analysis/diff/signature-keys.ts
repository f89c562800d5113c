// What a retainer path is compared by when objects cannot be matched by id: its signature
// (path-signatures.ts) from the object up to the first SHARED holder — a node that more than one object
// holds (a module's scope, held by each of its functions; `process`; a list node) — with `← …` where it
// was cut. Up to there the path is the one way the object is held; above it, which of the holder's
// own holders a shortest-path walk takes depends on distances that differ between processes and drift
// within one (seen on map-cache: the module scope of `responseCache` reached through
// `process._events.message` in one process and `.disconnect` in another), so a whole-path text would
// split one leak into unrelated rows. The first holder is always kept, shared or not.

import type { HeapAnalysis } from '../heap-analysis.js';
import { EDGE_DISTANCE } from '../essential-edges.js';
import { chainSignature } from '../path-signatures.js';
import { slotBits } from '../retainer-index.js';
import type { RetainerPaths } from '../retainer-paths.js';

/** The comparison key of `ordinal`'s shortest path; '(unreachable)' when it has none. */
export function comparisonKey(analysis: HeapAnalysis, paths: RetainerPaths, ordinal: number): string {
  const chain = paths.shortestPath(ordinal);
  if (chain.length === 0) return '(unreachable)';
  let end = chain.length - 1;
  for (let i = 1; i < chain.length - 1; i++) {
    if (isShared(analysis, paths, chain[i]!.ordinal)) {
      end = i;
      break;
    }
  }
  return chainSignature(analysis, chain.slice(0, end + 1), end < chain.length - 1);
}

/**
 * Held by two or more distinct objects over edges a path may take (not weak, not self), not counting
 * holders that come and go with the moment of the snapshot: a transient root or bookkeeping list (a
 * snapshot taken while code runs finds what that code uses on `(Stack roots)` or `(Handle scope)`),
 * or V8's compiled code (optimised code may embed an object it uses, once it is optimised). With them
 * the cut, so the key, would depend on that moment: one CI run keyed map-cache's entries `CacheEntry ←
 * (array)[] ← Map.table ← …` in one session, cut at the `responseCache` Map that has one lasting holder.
 */
function isShared(analysis: HeapAnalysis, paths: RetainerPaths, node: number): boolean {
  const { firstRetainer, retainingNode, retainingBits } = analysis.retainers;
  const { nodeType, nodeTypes: { code } } = analysis.graph;
  let first = -1;
  for (let s = firstRetainer[node]!, end = firstRetainer[node + 1]!; s < end; s++) {
    const u = retainingNode[s]!;
    if (u === node || (slotBits(retainingBits, s) & EDGE_DISTANCE) === 0 || paths.isMomentHolder(u) || nodeType[u] === code) continue;
    if (first < 0) first = u;
    else if (u !== first) return true;
  }
  return false;
}
