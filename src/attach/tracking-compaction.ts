// Heap compaction held off in the target while allocations are tracked (`attach --trace-allocations`).
//
// V8 keeps each tracked object's stack by the object's address, and moves that record with the object
// only while the object has no heap-snapshot id yet. Once tracking is on, V8's inspector numbers every
// live object every 50 ms, so from then on an object moved by a compacting GC loses its stack. On Node 22
// and 24 that was most of them (measured on a small target making 20 objects every 5 ms: 2–3% of the
// objects born in the series kept a stack in seven runs of nine; with `--no-compact`, 99–100%;
// docs/allocation-sites.md). So compaction is turned off for the tracked window only, with
// `v8.setFlagsFromString('--no-compact')` (Node keeps V8's flags writable after start), and turned on
// again before tracking stops. Not when the target's own options say anything about compaction: then it
// is left as it is.
//
// On Node 22 escape analysis is held off with it: that V8 crashes when a deoptimization re-creates objects
// that optimized code never allocated while the tracker records stacks (docs/testing-api.md, "Node 22").
// Only there: a V8 flag changed at run time is a risk of its own, taken only against a measured crash.
//
// A hold, not a switch: the target turns compaction back on by itself when leakhunt stops renewing it for
// LEASE_MS of the target's own running time (a snapshot's pause does not count: the watchdog counts at
// most 2 s per tick), so a leakhunt killed with -9 leaves nothing changed for long.

import { builtinModule } from './target-write.js';

/** Running time of the target after which an unrenewed hold ends by itself. */
export const LEASE_MS = 20_000;
/** How often leakhunt renews the hold while tracking. */
export const RENEW_EVERY_MS = 3_000;

const KEY = `Symbol.for('leakhunt.compactionHold')`;

/** What holding compaction off came to. */
export type CompactionHold = 'held' | 'target-options' | 'unavailable';

/**
 * The V8 flags to turn off while allocations are tracked, in a process of this Node `version` started
 * with these `options` (its execArgv and NODE_OPTIONS): compaction, and on Node 22 escape analysis, each
 * unless the options name it. The one rule for attach's target (serialized into the expression below,
 * so it must close over nothing) and assertNoLeak's own process (src/testing/in-process-heap.ts).
 */
export function flagsToHold(version: string, options: string): string[] {
  const flags = /^v22\./.test(version) ? ['turbo-escape', 'compact'] : ['compact'];
  return flags.filter((flag) => !new RegExp(`--(no-)?${flag}(\\s|=|$)`).test(options));
}

/** Starts the hold (or renews one already there); answers a CompactionHold. */
export const HOLD_COMPACTION_EXPRESSION = `(() => {
  const g = globalThis, key = ${KEY};
  if (g[key]) { g[key].left = ${LEASE_MS}; return 'held'; }
  ${builtinModule('v8')}
  if (!v8 || typeof v8.setFlagsFromString !== 'function') return 'unavailable';
  const options = process.execArgv.join(' ') + ' ' + (process.env.NODE_OPTIONS || '');
  const held = (${flagsToHold.toString()})(process.version, options);
  if (held.length === 0) return 'target-options';
  for (const flag of held) v8.setFlagsFromString('--no-' + flag);
  let last = Date.now(), timer;
  const hold = {
    left: ${LEASE_MS},
    release() { clearInterval(timer); delete g[key]; for (const flag of held) try { v8.setFlagsFromString('--' + flag); } catch (e) {} },
  };
  timer = setInterval(() => {
    const now = Date.now();
    hold.left -= Math.min(now - last, 2000);
    last = now;
    if (hold.left <= 0) hold.release();
  }, 1000);
  if (typeof timer.unref === 'function') timer.unref();
  Object.defineProperty(g, key, { value: hold, configurable: true });
  return held.includes('compact') ? 'held' : 'target-options';
})()`;

/** Renews the hold; false when there is none (it ended, or was never taken). */
export const RENEW_COMPACTION_EXPRESSION = `(() => { const h = globalThis[${KEY}]; if (h) h.left = ${LEASE_MS}; return !!h; })()`;

/** Ends the hold: compaction on again. */
export const RELEASE_COMPACTION_EXPRESSION = `(() => { const h = globalThis[${KEY}]; if (h) h.release(); return !!h; })()`;
