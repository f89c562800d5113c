// A finding's allocation site (attach --trace-allocations, assertNoLeak): taken from the survivor group
// the finding was made from (analysis/diff/survivor-sites.ts decides the site and its share), and named
// in the fix when it is the user's own code, so the fix points at the line to change. A folded finding
// (fold-findings.ts: members that share its holder, hence its cause) whose own site is not the user's
// takes the user's site its members were made at: story A's RunTree is made by LangChain wherever the
// turn runs, while the gRPC client's internals that share its cause are made at the line that builds
// the client per turn — the line to change (docs/allocation-sites.md).

import { allocationSiteKey, frameOrigin, type AllocationFrame } from '../analysis/allocation-site.js';
import type { SurvivorGroup } from '../analysis/diff/diff-series.js';
import type { Finding, FindingAllocation } from './finding.js';


/** `where` as a person reads it in a sentence: `fn() at /path/file.js:23`. */
export function frameText(frame: AllocationFrame): string {
  const at = frame.line > 0 ? `${frame.url}:${frame.line}` : frame.url || '(V8 builtin)';
  return frame.function ? `${frame.function}() at ${at}` : at;
}

/** Each finding gets the site of the group of its own signature, when there is one. */
export function withAllocations(findings: readonly Finding[], groups: readonly SurvivorGroup[]): Finding[] {
  const bySignature = new Map(groups.map((g) => [g.signature, g]));
  return findings.map((f) => {
    const site = f.signature === null ? undefined : bySignature.get(f.signature)?.allocation;
    if (!site) return f;
    return withSite(f, { frames: site.site.frames, share: site.share, ...(site.holder ? { holder: site.holder } : {}) });
  });
}

/**
 * After folding (fold-findings.ts): a finding whose own site is not the user's code takes the user's
 * site its members were made at, when they have one.
 */
export function withSameCauseSites(findings: readonly Finding[]): Finding[] {
  return findings.map((f) => {
    if (!f.members?.length || (f.allocation && inUserCode(f.allocation))) return f;
    const shared = membersSite(f.members);
    return shared ? withSite(f, shared) : f;
  });
}

/** The finding with its site, and its fix naming the user's line when the site is the user's code. */
function withSite(f: Finding, allocation: FindingAllocation): Finding {
  const user = inUserCode(allocation) ? allocation.frames[0] : undefined;
  if (!user) return { ...f, allocation };
  const made = allocation.sameCause
    ? `the ${allocation.sameCause.className} that shares their cause is made`
    : allocation.holder?.owner && allocation.holder.hop === 0 ? `the ${allocation.holder.owner} they work for is made`
      : allocation.holder?.owner ? `the ${allocation.holder.owner} whose ${allocation.holder.className} holds them is made`
      : allocation.holder ? `the ${allocation.holder.className} that holds them is made` : 'they are made';
  const where = `; ${made} in ${frameText(user)}`;
  return { ...f, allocation, fix: `${f.fix}${where}`, action: `${f.action}${where}` };
}

function inUserCode(a: FindingAllocation): boolean {
  return a.frames[0] !== undefined && frameOrigin(a.frames[0].url) === 'user';
}

/**
 * The user's site most of the members were made at (weighted by their counts; its share is of the
 * members whose site is known), naming the member class with the most objects made there.
 */
function membersSite(members: readonly Finding[]): FindingAllocation | undefined {
  const bySite = new Map<string, { frames: readonly AllocationFrame[]; count: number; top: Finding }>();
  let known = 0;
  for (const m of members) {
    if (!m.allocation || m.allocation.sameCause) continue;
    known += m.count;
    if (!inUserCode(m.allocation)) continue;
    const key = allocationSiteKey({ frames: m.allocation.frames, inUserCode: true });
    const entry = bySite.get(key) ?? { frames: m.allocation.frames, count: 0, top: m };
    entry.count += m.count;
    if (m.count > entry.top.count) entry.top = m;
    bySite.set(key, entry);
  }
  const best = [...bySite.values()].sort((a, b) => b.count - a.count)[0];
  if (!best || known === 0) return undefined;
  return { frames: best.frames, share: best.count / known, sameCause: { className: best.top.allocation?.holder?.className ?? best.top.className } };
}
