// V8's sampling heap profiler over a target session (`leakhunt profile`): start it, read the live
// profile, stop it — and the stop registered in open-resources.ts, so every way leakhunt ends stops it
// before the session is detached (last opened, first closed). No snapshot: V8 samples one allocation
// every ~`samplingInterval` bytes (a Poisson process) and keeps the stack of each sampled object while it
// lives; `getSamplingProfile` reports those still alive, weighted back up to bytes. V8's inspector starts
// the profiler with kSamplingForceGC (v8-heap-profiler-agent-impl.cc), so every read (and the stop, which
// reads too) runs a full GC in the target first: the one pause, timed by the caller.
//
// The profile is flattened here into stacks (innermost frame first, lines and columns made 1-based):
// what src/analysis/allocation-site.ts folds. Nothing of the heap's contents is read.

import { ConnectionClosedError } from './cdp-connection.js';
import { holdOpen } from './open-resources.js';
import type { TargetSession } from './session.js';

/** V8's default sampling interval (bytes between samples, on average). */
export const V8_DEFAULT_SAMPLING_INTERVAL = 32768;

/** `Runtime.CallFrame` as the sampling profile gives it (lines and columns 0-based, -1 when unknown). */
interface CdpCallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber: number;
}

interface CdpProfileNode {
  readonly callFrame: CdpCallFrame;
  readonly selfSize: number;
  readonly id: number;
  readonly children: readonly CdpProfileNode[];
}

interface CdpProfile {
  readonly head: CdpProfileNode;
  readonly samples?: readonly { readonly size: number; readonly nodeId: number; readonly ordinal: number }[];
}

/** One frame, 1-based (the shape of analysis/allocation-site.ts's AllocationFrame). */
export interface SampledFrame {
  readonly function: string;
  readonly url: string;
  readonly line: number;
  readonly column: number;
}

/** The live sampled bytes of one allocating stack. */
export interface SampledStack {
  /** Innermost first; V8's `(root)` is left out. */
  readonly frames: readonly SampledFrame[];
  /** Live bytes V8 attributes to this stack (sampled objects scaled up by the sampling interval). */
  readonly bytes: number;
  /** How many sampled objects of this stack are alive (the estimate's precision: ~1/√samples). */
  readonly samples: number;
}

export interface SampledProfile {
  readonly stacks: readonly SampledStack[];
  /** Sum of `bytes` over every stack. */
  readonly totalBytes: number;
  readonly totalSamples: number;
}

function frameOf(c: CdpCallFrame): SampledFrame {
  return { function: c.functionName, url: c.url, line: c.lineNumber + 1, column: c.columnNumber + 1 };
}

/** The profile's tree as one stack per node with live bytes (iterative: stacks run hundreds deep). */
export function flattenProfile(profile: CdpProfile): SampledProfile {
  const samplesAt = new Map<number, number>();
  for (const s of profile.samples ?? []) samplesAt.set(s.nodeId, (samplesAt.get(s.nodeId) ?? 0) + 1);
  const stacks: SampledStack[] = [];
  let totalBytes = 0;
  let totalSamples = 0;
  // Each entry: a node and the frames from it out to the root's child (innermost first).
  const pending: { node: CdpProfileNode; outer: readonly SampledFrame[] }[] = profile.head.children.map((node) => ({ node, outer: [] }));
  while (pending.length > 0) {
    const { node, outer } = pending.pop()!;
    const frames = [frameOf(node.callFrame), ...outer];
    if (node.selfSize > 0) {
      // A profile without `samples` (an old V8) still has bytes: count one sample per interval's worth.
      const samples = profile.samples ? samplesAt.get(node.id) ?? 0 : 1;
      stacks.push({ frames, bytes: node.selfSize, samples });
      totalBytes += node.selfSize;
      totalSamples += samples;
    }
    for (const child of node.children) pending.push({ node: child, outer: frames });
  }
  return { stacks, totalBytes, totalSamples };
}

export interface SamplingRun {
  readonly samplingInterval: number;
  /** The live profile now. */
  read(): Promise<SampledProfile>;
  /** Stops the profiler; safe to call twice, and after the target is gone. */
  stop(): Promise<void>;
}

/** How long a profile may take to come back: it is built and serialised in the target (a few MB at most). */
const READ_DEADLINE_MS = 60_000;

/** Starts sampling in the target; the stop is registered at once, so no exit path leaves it running. */
export async function startSampling(session: TargetSession, samplingInterval: number): Promise<SamplingRun> {
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      try {
        if (!session.gone) await session.heapProfiler('stopSampling');
      } catch (err) {
        if (!(err instanceof ConnectionClosedError)) throw err;
      } finally {
        unregister();
      }
    })();
    return stopping;
  };
  // Registered before the command is sent: a Ctrl-C while it is in flight still stops what it started.
  const unregister = holdOpen({ what: `the sampling heap profiler in pid ${session.info.pid}`, close: stop });
  try {
    await session.heapProfiler('startSampling', { samplingInterval });
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
  return {
    samplingInterval,
    read: async () => flattenProfile((await session.heapProfiler('getSamplingProfile', {}, Math.max(READ_DEADLINE_MS, 0))).profile as CdpProfile),
    stop,
  };
}
