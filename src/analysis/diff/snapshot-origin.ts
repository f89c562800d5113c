// Which process a snapshot file came from, read from what lies around it (never required): the JSON that
// `leakhunt snapshot` / `attach` write beside it (`x.heapsnapshot` → `x.json`, src/attach/capture.ts:
// pid, nodeVersion, takenAt and, since process-start.ts, startTicks + bootId and the inspector session),
// else the name Node gives
// `--heapsnapshot-signal` and `v8.writeHeapSnapshot()` files: `Heap.<yyyymmdd>.<hhmmss>.<pid>.<tid>.<seq>
// .heapsnapshot`, whose sequence number counts up within one process.
// `decideProcess` then says whether a series is one process and by which evidence: V8 object ids that
// line up (one inspector session), the recorded process start (pid, start ticks, boot id), or pids
// alone (file names, older metadata: a pid can be reused, so this is the weakest).

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

export interface SnapshotOrigin {
  /** Where the facts were read: the JSON beside the snapshot, or the file's own name. */
  readonly source: 'metadata' | 'file-name';
  /** The pid as the process itself saw it (`process.pid`). */
  readonly pid: number;
  /** Clock ticks after boot at which the process started (/proc/PID/stat field 22). */
  readonly startTicks?: number;
  readonly bootId?: string;
  /** The inspector session that took it (leakhunt's own name for it): ids line up only within one. */
  readonly session?: string;
  readonly nodeVersion?: string;
  /** When the snapshot was taken, as a sortable key: ISO time (metadata) or `yyyymmddhhmmss` (file name). */
  readonly takenAt?: string;
  /** `Heap.*` names: the process's own count of snapshots written. */
  readonly sequence?: number;
}

export type ProcessEvidence = 'ids' | 'metadata' | 'file-names' | 'none';

/** In words: what told that the series is (or is not) one process. */
export function describeEvidence(decision: ProcessDecision): string {
  switch (decision.by) {
    case 'ids': return 'object ids that line up';
    case 'metadata': return decision.origins.every((o) => o?.startTicks !== undefined)
      ? 'the process start recorded beside each snapshot: pid, start time, boot id'
      : 'the pid recorded beside each snapshot';
    case 'file-names': return 'the pid in the file names';
    case 'none': return 'nothing (no ids that line up, nothing recorded beside the files)';
  }
}

export interface ProcessDecision {
  /** The snapshots come from one process (assumed false when nothing tells). */
  readonly same: boolean;
  /** What decided it. */
  readonly by: ProcessEvidence;
  /** Object ids line up between consecutive snapshots: one process within one inspector session. */
  readonly idsLineUp: boolean;
  /** Per snapshot, what was read about its process (null: nothing). */
  readonly origins: readonly (SnapshotOrigin | null)[];
}

/** The JSON beside a snapshot, as capture.ts names it. */
export function metadataPathOf(file: string): string {
  return file.endsWith('.heapsnapshot') ? `${file.slice(0, -'.heapsnapshot'.length)}.json` : `${file}.json`;
}

