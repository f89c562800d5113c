// A node's name safe to print. Heap strings hold prompts, user messages and API keys, so a string-like
// node is named by its type and length only, unless the caller explicitly asks for contents
// (`--show-strings`), and then cut to a short preview. A RegExp is named by its source, which may be
// built from data: never printed, only its length (redact.ts).

import type { HeapAnalysis } from './heap-analysis.js';
import { shownRegExp } from './redact.js';

export function describeNodeName(analysis: HeapAnalysis, ordinal: number, showStrings = false): string {
  const { graph } = analysis;
  const t = graph.nodeType[ordinal];
  const types = graph.nodeTypes;
  if (t === types.string || t === types.concatenatedString || t === types.slicedString) {
    const index = graph.nodeName[ordinal]!;
    // Exact length in UTF-16 units, as JS and DevTools count; a long string is read back from the file
    // for it (only rows and hops that are printed get here).
    if (!showStrings) return `<string, ${graph.strings.lengthOf(index)} chars>`;
    const text = graph.strings.get(index);
    return JSON.stringify(text.length > 80 ? `${text.slice(0, 79)}…` : text);
  }
  if (t === types.regexp) return shownRegExp(graph.nodeNameOf(ordinal));
  return graph.nodeNameOf(ordinal);
}
