// A retainer chain as text lines, object first, one hop a line:
//   RunTree @31425  (retains 512 B)
//     ← [15053] in (array) @214753
//     ← .table in Map @214739  (retains 4.31 MiB)
// Edge names and ids are DevTools' own, so each hop can be found in its Retainers view.

import type { ChainHop } from '../analysis/chain-description.js';
import { formatBytes } from './format.js';
import { briefPaths } from './paths.js';

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

/** Edges a program names in its code: properties and closure (context) variables. */
const NAMED_EDGES = new Set(['property', 'context']);

/** `1 hop` / `12 hops`. */
function hops(n: number): string {
  return `${n} hop${n === 1 ? '' : 's'}`;
}

/**
 * A chain folded to the hops that matter, one string (the terminal wraps it): the object, its holder, the
 * first hop held by a name the program gave (property or closure variable), the first hop of
 * each label kind (the async-context store and the resource that captured it, a native holder, a framework
 * object), the anchor — the first hop that was there before the first snapshot (id ≤ `firstMaxId`), what
 * the growth hangs on — and the root, with `… N hops …` between. Full chains: chainLines (--verbose).
 */
export function foldedChainText(chain: readonly ChainHop[], firstMaxId?: number): string {
  if (chain.length === 0) return '(no path to a GC root: unreachable)';
  const keep = new Set<number>([0, chain.length - 1]);
  const kinds = new Set<string>();
  let anchor = -1;
  chain.forEach((hop, i) => {
    if (hop.label && !kinds.has(hop.label.kind)) {
      kinds.add(hop.label.kind);
      keep.add(i);
    }
    if (anchor < 0 && i > 0 && i < chain.length - 1 && firstMaxId !== undefined && hop.node.id <= firstMaxId && hop.node.type !== 'synthetic') anchor = i;
  });
  if (anchor > 0) keep.add(anchor);
  // The object's own holder, and the first hop the program names (a property or a closure variable: the
  // `responseCache` of `Map.table ← Context.responseCache`): where to look in the code, when no label says.
  if (chain.length > 2) keep.add(1);
  const named = chain.findIndex((_, i) => i >= 1 && i < chain.length - 1 && NAMED_EDGES.has(chain[i - 1]!.edge?.type ?? '') && chain[i - 1]!.edge?.redacted !== true);
  if (named > 0) keep.add(named);
  const parts: string[] = [];
  let last = -1;
  for (const i of [...keep].sort((a, b) => a - b)) {
    if (i - last > 1) parts.push(`… ${hops(i - last - 1)} …`);
    const hop = chain[i]!;
    const held = i > 0 ? chain[i - 1]!.edge : null;
    const via = held && (i === anchor || i === named) ? `${formatEdgeName(held)} of ` : '';
    // A framework object is named by its class; the store, the resource and native holders say what they are.
    const said = hop.label && hop.label.kind !== 'framework' ? briefPaths(hop.label.short ?? hop.label.text) : undefined;
    const note = said ? ` (${said})` : i === anchor ? ' (there before the first snapshot)' : '';
    parts.push(`${via}${hopText(hop)}${note}`);
    last = i;
  }
  return parts.join(' ← ');
}
