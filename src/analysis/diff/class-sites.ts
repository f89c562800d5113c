// Where an object born in the series was made, when V8 recorded no stack for it: what the other objects
// of its class born in the series agree on. Allocation tracking leaves most objects without a stack
// (measured on story A, the agent fixture: 24–41% of the objects born after the first snapshot have
// one on Node 20, 22 and 24, in stretches: some stretches of ids have almost none), and on Node 20
// some stacks are stale (docs/allocation-sites.md). One InternalChannel's missing stack says nothing; that the
// twelve InternalChannels of the series that have one were all made at one line says where this one
// was most likely made too. Used for the holders and owners of a group's chain (survivor-sites.ts),
// never for the members themselves, whose sites are counted as recorded.
//
// Only JS objects (node type `object`) are inferred: closures, arrays' backing stores and strings are
// made everywhere by everyone, and their "class" says nothing about who made one.

import { allocationSiteKey, type AllocationSite } from '../allocation-site.js';
import type { AllocationStacks } from '../allocation-stacks.js';
import type { HeapAnalysis } from '../heap-analysis.js';

/** A class's objects must have at least this many recorded stacks to speak for the others. */
const MIN_RECORDED = 2;
/** ... and at least this share of them must name one site. */
const MIN_AGREEMENT = 0.5;

export interface KnownSite {
  readonly site: AllocationSite;
  /** True when the object has no stack of its own and the site is its class's (see the header). */
  readonly inferred: boolean;
}

export class ClassSites {
  readonly #analysis: HeapAnalysis;
  readonly #stacks: AllocationStacks;
  readonly #bornAfter: number;
  /** Per class id: the site its series-born objects agree on, or null when they do not; filled on first use. */
  #agreed: Map<number, AllocationSite | null> | undefined;

  constructor(analysis: HeapAnalysis, stacks: AllocationStacks, bornAfter: number) {
    this.#analysis = analysis;
    this.#stacks = stacks;
    this.#bornAfter = bornAfter;
  }

  /** `ordinal`'s own site, else (an object born in the series) its class's, else undefined. */
  siteOf(ordinal: number): KnownSite | undefined {
    const own = this.#stacks.siteOf(ordinal);
    if (own !== undefined) return { site: own, inferred: false };
    const g = this.#analysis.graph;
    if (g.nodeId[ordinal]! <= this.#bornAfter || g.nodeType[ordinal] !== g.nodeTypes.object) return undefined;
    const agreed = this.#agreement().get(this.#analysis.classIndex.classOf[ordinal]!);
    return agreed ? { site: agreed, inferred: true } : undefined;
  }

  /** One pass over the objects born in the series that have a stack: the site each class agrees on. */
  #agreement(): Map<number, AllocationSite | null> {
    if (this.#agreed) return this.#agreed;
    const g = this.#analysis.graph;
    const { classOf } = this.#analysis.classIndex;
    const counts = new Map<number, { recorded: number; sites: Map<string, { site: AllocationSite; count: number }> }>();
    // siteOf answers one object per trace node: its key is built once, not once per object.
    const keys = new Map<AllocationSite, string>();
    for (let n = 0; n < g.nodeCount; n++) {
      if (g.nodeId[n]! <= this.#bornAfter || g.nodeType[n] !== g.nodeTypes.object) continue;
      const site = this.#stacks.siteOf(n);
      if (site === undefined) continue;
      const c = classOf[n]!;
      let entry = counts.get(c);
      if (!entry) counts.set(c, (entry = { recorded: 0, sites: new Map() }));
      entry.recorded++;
      let key = keys.get(site);
      if (key === undefined) keys.set(site, (key = allocationSiteKey(site)));
      const s = entry.sites.get(key);
      if (s) s.count++;
      else entry.sites.set(key, { site, count: 1 });
    }
    this.#agreed = new Map();
    for (const [c, { recorded, sites }] of counts) {
      let best: { site: AllocationSite; count: number } | undefined;
      for (const s of sites.values()) if (!best || s.count > best.count) best = s;
      const agrees = best !== undefined && recorded >= MIN_RECORDED && best.count / recorded >= MIN_AGREEMENT;
      this.#agreed.set(c, agrees ? best!.site : null);
    }
    return this.#agreed;
  }
}
