// A node's name safe to print. Heap strings hold prompts, user messages and API keys, so a string-like
// node is named by its type and length only, unless the caller explicitly asks for contents
// (`--show-strings`), and then cut to a short preview.

import type { HeapAnalysis } from './heap-analysis.js';

export function describeNodeName(analysis: HeapAnalysis, ordinal: number, showStrings = false): string {
  const { graph } = analysis;
  const t = graph.nodeType[ordinal];
  const types = graph.nodeTypes;
  if (t === types.string || t === types.concatenatedString || t === types.slicedString) {
    const index = graph.nodeName[ordinal]!;
    const length = graph.strings.approximateLength(index);
    if (!showStrings) return `<string, ${length} chars>`;
    const text = graph.strings.get(index);
    return JSON.stringify(text.length > 80 ? `${text.slice(0, 79)}…` : text);
  }
  return graph.nodeNameOf(ordinal);
}
