// Capture progress on stderr: the phases of each snapshot (V8's generation progress, bytes
// written), the wait for the next one (a countdown, or the counter's units so far) with the latest
// memory sample, and notes. On a TTY one line is rewritten in place (each snapshot shows on it when
// written) and the capture leaves one line saying what was taken; in a log, one line per snapshot and the
// notes, nothing else. With --verbose, each snapshot leaves its line, then what it cost beside the plan's
// estimate, and in a log a line per phase, quarter and wait as well.

import { dirname } from 'node:path';
import type { CapturedSnapshot, SnapshotPhase } from '../../attach/capture.js';
import type { MemorySample } from '../../attach/memory-sampler.js';
import type { SnapshotEstimate } from '../../attach/snapshot-cost.js';
import type { WaitProgress } from '../../attach/wait-next.js';
import { measuredLine } from '../../report/attach-report.js';
import { formatBytes, formatCount } from '../../report/format.js';
import { readablePath } from '../../report/paths.js';

export interface CaptureProgress {
  onPhase(index: number, phase: SnapshotPhase, progress: { done?: number; total?: number; bytes?: number }): void;
  onSnapshot(snapshot: CapturedSnapshot): void;
  onWait(nextIndex: number, wait: WaitProgress): void;
  /** While the candidates' holders are read after the last snapshot (interval `k` of `of`). */
  onHolderWait(k: number, of: number, wait: WaitProgress): void;
  onSample(sample: MemorySample): void;
  /** The plan's estimate: each snapshot's measured cost is then printed beside it. */
  expect(estimate: SnapshotEstimate): void;
  /** A line that stays (notes, warnings). */
  note(line: string): void;
  done(): void;
}

export function createCaptureProgress(enabled: boolean, total: number | string, stream: NodeJS.WriteStream = process.stderr, verbose = false): CaptureProgress {
  const tty = stream.isTTY === true;
  let live = false;
  let lastKey = '';
  let lastSample: MemorySample | undefined;
  let estimate: SnapshotEstimate | undefined;
  const taken: CapturedSnapshot[] = [];
  /** One snapshot as its line says it. */
  const snapshotLine = (s: CapturedSnapshot): string => `leakhunt: snapshot ${s.index} of ${total}: ${formatBytes(s.bytes)}, paused ${(s.durationMs / 1000).toFixed(1)} s → ${readablePath(s.file)}`;
  /** What the capture took, when the snapshots did not leave a line each (a terminal, not --verbose). */
  const summaryLine = (): string => {
    const first = taken[0]!, last = taken[taken.length - 1]!;
    const pauses = taken.map((s) => s.durationMs / 1000);
    const paused = taken.length === 1 ? `${pauses[0]!.toFixed(1)} s` : `${Math.min(...pauses).toFixed(1)}–${Math.max(...pauses).toFixed(1)} s each`;
    const sizes = taken.length === 1 ? formatBytes(first.bytes) : `${formatBytes(first.bytes)} → ${formatBytes(last.bytes)}`;
    return `leakhunt: ${taken.length} of ${total} snapshots (${sizes}, paused ${paused}) → ${readablePath(dirname(first.file))}`;
  };
  const leaveLines = !tty || verbose || total === 1; // one snapshot (`leakhunt snapshot`): its own line
  const show = (line: string, key: string): void => {
    if (!enabled) return;
    if (!tty && !verbose) return; // a log gets the snapshots and the notes only
    if (tty) {
      stream.write(`\r\x1b[K${line}`);
      live = true;
    } else if (key !== lastKey) {
      stream.write(`${line}\n`);
    }
    lastKey = key;
  };
  const clear = (): void => {
    if (live) stream.write('\r\x1b[K');
    live = false;
  };
  const memory = (): string => {
    const s = lastSample;
    if (!s) return '';
    return `  (rss ${formatBytes(s.rss)}${s.heapUsed === undefined ? '' : `, heapUsed ${formatBytes(s.heapUsed)}`})`;
  };
  return {
    onPhase(index, phase, p) {
      const head = `leakhunt: snapshot ${index} of ${total}`;
      if (phase === 'generating' && p.total === undefined) show(`${head}: generating (the target is paused)`, `${index}gen`);
      else if (phase === 'generating') {
        const pct = p.total ? Math.floor((100 * (p.done ?? 0)) / p.total) : 0;
        show(`${head}: generating ${pct}% (the target is paused)`, `${index}gen${tty ? pct : Math.floor(pct / 25)}`);
      } else show(`${head}: writing ${formatBytes(p.bytes ?? 0)}`, tty ? `${index}w${p.bytes}` : `${index}w`);
    },
    onSnapshot(s) {
      if (!enabled) return;
      taken.push(s);
      lastKey = '';
      if (!leaveLines) {
        show(snapshotLine(s), `s${s.index}`);
        return;
      }
      clear();
      stream.write(`${snapshotLine(s)}\n`);
      if (verbose) stream.write(`${measuredLine(s, estimate)}\n`);
    },
    onWait(next, wait) {
      const secs = wait.remainingMs === undefined ? undefined : Math.ceil(wait.remainingMs / 1000);
      if (wait.every === undefined) {
        show(`leakhunt: next snapshot (${next} of ${total}) in ${secs ?? 0} s${memory()}`, tty ? `c${next}${secs}` : `c${next}`);
        return;
      }
      const limit = secs === undefined ? '' : `, at most ${secs} s more`;
      show(`leakhunt: next snapshot (${next} of ${total}) after ${formatCount(wait.every)} units: ${formatCount(wait.units ?? 0)} so far${limit}${memory()}`, tty ? `u${next}${wait.units}${secs}` : `u${next}`);
    },
    onHolderWait(k, of, wait) {
      const left = wait.remainingMs === undefined ? `${formatCount(wait.units ?? 0)} of ${formatCount(wait.every ?? 0)} units` : `${Math.ceil(wait.remainingMs / 1000)} s left`;
      show(`leakhunt: reading the candidates' holders, interval ${k} of ${of}: ${left}${memory()}`, tty ? `h${k}${left}` : `h${k}`);
    },
    expect(e) {
      estimate = e;
    },
    onSample(s) {
      lastSample = s;
    },
    note(line) {
      clear();
      stream.write(`leakhunt: ${line}\n`);
      lastKey = '';
    },
    done() {
      clear();
      if (enabled && !leaveLines && taken.length > 0) stream.write(`${summaryLine()}\n`);
      taken.length = 0;
    },
  };
}
