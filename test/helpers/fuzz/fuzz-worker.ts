// The fuzzer's in-process runner: a worker thread that runs cases (run-case.ts) as the main thread
// sends them and answers each with its outcome and this process's peak RSS during the case. A worker,
// so that the main thread can time a case out (terminate the worker) when one hangs.

import { readFileSync, writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { runCase, type CaseRequest } from './run-case.js';

/** Resets the kernel's peak-RSS mark (VmHWM) so the next read is this case's peak (Linux, `clear_refs` 5). */
function resetPeak(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch { /* not Linux: the peak is then the process's whole-run peak */ }
}

export function peakRssBytes(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = /VmHWM:\s+(\d+) kB/.exec(status);
  return kb ? Number(kb[1]) * 1024 : process.memoryUsage().rss;
}

parentPort!.on('message', async (req: CaseRequest & { seq: number }) => {
  resetPeak();
  const started = Date.now();
  const outcome = await runCase(req);
  parentPort!.postMessage({ seq: req.seq, outcome, peakRssBytes: peakRssBytes(), ms: Date.now() - started });
});
