// One shape for a growing group, whichever way the snapshots were compared: survivors matched by V8
// id (one process, one inspector session) or live objects counted per retainer path (no identity:
// sessions, instances of one service). The one judge (judge-group.ts) and the finders read only this.

import type { ChainHop } from '../analysis/chain-description.js';
import type { SignatureGroup, SurvivorGroup } from '../analysis/diff/diff-series.js';
import type { HoldKind } from '../analysis/holder-tiers.js';
import { bornPerInterval } from './growth-model.js';

export interface GrowingGroup {
  readonly className: string;
  readonly signature: string;
  /** The chain of its largest member, object first. */
  readonly chain: readonly ChainHop[];
  /**
   * Members at each snapshot: with ids, survivors (born after the first snapshot, alive at the newest)
   * present at each, the first 0; without, live objects along the path.
   */
  readonly counts: readonly number[];
  /** Kept objects born in each interval, where ids tell it; null where objects are not known by identity. */
  readonly born: readonly number[] | null;
  /** What the members retain together in the newest snapshot, and of that, ArrayBuffer backing stores. */
  readonly retainedSize: number;
  readonly externalSize: number;
  /**
   * Of the gain, objects that may only have moved here from its class's other paths (without identity
   * the shortest path can take another holder: SignatureGroup.lostElsewhere); 0 with ids.
   */
  readonly movedElsewhere: number;
  /** Retainer paths summed into it: 1 for a path, more for a class summed over its paths. */
  readonly paths: number;
  readonly heldBy?: HoldKind;
  readonly plumbing?: unknown;
}

export function fromSurvivorGroup(g: SurvivorGroup): GrowingGroup {
  return {
    className: g.className, signature: g.signature, chain: g.chain, counts: g.counts, born: bornPerInterval(g.counts),
    retainedSize: g.retainedSize, externalSize: g.externalSize, movedElsewhere: 0, paths: 1, heldBy: g.heldBy,
    ...(g.plumbing ? { plumbing: g.plumbing } : {}),
  };
}

export function fromSignatureGroup(g: SignatureGroup): GrowingGroup {
  return {
    className: g.className, signature: g.signature, chain: g.chain, counts: g.counts, born: null,
    retainedSize: g.retainedSize, externalSize: g.externalSize, movedElsewhere: g.lostElsewhere, paths: 1,
  };
}

/** Objects the group added, first snapshot to last, that cannot have moved from its class's other paths. */
export function addedObjects(g: GrowingGroup): number {
  return Math.max(0, g.counts[g.counts.length - 1]! - g.counts[0]! - g.movedElsewhere);
}
