// What a profiler costs a running target, measured in alternating windows of equal length: off, mode 1,
// off, mode 1, … (`cycles` times), then off, mode 2, off, mode 2, …, ending off, so each switched-on
// window has an off window on either side (a target that slows as its leak grows, or a machine that gets
// busier, is shared with its neighbours). Each mode's windows come in one block, so what a mode leaves
// behind falls on its own neighbours only: in a run that interleaved them (off, tracking, off, sampling,
// …; docs/profile.md#cost), story A's off windows right after tracking ran about a third slower than
// those after sampling, and the sampling window between the two read −20%. Switching a mode on or off,
// `settleMs` after it is off and a full GC before each window (HeapProfiler.collectGarbage) fall outside
// every window (the switch times are reported on their own). Per configuration: turns a second of wall
// time and of the target's CPU time (summed over its windows), the p99 event-loop delay pooled over its
// windows (scripts/lib/loop-delay-probe.js), the median over its windows of (its rate ÷ the mean of its
// two neighbours' off rates), and the target's RSS (scripts/process-tree-rss.js: the target and any
// child of it).
import { treeRssKiB } from '../process-tree-rss.js';
import { sleep } from './bench-target.js';
import { installLoopDelayProbe, markWindow, pooledDelays } from './loop-delay-probe.js';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Runs the schedule on `target` (scripts/lib/bench-target.js, warmed up) and returns
 * `{ windows, configs }`: every window in order, and per label (`off` first, then each mode's) the
 * aggregate described above. `interleave`: off, mode 1, off, mode 2, …, per cycle instead of blocks (for
 * modes that leave nothing behind, e.g. sampling intervals: a drift then reaches every mode alike).
 */
export async function measureOverhead(target, { modes, cycles = 3, windowMs = 6000, settleMs = 1000, interleave = false, log = () => {} }) {
  const { client, pid } = target;
  await installLoopDelayProbe(client);
  const windows = [];
  const say = (w) => log(`  ${w.label}: ${w.requests} turns in ${(w.ms / 1000).toFixed(1)} s, ${((w.requests * 1e6) / w.cpuUs).toFixed(1)} per CPU-s, p99 delay ${w.p99DelayMs.toFixed(1)} ms${w.startMs === undefined ? '' : `; on in ${w.startMs} ms, off in ${w.stopMs} ms`}`);
  /** A protocol error because the target exited by itself says so (story A's agent can end on an error). */
  const guard = async (command) => {
    try {
      return await command();
    } catch (err) {
      throw new Error((await target.died()) ?? err.message);
    }
  };
  /**
   * One window labelled `label`, begun right after a full GC: stopSampling and startTrackingHeapObjects
   * each run one, so without it the window after them would start on a cleaner heap than the others.
   * Its figures are read when it ends, before anything is switched off.
   */
  const runWindow = async (label) => {
    await guard(() => client.HeapProfiler.collectGarbage());
    const rssBefore = treeRssKiB(pid);
    await guard(() => markWindow(client, label));
    await sleep(windowMs);
    const w = await guard(() => markWindow(client, null));
    const rssAfter = treeRssKiB(pid);
    windows.push(Object.assign(w, { rssStartKiB: rssBefore.kiB, rssEndKiB: rssAfter.kiB, processes: Math.max(rssBefore.processes, rssAfter.processes) }));
    return w;
  };
  say(await runWindow('off'));
  const sequence = interleave ? Array.from({ length: cycles }, () => modes).flat() : modes.flatMap((m) => new Array(cycles).fill(m));
  for (const mode of sequence) {
    let t = Date.now();
    await guard(() => mode.start(client, target.nodeVersion));
    const startMs = Date.now() - t;
    const w = await runWindow(mode.label);
    t = Date.now();
    await guard(() => mode.stop(client));
    say(Object.assign(w, { startMs, stopMs: Date.now() - t }));
    await sleep(settleMs);
    say(await runWindow('off'));
  }
  const pooled = await pooledDelays(client);
  const labels = ['off', ...modes.map((m) => m.label)];
  const configs = labels.map((label) => {
    const mine = windows.map((w, i) => ({ w, i })).filter(({ w }) => w.label === label);
    const sum = (f) => mine.reduce((a, { w }) => a + f(w), 0);
    const turns = sum((w) => w.requests);
    const perSec = (w) => (w.requests * 1000) / w.ms;
    const paired = label === 'off' ? [] : mine.map(({ w, i }) => perSec(w) / ((perSec(windows[i - 1]) + perSec(windows[i + 1])) / 2));
    return {
      label,
      windows: mine.length,
      seconds: sum((w) => w.ms) / 1000,
      turns,
      perSec: (turns * 1000) / sum((w) => w.ms),
      perCpuSec: (turns * 1e6) / sum((w) => w.cpuUs),
      p99DelayMs: pooled[label]?.p99DelayMs ?? NaN,
      pairedRatio: median(paired),
      startMs: label === 'off' ? undefined : Math.max(...mine.map(({ w }) => w.startMs)),
      stopMs: label === 'off' ? undefined : Math.max(...mine.map(({ w }) => w.stopMs)),
      rssGrowthKiB: sum((w) => w.rssEndKiB - w.rssStartKiB) / mine.length,
      rssEndKiB: Math.max(...mine.map(({ w }) => w.rssEndKiB)),
      processes: Math.max(...mine.map(({ w }) => w.processes)),
    };
  });
  return { windows, configs };
}
