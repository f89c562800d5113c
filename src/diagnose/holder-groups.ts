// The groups that hold a group's members up its retainer path (docs/diagnosis-model.md, "Held members
// go with their holders"): for `(string) ← {value}.value ← (array)[] ← Map.table ← …`, the group
// `{value} ← (array)[] ← Map.table ← …`, then that one's holder group, and so on. Found by signature:
// a holder group's signature is the path without its first object, its own class first.

import type { GrowingGroup } from './growing-group.js';

const HOP = ' ← ';

/** `hop` names an object of `className`, then the link's label (`.value`, `[]`), not a longer name. */
function isHopOf(hop: string, className: string): boolean {
  return hop.startsWith(className) && !/^[\w$]/.test(hop.slice(className.length));
}

/** The groups up each group's path, nearest first; single paths only (a class summed over paths has none). */
export function holderGroupsOf(groups: readonly GrowingGroup[]): (g: GrowingGroup) => GrowingGroup[] {
  const byRest = new Map<string, GrowingGroup[]>();
  for (const h of groups) {
    if (h.paths !== 1 || !h.signature.startsWith(h.className + HOP)) continue;
    const rest = h.signature.slice(h.className.length + HOP.length);
    const list = byRest.get(rest);
    if (list) list.push(h);
    else byRest.set(rest, [h]);
  }
  const holderOf = (g: GrowingGroup): GrowingGroup | undefined => {
    const first = g.signature.indexOf(HOP);
    const second = first < 0 ? -1 : g.signature.indexOf(HOP, first + HOP.length);
    if (second < 0) return undefined;
    // The hop holding the members: its class and the label of the link to the member (`{value}.value`).
    const hop = g.signature.slice(first + HOP.length, second);
    return byRest.get(g.signature.slice(second + HOP.length))?.find((h) => isHopOf(hop, h.className));
  };
  return (g) => {
    const out: GrowingGroup[] = [];
    if (g.paths !== 1) return out;
    // Each step drops a hop, so the walk ends within the path's length.
    for (let h = holderOf(g); h; h = holderOf(h)) out.push(h);
    return out;
  };
}
