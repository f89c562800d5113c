#!/usr/bin/env node
// What one sample of V8's sampling heap profiler costs, in isolation (no agent, no other process): an
// allocation-heavy loop under a 60-frame stack, timed by this process's CPU time with the profiler off
// and on at several sampling intervals (an in-process inspector session; the same V8 calls `leakhunt
// profile` makes), the configurations alternating for 6 rounds, medians. 1 GiB is the control: the
// profiler on, next to no samples. The cost per sample is (extra CPU per call) ÷ (samples per call).
//   node scripts/bench-profile-micro.cjs
'use strict';

const inspector = require('node:inspector');

const session = new inspector.Session();
session.connect();
const post = (method, params = {}) => new Promise((resolve, reject) => session.post(method, params, (err, r) => (err ? reject(err) : resolve(r))));

const OBJECTS = 2000;
function deep(n, f) {
  return n === 0 ? f() : deep(n - 1, f);
}
/** ~2,000 small objects, strings and arrays a call. */
function work() {
  const keep = [];
  for (let i = 0; i < OBJECTS; i++) keep.push({ a: i, b: `x${i}`, c: [i, i + 1] });
  return keep.length;
}
/** Calls per CPU-second over `ms` of wall time. */
function run(ms) {
  const c0 = process.cpuUsage();
  const end = Date.now() + ms;
  let n = 0;
  while (Date.now() < end) {
    deep(60, work);
    n++;
  }
  const c = process.cpuUsage(c0);
  return (n * 1e6) / (c.user + c.system);
}
/**
 * Bytes a call allocates: the rise of heapUsed across one call, median of 200 (a call allocates far less
 * than the young generation holds, so most calls see no GC; the median leaves out those that do).
 */
function bytesPerCall() {
  const rises = [];
  for (let i = 0; i < 200; i++) {
    const before = process.memoryUsage().heapUsed;
    deep(60, work);
    rises.push(process.memoryUsage().heapUsed - before);
  }
  return [...rises].sort((a, b) => a - b)[rises.length >> 1];
}

(async () => {
  const configs = ['off', 2 ** 30, 1 << 20, 1 << 17, 1 << 16, 1 << 15];
  const results = Object.fromEntries(configs.map((c) => [c, []]));
  for (let round = 0; round < 6; round++) {
    for (const c of configs) {
      if (c !== 'off') await post('HeapProfiler.startSampling', { samplingInterval: c });
      results[c].push(run(700));
      if (c !== 'off') await post('HeapProfiler.stopSampling');
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const off = median(results.off);
  const perCall = bytesPerCall();
  console.log(`| sampling interval | calls per CPU-second | vs off | µs per sample (≈${Math.round(perCall / 1024)} KiB a call) |`);
  console.log('|---|---:|---:|---:|');
  for (const c of configs) {
    const rate = median(results[c]);
    const samplesPerCall = c === 'off' ? 0 : perCall / c;
    const extraUs = 1e6 / rate - 1e6 / off;
    const label = c === 'off' ? 'off' : c >= 2 ** 30 ? '1 GiB (control)' : `${c / 1024} KiB`;
    const perSample = samplesPerCall > 0.05 && c < 2 ** 30 ? (extraUs / samplesPerCall).toFixed(1) : '';
    console.log(`| ${label} | ${rate.toFixed(0)} | ${c === 'off' ? '' : `${((rate / off - 1) * 100).toFixed(1)}%`} | ${perSample} |`);
  }
})();
