// The fix for a growing group: src/diagnose's suggestFix (the container nearest the object decides),
// read on the part of the chain that belongs to the program. In a test process the chain goes on
// through the runner's machinery (node:test keeps tests in a Map `testResources`, `process._events`
// holds its handlers, vitest keeps modules in a Map), and an object the program holds in a plain
// variable, with no container of its own, would otherwise be blamed on one of those. The program's
// part ends at the first place that holds the chain as a module-level binding: a `system / Context`
// reached by a context or hidden edge (a variable of a scope; from the third hop on, so that a
// closure's own scope right above the leaked object does not end it) or the `(system)` cell of an
// ES module export (`value`).

import type { ChainHop } from '../analysis/chain-description.js';
import { fixText, suggestFix } from '../diagnose/fixes.js';

/** Without a scope on the chain: this many hops. */
const FALLBACK_HOPS = 7;

export function programPart(chain: readonly ChainHop[]): readonly ChainHop[] {
  for (let i = 2; i < chain.length; i++) {
    const held = chain[i - 1]!.edge;
    const name = chain[i]!.node.className;
    const scopeVariable = name === 'system / Context' && (held?.type === 'context' || held?.type === 'hidden');
    const exportCell = name === '(system)' && held?.type === 'internal' && held.name === 'value';
    if (scopeVariable || exportCell) return chain.slice(0, i + 1);
  }
  return chain.slice(0, FALLBACK_HOPS);
}

export function chooseFix(className: string, chain: readonly ChainHop[]): string {
  return fixText(suggestFix(className, programPart(chain)));
}
