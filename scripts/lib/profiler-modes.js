// What the overhead benches switch on in a target, over the inspector, with the calls leakhunt makes:
// allocation tracking as `attach --trace-allocations` starts it (src/attach/session.ts,
// src/attach/allocation-tracking.ts: on Node 20 the compiled code is discarded once tracking is on; heap
// compaction is held off while tracking, renewed every few seconds, src/attach/tracking-compaction.ts)
// and turns it off (the hold released, then `HeapProfiler.disable`), and the sampling heap profiler as `leakhunt profile` runs it
// (src/attach/sampling-profile.ts). Each mode: `{ label, start(client, nodeVersion), stop(client) }`.
import { compiledCodeEscapesTracking } from '../../dist/src/attach/allocation-tracking.js';
import { HOLD_COMPACTION_EXPRESSION, RELEASE_COMPACTION_EXPRESSION, RENEW_COMPACTION_EXPRESSION, RENEW_EVERY_MS } from '../../dist/src/attach/tracking-compaction.js';
import { DEFAULT_SAMPLING_INTERVAL } from '../../dist/src/cli/commands/profile.js';
import { parseSize } from '../../dist/src/cli/parse-options.js';

/** Renews the compaction hold of the tracking window under way. */
let renewing;

export const TRACKING = {
  label: 'tracking',
  async start(client, nodeVersion) {
    const { result } = await client.Runtime.evaluate({ expression: HOLD_COMPACTION_EXPRESSION, returnByValue: true });
    if (result.value !== 'held') throw new Error(`bench: the compaction hold was not taken (${result.value})`);
    renewing = setInterval(() => { client.Runtime.evaluate({ expression: RENEW_COMPACTION_EXPRESSION }).catch(() => {}); }, RENEW_EVERY_MS);
    await client.HeapProfiler.enable();
    await client.HeapProfiler.startTrackingHeapObjects({ trackAllocations: true });
    if (compiledCodeEscapesTracking(nodeVersion)) {
      await client.Profiler.enable();
      await client.Profiler.startPreciseCoverage({ callCount: false, detailed: false });
      await client.Profiler.stopPreciseCoverage();
      await client.Profiler.disable();
    }
  },
  async stop(client) {
    clearInterval(renewing);
    await client.Runtime.evaluate({ expression: RELEASE_COMPACTION_EXPRESSION });
    await client.HeapProfiler.disable();
  },
};

/** `leakhunt profile`'s default sampling interval, in bytes. */
export const DEFAULT_SAMPLING_BYTES = parseSize('--sampling-interval', DEFAULT_SAMPLING_INTERVAL);

/** The sampling heap profiler at `bytes`; its label is the interval (`sampling 64 KiB`, `sampling 1 GiB`). */
export function sampling(bytes) {
  const size = bytes >= 2 ** 30 ? `${bytes / 2 ** 30} GiB` : `${bytes / 1024} KiB`;
  return {
    label: `sampling ${size}`,
    samplingInterval: bytes,
    async start(client) {
      await client.HeapProfiler.enable();
      await client.HeapProfiler.startSampling({ samplingInterval: bytes });
    },
    async stop(client) {
      await client.HeapProfiler.stopSampling(); // builds and sends the whole profile: outside every window
      await client.HeapProfiler.disable();
    },
  };
}
