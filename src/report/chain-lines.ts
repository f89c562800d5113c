// A retainer chain as text lines, object first, one hop a line:
//   RunTree @31425  (retains 512 B)
//     ← [15053] in (array) @214753
//     ← .table in Map @214739  (retains 4.31 MiB)
// Edge names and ids are DevTools' own, so each hop can be found in its Retainers view.

import type { ChainHop } from '../analysis/chain-description.js';
import { formatBytes } from './format.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function formatEdgeName(edge: { readonly type: string; readonly name: string }): string {
  if (edge.type === 'element' || edge.type === 'hidden' || /^\d+$/.test(edge.name)) return `[${edge.name}]`;
  if (IDENTIFIER.test(edge.name)) return `.${edge.name}`;
  return `[${JSON.stringify(edge.name)}]`;
}

function hopText(hop: ChainHop): string {
  return `${hop.node.className} @${hop.node.id}`;
}

export function chainLines(chain: readonly ChainHop[], indent = '  '): string[] {
  if (chain.length === 0) return [`${indent}(no path to a GC root: unreachable)`];
  const lines: string[] = [];
  chain.forEach((hop, i) => {
    const size = `  (retains ${formatBytes(hop.retainedSize)})`;
    if (i === 0) {
      lines.push(`${indent}${hopText(hop)}${size}`);
      return;
    }
    const held = chain[i - 1]!.edge;
    const via = held ? `${formatEdgeName(held)} (${held.type}) in ` : '';
    lines.push(`${indent}  ← ${via}${hopText(hop)}${i === chain.length - 1 ? '' : size}`);
  });
  return lines;
}
