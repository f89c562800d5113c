// Which growth the finders count and which group may lead a finding: one rule for every finder (the
// id diff, the signature diff, backlogs, the verdict's class totals, assertNoLeak).
//
// - V8's own objects (code, shapes, system objects) come and go on their own: never the program's growth.
// - Context plumbing (an AsyncContextFrame and its table) is how a resource holds a store: what leaks
//   is what the frame holds, never the frame.
// - A group nothing lasting holds (only a per-moment root, or only Node's cleanup list) is not kept.
// - A group whose own holders are the module system is bounded by the code (code-bounded.ts): it may
//   be listed under a finding, never lead one.

import type { ChainHop } from '../analysis/chain-description.js';
import type { HoldKind } from '../analysis/holder-tiers.js';
import { heldByModuleSystem } from './code-bounded.js';

/** V8's own objects: code, shapes, system objects; they come and go on their own. */
export const V8_INTERNAL = /^\((compiled code|system|object shape|sliced string|concatenated string)\)$|^system \/ /;
/** Hops that carry something else: never named as what leaks (the frame's store is). */
export const PLUMBING = /^(AsyncContextFrame)$/;

/** A class whose growth is the program's: neither V8's own objects nor context plumbing. */
export function isProgramGrowth(className: string): boolean {
  return !V8_INTERNAL.test(className) && !PLUMBING.test(className);
}

/** What the filter reads of a group; ids give `heldBy` and `plumbing`, both diff modes the rest. */
export interface FilteredGroup {
  readonly className: string;
  readonly signature: string;
  readonly chain: readonly ChainHop[];
  readonly heldBy?: HoldKind;
  readonly plumbing?: unknown;
}

/** The group's growth counts at all: the program's objects, held by something lasting. */
export function countsAsGrowth(g: Pick<FilteredGroup, 'className' | 'heldBy' | 'plumbing'>): boolean {
  if (!isProgramGrowth(g.className) || g.plumbing) return false;
  return g.heldBy === undefined || g.heldBy === 'lasting' || g.heldBy === 'unrooted';
}

/** A counted group may lead a finding unless the code bounds it (code-bounded.ts). */
export function mayLeadFinding(g: FilteredGroup): boolean {
  return countsAsGrowth(g) && g.chain.length > 0 && !heldByModuleSystem(g);
}
