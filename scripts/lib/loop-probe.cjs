// Preloaded into a bench target (`node -r scripts/lib/loop-probe.cjs fixture.cjs`, by
// scripts/bench-profile.js): the target's own clock on its event loop. A 10 ms timer notes how late
// each tick fires (the event-loop delay a request would see), and once a second one line on stderr:
// `loop-probe {"t": <unix ms>, "requests": <globalThis.__leakhuntRequests>, "cpuUs": <the process's CPU
// time, every thread>, "phase": <what ran during that second>, "delays": [ms, …]}`.
// LOOP_PROBE_PHASES="32768,settle,off,8192,settle,off" (with LOOP_PROBE_CYCLES=n) makes the seconds
// alternate: V8's sampling heap profiler runs at that sampling interval during a numbered second and not
// during the others ("settle" is the second in which it is stopped: `stopSampling` builds and hands back
// the whole profile, a cost `leakhunt profile` pays once, at its end),
// through an in-process inspector session (the same V8 calls `leakhunt profile` makes over the
// socket); the phases start once LOOP_PROBE_AFTER requests were served (a warm-up: "warm-up" before),
// and after n cycles sampling stays off, the session is closed and the line says `"phase": "done"`.
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

const phases = (process.env.LOOP_PROBE_PHASES || '').split(',').filter(Boolean);
const cycles = Number(process.env.LOOP_PROBE_CYCLES) || 0;
const after = Number(process.env.LOOP_PROBE_AFTER) || 0;
let step = -1; // -1: warming up
let session;
function enter(phase) {
  if (phases.length === 0) return;
  session ??= (() => {
    const s = new (require('node:inspector').Session)();
    s.connect();
    return s;
  })();
  session.post('HeapProfiler.stopSampling', () => {
    if (phase === 'done') session.disconnect();
    else if (/^\d+$/.test(phase)) session.post('HeapProfiler.startSampling', { samplingInterval: Number(phase) });
  });
}
const phaseAt = (n) => (n < 0 ? 'warm-up' : phases.length === 0 ? 'off' : n >= phases.length * cycles ? 'done' : phases[n % phases.length]);

const report = setInterval(() => {
  const cpu = process.cpuUsage();
  const line = { t: Date.now(), requests: globalThis.__leakhuntRequests ?? 0, cpuUs: cpu.user + cpu.system, phase: phaseAt(step), delays: delays.map((d) => Math.round(d * 100) / 100) };
  delays = [];
  process.stderr.write(`loop-probe ${JSON.stringify(line)}\n`);
  if (step < 0 && line.requests < after) return;
  step++;
  if (phaseAt(step) !== phaseAt(step - 1)) enter(phaseAt(step));
}, 1000);
report.unref();
