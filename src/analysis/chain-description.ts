// A retainer chain as plain data for reports and JSON: each hop's node (V8 id, safe name, type, class),
// the edge its holder holds it by (property names that may be data redacted: redact.ts), and sizes,
// object first, root last. Ids and edge names are exactly
// what DevTools shows, so every hop can be checked there.

import type { HeapAnalysis } from './heap-analysis.js';
import { describeNodeName } from './node-names.js';
import { hopName } from './path-signatures.js';
import { shownEdgeName } from './redact.js';
import type { Chain } from './retainer-paths.js';
import type { HeapGraph } from '../snapshot/heap-graph.js';

/** What a hop is, in words, when something recognises it (src/diagnose supplies the recognisers). */
export interface HopLabel {
  readonly kind: string;
  readonly text: string;
  /** The same in a few words, for a chain folded to one line (report/chain-lines.ts); `text` when absent. */
  readonly short?: string;
  /** True when the label is a guess from the neighbourhood rather than read off the chain. */
  readonly inferred?: boolean;
}

/** Labels a chain, hop by hop; injected by callers so the analysis layer knows no recognisers. */
export type ChainLabeler = (analysis: HeapAnalysis, chain: Chain) => readonly (HopLabel | undefined)[];

export interface ChainHop {
  readonly node: { readonly id: number; readonly name: string; readonly type: string; readonly className: string };
  /**
   * How the next hop holds this one; null on the root. A property name that may be data is shown as
   * `<key, N chars>` with `redacted: true` (redact.ts).
   */
  readonly edge: { readonly type: string; readonly name: string; readonly redacted?: true } | null;
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
    edge: edge < 0 ? null : shownEdge(graph, edge),
    selfSize: analysis.selfSizes[ordinal]!,
    retainedSize: analysis.retainedSizes[ordinal]!,
    ...(labels?.[i] ? { label: labels[i] } : {}),
  }));
}

function shownEdge(graph: HeapGraph, edge: number): NonNullable<ChainHop['edge']> {
  const { name, redacted } = shownEdgeName(graph, edge);
  return redacted ? { type: graph.edgeTypeNameOf(edge), name, redacted: true } : { type: graph.edgeTypeNameOf(edge), name };
}
