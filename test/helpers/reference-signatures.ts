// Retainer-path signatures and comparison keys written the obvious way, as text, for the oracle test
// test/e2e/signature-keys-real.test.ts: per node, its whole shortest chain (RetainerPaths.shortestPath,
// lasting holders first) folded into one string by the rules of path-signatures.ts and signature-keys.ts
// restated here with strings (hop names, list keys, labels, the first shared holder) — no interning, no
// memo, no typed array. Slow on purpose (a chain of strings per node): small snapshots only.

import type { HeapAnalysis } from '../../src/analysis/heap-analysis.js';
import { edgeLabel } from '../../src/analysis/edge-labels.js';
import { EDGE_DISTANCE } from '../../src/analysis/essential-edges.js';
import { slotBits } from '../../src/analysis/retainer-index.js';
import type { Chain, RetainerPaths } from '../../src/analysis/retainer-paths.js';
import { hopName } from '../../src/analysis/signature-parts.js';

const NO_ROOT = '(no path from the GC roots)';

function listKeyOf(analysis: HeapAnalysis, node: number): string | undefined {
  const graph = analysis.graph;
  const t = graph.nodeType[node];
  if (t === graph.nodeTypes.hidden) return graph.nodeNameOf(node) === 'system / PromiseReaction' ? 'system / PromiseReaction' : undefined;
  if (t !== graph.nodeTypes.object) return undefined;
  const name = hopName(analysis, node);
  return name.startsWith('system / ') || name === 'Object' || name === 'Array' || name.startsWith('{') ? undefined : name;
}

function isListLink(analysis: HeapAnalysis, node: number, holder: number): boolean {
  const key = listKeyOf(analysis, node);
  return key !== undefined && listKeyOf(analysis, holder) === key;
}

function linkLabel(analysis: HeapAnalysis, node: number, edge: number): string {
  const graph = analysis.graph;
  const key = listKeyOf(analysis, node);
  if (key === undefined || edge < 0) return edgeLabel(graph, edge, true);
  const { firstRetainer, retainingNode } = analysis.retainers;
  const holders: number[] = [];
  for (let s = firstRetainer[node]!; s < firstRetainer[node + 1]!; s++) holders.push(retainingNode[s]!);
  const held: number[] = [];
  for (let e = graph.firstEdge[node]!; e < graph.firstEdge[node + 1]!; e++) if (analysis.edgeMask[e] !== 0) held.push(graph.edgeTarget[e]!);
  const inList = (u: number): boolean => u !== node && listKeyOf(analysis, u) === key;
  return holders.some(inList) && held.some(inList) ? ' (list)' : edgeLabel(graph, edge, true);
}

/** A chain's signature text: object first, list links folded into their holder, NO_ROOT or `…` at a chain that stops short. */
export function referenceChainText(analysis: HeapAnalysis, chain: Chain, cut = false): string {
  const parts: string[] = [];
  let label = '';
  chain.forEach((hop, i) => {
    const holder = chain[i + 1];
    if (holder && isListLink(analysis, hop.ordinal, holder.ordinal)) return;
    parts.push(hopName(analysis, hop.ordinal) + (parts.length === 0 ? '' : label));
    if (holder) label = linkLabel(analysis, hop.ordinal, hop.edge);
  });
  const top = chain[chain.length - 1];
  if (top !== undefined && top.ordinal !== analysis.graph.rootOrdinal) parts.push(cut ? '…' : NO_ROOT);
  return parts.join(' ← ');
}

/** The whole signature of a node. `paths` must follow the lasting distances (preferLasting). */
export function referenceSignature(analysis: HeapAnalysis, paths: RetainerPaths, ordinal: number): string {
  return referenceChainText(analysis, paths.shortestPath(ordinal));
}

/** Held by two or more distinct objects over path edges, transient roots, bookkeeping and compiled code not counted. */
function isShared(analysis: HeapAnalysis, paths: RetainerPaths, node: number): boolean {
  const { firstRetainer, retainingNode, retainingBits } = analysis.retainers;
  const holders = new Set<number>();
  for (let s = firstRetainer[node]!; s < firstRetainer[node + 1]!; s++) {
    const u = retainingNode[s]!;
    if (u === node || (slotBits(retainingBits, s) & EDGE_DISTANCE) === 0) continue;
    if (paths.isMomentHolder(u) || analysis.graph.nodeType[u] === analysis.graph.nodeTypes.code) continue;
    holders.add(u);
  }
  return holders.size > 1;
}

/** The comparison key: the chain up to its first shared holder (the first holder always kept). */
export function referenceComparisonKey(analysis: HeapAnalysis, paths: RetainerPaths, ordinal: number): string {
  const chain = paths.shortestPath(ordinal);
  if (chain.length === 0) return '(unreachable)';
  const cut = chain.findIndex((hop, i) => i >= 1 && i < chain.length - 1 && isShared(analysis, paths, hop.ordinal));
  return cut < 0 ? referenceChainText(analysis, chain) : referenceChainText(analysis, chain.slice(0, cut + 1), true);
}
