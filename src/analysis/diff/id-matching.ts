// Comparing two snapshots of one series by object id: per class, how many objects are new (in the
// later one only) and deleted (in the earlier one only), and whether the two can be from the same
// process at all. One merge walk over the two sorted id tables.
//
// Same-process test: V8 hands out ids when a snapshot first sees an object, always increasing, so an
// object of the later snapshot that the earlier one lacks must have an id above the earlier snapshot's
// largest. In snapshots of two processes, ids below that line are mostly unrelated objects.

import { IdTableReader, type IdTable } from './id-table.js';

export interface IdComparison {
  /** Per series class id: objects present only in the later snapshot. */
  readonly newByClass: Float64Array;
  /** Per series class id: objects present only in the earlier snapshot. */
  readonly deletedByClass: Float64Array;
  /** Later-snapshot objects absent from the earlier one with an id at or below its largest id. */
  readonly impossibleNew: number;
  /** Objects present in both whose class differs (a different process, or a renamed class). */
  readonly classChanged: number;
  readonly common: number;
}

export function compareIdTables(earlier: IdTable, later: IdTable, classCount: number): IdComparison {
  const newByClass = new Float64Array(classCount);
  const deletedByClass = new Float64Array(classCount);
  const a = new IdTableReader(earlier), b = new IdTableReader(later);
  let hasA = a.next(), hasB = b.next();
  let impossibleNew = 0, classChanged = 0, common = 0;
  while (hasA || hasB) {
    if (!hasB || (hasA && a.id < b.id)) {
      deletedByClass[a.classId]!++;
      hasA = a.next();
    } else if (!hasA || b.id < a.id) {
      newByClass[b.classId]!++;
      if (b.sequential && b.id <= earlier.maxId) impossibleNew++;
      hasB = b.next();
    } else {
      common++;
      if (a.classId !== b.classId) classChanged++;
      hasA = a.next();
      hasB = b.next();
    }
  }
  return { newByClass, deletedByClass, impossibleNew, classChanged, common };
}

/** Share of the later snapshot's objects that rule out "same process". */
export function mismatchRatio(c: IdComparison, later: IdTable): number {
  return later.length === 0 ? 0 : (c.impossibleNew + c.classChanged) / later.length;
}
