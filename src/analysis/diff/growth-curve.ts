// The shape of a count over a series of snapshots, shared by the class, survivor and signature rows.

/** With three or more snapshots: the value rose in every interval; with two, null (one interval says nothing of a trend). */
export function grewEveryInterval(values: readonly number[]): boolean | null {
  if (values.length < 3) return null;
  for (let k = 1; k < values.length; k++) if (!(values[k]! > values[k - 1]!)) return false;
  return true;
}
