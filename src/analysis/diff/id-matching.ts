// Comparing two snapshots of one series by object id: per class, how many objects are new (in the
// later one only) and deleted (in the earlier one only), and whether the two can be from the same
// process at all. One merge walk over the two sorted id tables.
//
// Same-process test: V8 hands out ids when a snapshot first sees an object, always increasing, so an
// object of the later snapshot that the earlier one lacks must have an id above the earlier snapshot's
// largest. In snapshots of two processes, ids below that line are mostly unrelated objects.

import type { IdTable } from './id-table.js';

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
  const a = earlier.ids, b = later.ids;
  let i = 0, j = 0, impossibleNew = 0, classChanged = 0, common = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) {
      deletedByClass[earlier.classOf[i]!]!++;
      i++;
    } else if (i >= a.length || b[j]! < a[i]!) {
      newByClass[later.classOf[j]!]!++;
      if (later.sequential[j] === 1 && b[j]! <= earlier.maxId) impossibleNew++;
      j++;
    } else {
      common++;
      if (earlier.classOf[i] !== later.classOf[j]) classChanged++;
      i++;
      j++;
    }
  }
  return { newByClass, deletedByClass, impossibleNew, classChanged, common };
}

/** Share of the later snapshot's objects that rule out "same process". */
export function mismatchRatio(c: IdComparison, later: IdTable): number {
  return later.ids.length === 0 ? 0 : (c.impossibleNew + c.classChanged) / later.ids.length;
}
