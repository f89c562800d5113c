// A retainer chain as plain data for reports and JSON: each hop's node (V8 id, safe name, type, class),
// the edge its holder holds it by, and sizes, object first, root last. Ids and edge names are exactly
// what DevTools shows, so every hop can be checked there.

import type { HeapAnalysis } from './heap-analysis.js';
import { describeNodeName } from './node-names.js';
import { hopName } from './path-signatures.js';
import type { Chain } from './retainer-paths.js';

/** What a hop is, in words, when something recognises it (src/diagnose supplies the recognisers). */
export interface HopLabel {
  readonly kind: string;
  readonly text: string;
  /** True when the label is a guess from the neighbourhood rather than read off the chain. */
  readonly inferred?: boolean;
}

/** Labels a chain, hop by hop; injected by callers so the analysis layer knows no recognisers. */
export type ChainLabeler = (analysis: HeapAnalysis, chain: Chain) => readonly (HopLabel | undefined)[];

export interface ChainHop {
  readonly node: { readonly id: number; readonly name: string; readonly type: string; readonly className: string };
  /** How the next hop holds this one; null on the root. */
  readonly edge: { readonly type: string; readonly name: string } | null;
  readonly selfSize: number;
  readonly retainedSize: number;
  readonly label?: HopLabel;
}

export function describeChain(analysis: HeapAnalysis, chain: Chain, showStrings = false, labeler?: ChainLabeler): ChainHop[] {
  const { graph } = analysis;
  const labels = labeler?.(analysis, chain);
  return chain.map(({ ordinal, edge }, i) => ({
    node: {
      id: graph.nodeId[ordinal]!,
      name: describeNodeName(analysis, ordinal, showStrings),
      type: graph.nodeTypeNameOf(ordinal),
      className: hopName(analysis, ordinal),
    },
    edge: edge < 0 ? null : { type: graph.edgeTypeNameOf(edge), name: graph.edgeNameOf(edge) },
    selfSize: analysis.selfSizes[ordinal]!,
    retainedSize: analysis.retainedSizes[ordinal]!,
    ...(labels?.[i] ? { label: labels[i] } : {}),
  }));
}
