// Where a survivor group was made: the shape survivor-sites.ts and attaching-closures.ts both return, in
// a module of its own so that neither imports the other for it.

import type { AllocationSite } from '../allocation-site.js';

export interface GroupAllocation {
  readonly site: AllocationSite;
  /** Of the members whose site (or, for a holder's site, whose holders' sites) is known, the fraction this site made. */
  readonly share: number;
  /** Set when the site made a holder on the members' chain, not the members: its class and hop (0 = the member). */
  readonly holder?: { readonly className: string; readonly hop: number; readonly owner?: string };
}
