// The last two steps of every finder (docs/diagnosis-model.md, "One finder"): a finding headed by an
// object that only carries the leak is named after the program's own objects held through it, and a
// group whose retained bytes are mostly ArrayBuffer backing stores is memory outside the JS heap.

import { rates } from './finding-rates.js';
import type { DiagnoseInput, Finding } from './finding.js';
import { fixFields, suggestFix } from './fixes.js';
import { V8_INTERNAL } from './group-filter.js';
import { addedObjects, type GrowingGroup } from './growing-group.js';

/**
 * Objects that carry a leak rather than being it: a timer, a listener function, a promise, a plain array,
 * a frame. A finding headed by one of these is named after the program's own objects folded into it when
 * there are any (`PollJob` held by a `Timeout`, `RequestState` closed over by a listener).
 */
const CARRIER = /^(Timeout|Immediate|TimersList|Function|\(closure\)|Array|Object|Promise|Map|Set|WeakRef|AsyncContextFrame|\(object elements\)|\(array\)|\(string\)|\(number\))$|\(\)$/;

/** A finding a carrier heads, to be named after the program's own objects held through it (external memory keeps its holder). */
export function headedByCarrier(f: Finding): boolean {
  return CARRIER.test(f.className) && f.kind !== 'external';
}

/** A class of the program's own objects: neither a carrier nor V8's. */
export function isProgramClass(className: string): boolean {
  return !CARRIER.test(className) && !V8_INTERNAL.test(className);
}

/** The part of a group's retained size its added objects account for (all of it with ids: every member is new). */
export function grownRetained(g: GrowingGroup): number {
  const alive = g.counts[g.counts.length - 1]!;
  return alive > 0 ? (g.retainedSize * addedObjects(g)) / alive : 0;
}

/**
 * A finding headed by a carrier takes the name, count, chain and fix of the program group through it
 * that grew most (`through`: groups whose chains pass its objects); the carrier moves to `held` (its
 * "also held" counts, returned anew), and the finding keeps what the whole leak retains. `keptText`
 * says what the group kept through the carrier, as its mode can tell it.
 */
export function nameAfterProgram(
  f: Finding,
  through: readonly GrowingGroup[],
  held: ReadonlyMap<string, number> | undefined,
  input: Pick<DiagnoseInput, 'elapsedMs' | 'unitCount'>,
  keptText: (g: GrowingGroup, count: number, carrier: Finding) => string,
): { finding: Finding; held: Map<string, number> | undefined; group?: GrowingGroup } {
  const own = headedByCarrier(f) ? through.filter((g) => isProgramClass(g.className)) : [];
  if (own.length === 0) return { finding: f, held: held ? new Map(held) : undefined };
  const best = own.reduce((a, b) => (grownRetained(b) > grownRetained(a) ? b : a));
  const count = addedObjects(best);
  const list = new Map(held ?? []);
  list.delete(best.className);
  list.set(f.className, f.count);
  const finding: Finding = {
    ...f,
    className: best.className,
    signature: best.signature,
    count,
    ...rates(count, input, best.counts.length - 1),
    chain: best.chain,
    ...fixFields(suggestFix(best.className, best.chain)),
    evidence: [keptText(best, count, f), ...f.evidence.slice(1)],
    ...(best.born ? { born: best.born } : {}),
  };
  return { finding, held: list, group: best };
}

/**
 * A group whose retained bytes are mostly backing stores (`share`: ModelParams.externalShare) is memory
 * outside the JS heap: `external`.
 */
export function isExternal(g: { readonly retainedSize: number; readonly externalSize: number }, share: number): boolean {
  return g.externalSize >= share * g.retainedSize;
}

/** The evidence line of an external finding. */
export function externalText(g: { readonly retainedSize: number; readonly externalSize: number }): string {
  return `${Math.round((100 * g.externalSize) / g.retainedSize)}% of what they retain is ArrayBuffer backing stores (Buffers): memory outside the JS heap`;
}