/** What a metadata JSON says about the process; undefined when it is not ours or has no pid. */
export function originFromMetadata(text: string): SnapshotOrigin | undefined {
  let meta: Record<string, unknown>;
  try {
    meta = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (meta === null || typeof meta !== 'object' || !isCount(meta.pid)) return undefined;
  const start = isCount(meta.startTicks) && typeof meta.bootId === 'string' && meta.bootId !== ''
    ? { startTicks: meta.startTicks, bootId: meta.bootId }
    : {};
  return {
    source: 'metadata',
    pid: meta.pid,
    ...start,
    ...(typeof meta.session === 'string' && meta.session !== '' ? { session: meta.session } : {}),
    ...(typeof meta.nodeVersion === 'string' ? { nodeVersion: meta.nodeVersion } : {}),
    ...(typeof meta.takenAt === 'string' && !Number.isNaN(Date.parse(meta.takenAt)) ? { takenAt: new Date(meta.takenAt).toISOString() } : {}),
  };
}

const HEAP_NAME = /^Heap\.(\d{8})\.(\d{6})\.(\d+)\.(\d+)\.(\d+)\.heapsnapshot$/;

/** The pid, time and sequence number in a Node-written name; undefined for any other name. */
export function originFromFileName(file: string): SnapshotOrigin | undefined {
  const m = HEAP_NAME.exec(basename(file));
  if (!m) return undefined;
  return { source: 'file-name', pid: Number(m[3]), takenAt: `${m[1]}${m[2]}`, sequence: Number(m[5]) };
}

/** Metadata first (it says more), else the file name; undefined when neither tells. */
export function readSnapshotOrigin(file: string): SnapshotOrigin | undefined {
  let text: string | undefined;
  try {
    text = readFileSync(metadataPathOf(file), 'utf8');
  } catch {
    text = undefined;
  }
  return (text === undefined ? undefined : originFromMetadata(text)) ?? originFromFileName(file);
}

/**
 * One process, or not, from the origins alone (in the series' order): 'same' / 'different', or
 * undefined when they cannot tell (a file without any, or facts of different kinds).
 */
export function compareOrigins(origins: readonly (SnapshotOrigin | null)[]): { same: boolean; by: 'metadata' | 'file-names' } | undefined {
  if (origins.length < 2 || origins.some((o) => o === null)) return undefined;
  const all = origins as readonly SnapshotOrigin[];
  const by = all.some((o) => o.source === 'file-name') ? 'file-names' : 'metadata';
  const first = all[0]!;
  // Certainly different: another pid or Node version, or another recorded start.
  const versions = new Set(all.flatMap((o) => (o.nodeVersion ? [o.nodeVersion] : [])));
  if (all.some((o) => o.pid !== first.pid) || versions.size > 1) return { same: false, by };
  if (all.every((o) => o.startTicks !== undefined)) {
    return { same: all.every((o) => o.startTicks === first.startTicks && o.bootId === first.bootId), by: 'metadata' };
  }
  // Node's own names: a new process counts its snapshots from 1 again.
  if (all.every((o) => o.sequence !== undefined && o.takenAt !== undefined)) {
    const byTime = [...all].sort((a, b) => (a.takenAt! < b.takenAt! ? -1 : a.takenAt! > b.takenAt! ? 1 : a.sequence! - b.sequence!));
    return { same: byTime.every((o, k) => k === 0 || o.sequence! > byTime[k - 1]!.sequence!), by };
  }
  // The same pid and nothing more: most likely one process (a pid is reused only after its process ended).
  return { same: true, by };
}

/**
 * The verdict on a series: origins that show different processes overrule ids that happen to line up
 * (two runs of one program number their first objects alike); otherwise ids that line up decide, then
 * the origins; with nothing to go on the snapshots are taken as different processes.
 */
export function decideProcess(origins: readonly (SnapshotOrigin | null)[], idsLineUp: boolean): ProcessDecision {
  const fromOrigins = compareOrigins(origins);
  if (idsLineUp && fromOrigins?.same !== false) return { same: true, by: 'ids', idsLineUp, origins };
  if (fromOrigins) return { same: fromOrigins.same, by: fromOrigins.by, idsLineUp, origins };
  return { same: false, by: 'none', idsLineUp, origins };
}

/**
 * Known before any snapshot is read: the series is one process (or is to be compared as one service)
 * whose snapshots come from different inspector sessions, so its ids cannot line up.
 */
export function separateSessions(origins: readonly (SnapshotOrigin | null)[]): boolean {
  if (compareOrigins(origins)?.same !== true) return false;
  const sessions = origins.map((o) => o?.session);
  return sessions.every((s) => s !== undefined) && new Set(sessions).size > 1;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
