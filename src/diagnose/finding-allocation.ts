// A finding's allocation site (attach --trace-allocations, assertNoLeak): taken from the survivor group
// the finding was made from (analysis/diff/survivor-sites.ts decides the site and its share), and named
// in the fix when it is the user's own code, so the fix points at the line to change.

import type { AllocationFrame } from '../analysis/allocation-site.js';
import type { SurvivorGroup } from '../analysis/diff/diff-series.js';
import type { Finding } from './diagnose.js';

export interface FindingAllocation {
  /** Innermost first: the user's frame, then the library frame it called (allocation-site.ts). */
  readonly frames: readonly AllocationFrame[];
  /** Of the finding's survivors with a known site, the fraction this site made. */
  readonly share: number;
  /** Set when the site made a holder on the chain rather than the objects: its class and hop (0 = the object). */
  readonly holder?: { readonly className: string; readonly hop: number };
}

/** `where` as a person reads it in a sentence: `fn() at /path/file.js:23`. */
export function frameText(frame: AllocationFrame): string {
  const at = frame.line > 0 ? `${frame.url}:${frame.line}` : frame.url || '(V8 builtin)';
  return frame.function ? `${frame.function}() at ${at}` : at;
}

/** Each finding (and each member) gets the site of the group of its own signature, when there is one. */
export function withAllocations(findings: readonly Finding[], groups: readonly SurvivorGroup[]): Finding[] {
  const bySignature = new Map(groups.map((g) => [g.signature, g]));
  const add = (f: Finding): Finding => {
    const site = f.signature === null ? undefined : bySignature.get(f.signature)?.allocation;
    const members = f.members?.map(add);
    if (!site) return members ? { ...f, members } : f;
    const allocation: FindingAllocation = { frames: site.site.frames, share: site.share, ...(site.holder ? { holder: site.holder } : {}) };
    const user = site.site.inUserCode ? site.site.frames[0] : undefined;
    const made = site.holder ? `the ${site.holder.className} that holds them is made` : 'they are made';
    return {
      ...f,
      allocation,
      ...(user ? { fix: `${f.fix}; ${made} in ${frameText(user)}` } : {}),
      ...(members ? { members } : {}),
    };
  };
  return findings.map(add);
}
