// What snapshot and attach decide about where their files go: before any signal, the refusals of
// output-place.ts plus existing files (never replaced without --force) and a disk too full for even the
// smallest snapshot; once the heap size is known, free space against the plan's estimate of the files
// (refused like the memory headroom check, --force to go ahead). All of them exit 2 (OutputError).

import { MIN_SNAPSHOT_FILE_BYTES, type OutputPlace } from '../../attach/output-place.js';
import type { SnapshotEstimate } from '../../attach/snapshot-cost.js';
import { OutputError } from '../../errors.js';
import { formatBytes } from '../../report/format.js';
import { printLines } from './attach-common.js';

const warnForced = (message: string): void => {
  process.stderr.write(`leakhunt: warning: ${message}; going ahead (--force)\n`);
};

/** Before any signal: files that would be replaced, a disk that cannot take even the smallest snapshot. */
export function refuseBeforeSignal(place: OutputPlace, force: boolean, flag: '-o' | '--out'): void {
  if (place.existing.length > 0) {
    const msg = `${place.existing.join(', ')} already exist${place.existing.length === 1 ? 's' : ''}`;
    if (!force) throw new OutputError(place.existing[0]!, `${msg}: leakhunt never replaces a file without --force; choose another ${flag}`, { code: 'EEXIST' });
    warnForced(`${msg} and will be replaced`);
  }
  if (place.freeBytes !== undefined && place.freeBytes < MIN_SNAPSHOT_FILE_BYTES) {
    const msg = `${place.dir} has ${formatBytes(place.freeBytes)} free, less than the smallest heap snapshot (${formatBytes(MIN_SNAPSHOT_FILE_BYTES)})`;
    if (!force) throw new OutputError(place.dir, `${msg}: free some space or choose another ${flag}; --force to try anyway`, { code: 'ENOSPC' });
    warnForced(msg);
  }
}

/**
 * Once the heap is known, before the first snapshot: free space against `count` files of the estimated
 * size. Prints the plan's disk line (unless it fits and `printWhenOk` is false); throws OutputError when they do not fit and there is no --force.
 */
export function assessDiskSpace(place: OutputPlace, estimate: SnapshotEstimate, count: number, force: boolean, flag: '-o' | '--out', printWhenOk = true): void {
  const neededBytes = estimate.fileBytes * count;
  const each = count > 1 ? ` (${count} × ~${formatBytes(estimate.fileBytes)})` : '';
  if (place.freeBytes === undefined) {
    printLines([`  disk       free space in ${place.dir} unknown (statfs failed) against ~${formatBytes(neededBytes)}${each}`]);
    return;
  }
  const ok = place.freeBytes >= neededBytes;
  if (ok && !printWhenOk) return; // attach's short plan: the disk is named only when it is short
  printLines([`  disk       ${formatBytes(place.freeBytes)} free in ${place.dir} against ~${formatBytes(neededBytes)}${each}: ${ok ? 'ok' : 'NOT ENOUGH'}`]);
  if (ok) return;
  const msg = `not enough disk space in ${place.dir} for ${count > 1 ? `${count} heap snapshots` : 'the heap snapshot'}: ~${formatBytes(neededBytes)} needed${each}, ${formatBytes(place.freeBytes)} free`;
  if (!force) throw new OutputError(place.dir, `${msg}; free some space or choose another ${flag}, or --force to try anyway`, { code: 'ENOSPC' });
  warnForced(msg);
}
