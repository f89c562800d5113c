// One heap snapshot written by the target itself into a partial file leakhunt created (target-write.ts
// says when that is possible and why it pauses the target less). While the target writes: the file's
// size every ~200 ms as progress, and as the sign of life the evaluate's deadline runs from (with the
// target's CPU time, which advances while V8 generates the snapshot and nothing is written yet).
// The outcome: the file is whole (the caller renames it into place); or the target could not do it
// (no `v8` to be had, a permission the target lacks): the caller streams instead, and says why; or the
// file system refused (a full disk): an OutputError as for a streamed snapshot, partial file removed.
// A failed write leaves nothing open in the target: Node leaks the descriptor of a snapshot file whose
// write failed, so it is emptied at once and closed in the target (checked by device and inode there).
// A second Ctrl-C while the target writes removes the partial file's name at once (open-resources.ts):
// the target finishes writing an unlinked file, freed when it closes it. Only if leakhunt is killed
// outright does the target leave `<file>.partial` (0600) behind; the next run on that path removes it.

import { rmSync, statSync, truncateSync } from 'node:fs';
import { resolve } from 'node:path';
import { holdOpen } from './open-resources.js';
import type { TargetSession } from './session.js';
import { writeFailure, type SnapshotFileWriter } from './snapshot-file.js';
import {
  closeDescriptorsExpression, cpuTicksOf, descriptorsOn, endsLikeSnapshot, sizeOf, systemErrorOfAnswer, writeSnapshotExpression, type TargetWriteAnswer,
} from './target-write.js';

/** How often the partial file is looked at while the target writes it. */
const WATCH_MS = 200;
/** Codes by which the file system says the file cannot grow: the same answer as for a streamed snapshot. */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EIO', 'EROFS']);

export type TargetWriteOutcome = { readonly written: true } | { readonly written: false; readonly why: string };

export async function writeSnapshotInTarget(
  session: TargetSession, writer: SnapshotFileWriter, localPid: number, onBytes: (bytes: number) => void,
): Promise<TargetWriteOutcome> {
  const partial = resolve(writer.handOver());
  let aliveAt = Date.now();
  let lastSize = 0;
  let lastCpu = cpuTicksOf(localPid);
  const watch = setInterval(() => {
    const size = sizeOf(partial);
    const cpu = cpuTicksOf(localPid);
    if (size !== lastSize || (cpu !== undefined && cpu !== lastCpu)) aliveAt = Date.now();
    lastCpu = cpu;
    if (size !== lastSize) {
      lastSize = size;
      writer.noteBytes(size);
      onBytes(size);
    }
  }, WATCH_MS);
  const unregister = holdOpen({
    what: `the snapshot file pid ${session.info.pid} is writing (${partial})`,
    close: async () => rmSync(partial, { force: true }),
    closeSync: () => rmSync(partial, { force: true }),
  });
  let answer: TargetWriteAnswer;
  try {
    answer = parseAnswer(await session.evaluateWhileBusy(writeSnapshotExpression(partial), () => aliveAt));
  } finally {
    clearInterval(watch);
    unregister();
  }
  const bytes = sizeOf(partial);
  writer.noteBytes(bytes);
  if (answer.written && endsLikeSnapshot(partial)) return { written: true };
  await releaseFile(session, localPid, partial);
  if (answer.written) {
    writer.discard();
    throw writeFailure(writer.path, Object.assign(new Error('EIO'), { code: 'EIO', errno: -5, syscall: 'write' }), { bytesWritten: bytes, removed: writer.partialPath });
  }
  if ('missing' in answer) {
    writer.discard();
    return { written: false, why: 'the target has neither process.getBuiltinModule nor the inspector\'s require' };
  }
  const err = systemErrorOfAnswer(answer, writer.path);
  writer.discard();
  if (err && FULL_CODES.has(answer.code)) throw writeFailure(writer.path, err, { bytesWritten: bytes, removed: writer.partialPath });
  return { written: false, why: `the target could not write the file itself (${answer.code}${answer.syscall ? ` on ${answer.syscall}` : ''})` };
}

/**
 * After a failed write: the target's descriptor on the file (Node leaks it: target-write.ts) is closed
 * in the target, and the file emptied first in any case, so its space comes back at once even if that
 * close cannot be done. Best effort: the caller removes the file and reports the failure either way.
 */
async function releaseFile(session: TargetSession, localPid: number, partial: string): Promise<void> {
  let id: { dev: bigint; ino: bigint };
  try {
    id = statSync(partial, { bigint: true });
    truncateSync(partial, 0);
  } catch {
    return; // never created, or gone
  }
  const fds = descriptorsOn(localPid, partial);
  if (fds.length === 0 || session.gone) return;
  await session.evaluateWhileBusy(closeDescriptorsExpression(fds, id.dev, id.ino), () => 0).catch(() => undefined);
}

function parseAnswer(value: unknown): TargetWriteAnswer {
  const v = value as Record<string, unknown> | undefined;
  if (v?.written === true) return { written: true };
  if (v?.missing === true) return { written: false, missing: true };
  return {
    written: false,
    code: typeof v?.code === 'string' ? v.code : 'an unknown error',
    ...(typeof v?.errno === 'number' ? { errno: v.errno } : {}),
    ...(typeof v?.syscall === 'string' ? { syscall: v.syscall } : {}),
  };
}
