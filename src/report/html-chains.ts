// Retainer chains in the HTML report: one collapsible <details> per chain, every hop with its V8 node id
// (searchable as @id in DevTools), class, name, the edge it is held by and its sizes; hops a recogniser
// labelled (async-context store, native holder, framework object: src/diagnose/chain-labels.ts) stand out.
// Paths in labels are as a person reads them (paths.ts), like the text report.

import type { ChainHop } from '../analysis/chain-description.js';
import { formatBytes } from './format.js';
import { element, escapeHtml } from './html-escape.js';
import { readablePaths } from './paths.js';

function hopItem(hop: ChainHop, holder: ChainHop | undefined): string {
  const id = element('code', { class: 'id' }, `@${hop.node.id}`);
  const name = hop.node.name && hop.node.name !== hop.node.className ? ` ${element('span', { class: 'name' }, escapeHtml(hop.node.name))}` : '';
  const sizes = element('span', { class: 'size' }, `self ${escapeHtml(formatBytes(hop.selfSize))} · retained ${escapeHtml(formatBytes(hop.retainedSize))}`);
  const label = hop.label ? ` ${element('span', { class: 'label', title: hop.label.inferred ? 'inferred from the neighbourhood' : hop.label.kind }, escapeHtml(readablePaths(hop.label.text)))}` : '';
  const edge = hop.edge && holder
    ? element('div', { class: 'edge' }, `held as ${element('code', {}, escapeHtml(hop.edge.name))} (${escapeHtml(hop.edge.type)}${hop.edge.redacted ? ', name redacted' : ''}) by`)
    : '';
  const head = `${id} ${element('b', {}, escapeHtml(hop.node.className))}${name} ${element('span', { class: 'type' }, escapeHtml(hop.node.type))} ${sizes}${label}`;
  return element('li', { class: hop.label ? 'hop labelled' : 'hop' }, `${head}${edge}`);
}

/** A chain, object first and root last, collapsed to its ends until opened. */
export function chainDetails(chain: readonly ChainHop[], caption: string): string {
  if (chain.length === 0) return element('p', { class: 'dim' }, 'no retainer chain was recorded');
  const first = chain[0]!;
  const last = chain[chain.length - 1]!;
  const labels = chain.filter((h) => h.label).length;
  const summary = `${escapeHtml(caption)}: ${element('b', {}, escapeHtml(first.node.className))} @${first.node.id} … ${escapeHtml(last.node.className)} — ${chain.length} hops${labels ? `, ${labels} labelled` : ''}`;
  const hops = chain.map((hop, i) => hopItem(hop, chain[i + 1])).join('');
  const hint = element('p', { class: 'hint' }, 'object first, GC root last; find any @id in DevTools: Memory → load the snapshot → Ctrl+F');
  return element('details', { class: 'chain' }, `${element('summary', {}, summary)}${hint}${element('ol', { class: 'hops' }, hops)}`);
}
