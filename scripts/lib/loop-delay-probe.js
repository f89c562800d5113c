// The target's own clock on its event loop, installed over the inspector (one Runtime.evaluate) by the
// overhead benches: a 10 ms timer notes how late each tick fires (the delay a request arriving then would
// see) into a histogram for the current window and one pooled per configuration, so a configuration's
// p99 covers all its windows. `markWindow(client, label)` ends the window running (if any) and starts one
// labelled `label` (null: none, between windows, while a profiler is switched); it returns the window
// that ended, read in the target at the edge: its length by the target's clock, the turns its own
// counter (`globalThis.__leakhuntRequests`) advanced, and the CPU time the process used (every thread:
// GC and the inspector's included).
import { evaluate } from './bench-target.js';

const INSTALL = `(() => {
  if (globalThis.__leakhuntBenchProbe) return true;
  const { createHistogram } = require('node:perf_hooks');
  const TICK_MS = 10;
  const probe = { label: null, expected: performance.now() + TICK_MS, window: createHistogram(), pools: {}, start: null };
  const timer = setInterval(() => {
    const now = performance.now();
    const lateUs = Math.max(1, Math.round(Math.max(0, now - probe.expected) * 1000));
    probe.expected = now + TICK_MS;
    if (probe.label === null) return;
    probe.window.record(lateUs);
    probe.pools[probe.label].record(lateUs);
  }, TICK_MS);
  timer.unref();
  const here = () => {
    const cpu = process.cpuUsage();
    return { ms: performance.now(), requests: globalThis.__leakhuntRequests ?? 0, cpuUs: cpu.user + cpu.system };
  };
  probe.mark = (label) => {
    const now = here();
    const ended = probe.start && {
      label: probe.label, ms: now.ms - probe.start.ms, requests: now.requests - probe.start.requests, cpuUs: now.cpuUs - probe.start.cpuUs,
      p99DelayMs: probe.window.count ? probe.window.percentile(99) / 1000 : 0, ticks: probe.window.count,
    };
    probe.label = label;
    probe.start = label === null ? null : now;
    probe.window.reset();
    probe.expected = now.ms + TICK_MS;
    if (label !== null) probe.pools[label] ??= createHistogram();
    return ended;
  };
  probe.pooled = () => Object.fromEntries(Object.entries(probe.pools).map(([label, h]) => [label, { p99DelayMs: h.count ? h.percentile(99) / 1000 : 0, ticks: h.count }]));
  globalThis.__leakhuntBenchProbe = probe;
  return true;
})()`;

export const installLoopDelayProbe = (client) => evaluate(client, INSTALL);

/** Ends the window running (returned, or null) and starts one labelled `label` (null: none). */
export const markWindow = (client, label) => evaluate(client, `globalThis.__leakhuntBenchProbe.mark(${JSON.stringify(label)})`);

/** Per label: the p99 event-loop delay (ms) over all its windows, and how many ticks it pools. */
export const pooledDelays = (client) => evaluate(client, 'globalThis.__leakhuntBenchProbe.pooled()');
