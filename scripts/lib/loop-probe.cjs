// Preloaded into a bench target (`node -r scripts/lib/loop-probe.cjs fixture.cjs`, by
// scripts/bench-profile.js): the target's own clock on its event loop. A 10 ms timer notes how late
// each tick fires (the event-loop delay a request would see), and once a second one line on stderr:
// `loop-probe {"t": <unix ms>, "requests": <globalThis.__leakhuntRequests>, "cpuUs": <the process's CPU
// time, every thread>, "delays": [ms, …]}`.
// The bench picks the lines of a window and computes throughput and the p99 delay from the raw delays.
'use strict';

const TICK_MS = 10;
let expected = performance.now() + TICK_MS;
let delays = [];
const tick = setInterval(() => {
  const now = performance.now();
  delays.push(Math.max(0, now - expected));
  expected = now + TICK_MS;
}, TICK_MS);
tick.unref();
const report = setInterval(() => {
  const cpu = process.cpuUsage();
  const line = { t: Date.now(), requests: globalThis.__leakhuntRequests ?? 0, cpuUs: cpu.user + cpu.system, delays: delays.map((d) => Math.round(d * 100) / 100) };
  delays = [];
  process.stderr.write(`loop-probe ${JSON.stringify(line)}\n`);
}, 1000);
report.unref();
