// The truth check (docs/evaluation.md): a drawn program run under scripts/lib/eval-probe.cjs, which reads
// its memory after a full GC once an interval; the growth per interval of the heap, the ArrayBuffers and
// RSS, measured without leakhunt, beside what the program was drawn to keep.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { keptPerInterval, type ProgramParams } from './draw.js';
import { templateOf } from './run-program.js';

const PROBE = fileURLToPath(new URL('../../../../scripts/lib/eval-probe.cjs', import.meta.url));

export interface TruthCheck {
  readonly expectedBytes: number;
  /** Growth per interval, least squares over the samples. */
  readonly heapPerInterval: number;
  readonly arrayBuffersPerInterval: number;
  readonly rssPerInterval: number;
  readonly samples: number;
  readonly problem?: string;
}

function slope(ys: readonly number[]): number {
  const n = ys.length;
  const mx = (n - 1) / 2;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  });
  return den === 0 ? 0 : num / den;
}

export function checkTruth(p: ProgramParams, node: string, samples = 5): Promise<TruthCheck> {
  const intervalMs = p.pacing.kind === 'time' ? p.pacing.intervalMs : p.pacing.every * p.turnMs;
  return new Promise((resolve) => {
    const oldSpaceMB = Math.max(512, p.heap.targetMB * 3 + 256);
    const child = spawn(node, ['--expose-gc', `--max-old-space-size=${oldSpaceMB}`, PROBE], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { PATH: process.env.PATH ?? '', LEAKHUNT_EVAL_PARAMS: JSON.stringify(p), LEAKHUNT_EVAL_PROGRAM: templateOf(p), LEAKHUNT_EVAL_PROBE_MS: String(intervalMs), LEAKHUNT_EVAL_PROBE_SAMPLES: String(samples) },
    });
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000 + samples * intervalMs * 3);
    child.on('close', (code) => {
      clearTimeout(timer);
      const rows = out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { heapUsed: number; arrayBuffers: number; rss: number });
      resolve({
        expectedBytes: keptPerInterval(p).bytes,
        heapPerInterval: slope(rows.map((r) => r.heapUsed)),
        arrayBuffersPerInterval: slope(rows.map((r) => r.arrayBuffers)),
        rssPerInterval: slope(rows.map((r) => r.rss)),
        samples: rows.length,
        ...(code === 0 && rows.length === samples ? {} : { problem: `probe exit ${code}, ${rows.length} of ${samples} samples` }),
      });
    });
  });
}
