// A retainer chain as text lines, object first, one hop a line:
//   RunTree @31425  (retains 512 B)
//     ← [15053] in (array) @214753
//     ← .table in Map @214739  (retains 4.31 MiB)
// Edge names and ids are DevTools' own, so each hop can be found in its Retainers view.

import type { ChainHop } from '../analysis/chain-description.js';
import { formatBytes } from './format.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function formatEdgeName(edge: { readonly type: string; readonly name: string; readonly redacted?: true }): string {
  // A property name that may be data comes already replaced by `<key, N chars>` (analysis/redact.ts).
  if (edge.redacted) return `[${edge.name}]`;
  if (edge.type === 'element' || edge.type === 'hidden' || /^\d+$/.test(edge.name)) return `[${edge.name}]`;
  if (IDENTIFIER.test(edge.name)) return `.${edge.name}`;
  return `[${JSON.stringify(edge.name)}]`;
}

function hopText(hop: ChainHop): string {
  return `${hop.node.className} @${hop.node.id}`;
}

function labelText(hop: ChainHop): string {
  return hop.label ? `  ⟵ ${hop.label.text}${hop.label.inferred ? ' (inferred)' : ''}` : '';
}

/** Same holder class reached by the same edge name as the hop before: a link of a list. */
function isRepeat(chain: readonly ChainHop[], i: number): boolean {
  if (i < 2) return false;
  const a = chain[i - 1]!, b = chain[i]!;
  return a.node.className === b.node.className && chain[i - 2]!.edge?.name === a.edge?.name && !a.label && !b.label;
}

export function chainLines(chain: readonly ChainHop[], indent = '  '): string[] {
  if (chain.length === 0) return [`${indent}(no path to a GC root: unreachable)`];
  const lines: string[] = [];
  let repeats = 0;
  chain.forEach((hop, i) => {
    const size = `  (retains ${formatBytes(hop.retainedSize)})`;
    if (i === 0) {
      lines.push(`${indent}${hopText(hop)}${size}${labelText(hop)}`);
      return;
    }
    // A long list (Timeout._idleNext → Timeout → …) prints its first link and a count, not every link.
    if (isRepeat(chain, i) && i + 1 < chain.length && isRepeat(chain, i + 1)) {
      repeats++;
      return;
    }
    if (repeats > 0) {
      lines.push(`${indent}  ← … ${repeats} more ${chain[i - 1]!.node.className} links …`);
      repeats = 0;
    }
    const held = chain[i - 1]!.edge;
    const via = held ? `${formatEdgeName(held)} (${held.type}) in ` : '';
    lines.push(`${indent}  ← ${via}${hopText(hop)}${i === chain.length - 1 ? '' : size}${labelText(hop)}`);
  });
  return lines;
}
