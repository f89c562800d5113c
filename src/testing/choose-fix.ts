// The fix for a growing group: src/diagnose's suggestFix, read on the part of the chain that belongs
// to the program. suggestFix names the first container its rules recognise anywhere on the chain; in
// a test process the chain goes on through the runner's machinery (node:test keeps tests in a Map
// `testResources` and `process._events` holds its handlers; vitest keeps modules in a Map), which would
// otherwise be named as the container. The program's part ends at the first scope that holds the chain
// as a variable (a `system / Context` reached by a context or hidden edge, from the third hop on, so
// that a closure's own scope right above the leaked object does not end it).

import type { ChainHop } from '../analysis/chain-description.js';
import { suggestFix } from '../diagnose/fixes.js';

/** Without a scope on the chain: this many hops. */
const FALLBACK_HOPS = 7;

export function programPart(chain: readonly ChainHop[]): readonly ChainHop[] {
  for (let i = 2; i < chain.length; i++) {
    const held = chain[i - 1]!.edge;
    if (chain[i]!.node.className === 'system / Context' && (held?.type === 'context' || held?.type === 'hidden')) {
      return chain.slice(0, i + 1);
    }
  }
  return chain.slice(0, FALLBACK_HOPS);
}

export function chooseFix(className: string, chain: readonly ChainHop[]): string {
  return suggestFix(className, programPart(chain));
}
