// What one heap snapshot will cost the target, estimated from its heap size before taking it: the
// pause (the target is frozen for the whole generation and serialisation), the native memory V8 takes
// for it (and keeps resident afterwards), and the file's size. The constants are measurements:
// - DESIGN.md ("Node facts"): ~7–9 µs per heap node on Node 20/22/24; ~1.5 GB left resident after a
//   snapshot of a 200 MB heap; ~60 bytes of heapUsed per node in agent-like heaps.
// - here, Node 20, a 306 MB heap of small objects (7.5 M nodes, 40 bytes a node): 101 s paused on a
//   loaded 2-core machine (13 µs a node, transfer included), target RSS 0.39 → 4.3 GB at the peak and
//   3.5 GB after (≈520 bytes a node at the peak), a 640 MB file (85 bytes a node).
// The headroom check uses the peak, so it errs on the side of not OOM-killing the target.

export const BYTES_PER_HEAP_NODE = 60;
export const PAUSE_US_PER_NODE = 8;
/** Peak native memory a snapshot takes in the target, per heap node (measured above), scaled linearly. */
export const NATIVE_BYTES_PER_NODE = 520;
/** Snapshot files run at ~85–100 bytes a node (nodes, edges and strings). */
export const FILE_BYTES_PER_NODE = 100;
/** A floor for tiny heaps: V8's own tables and serialisation buffers. */
const MIN_NATIVE_BYTES = 32 * 1024 * 1024;

export interface SnapshotEstimate {
  /** The heapUsed the estimate starts from. */
  readonly heapUsedBytes: number;
  readonly heapNodes: number;
  /** The assumptions, for the plan to state. */
  readonly bytesPerNode: number;
  readonly pauseUsPerNode: number;
  readonly pauseMs: number;
  /** Native memory the snapshot takes in the target (and keeps resident afterwards). */
  readonly nativeBytes: number;
  readonly fileBytes: number;
}

export function estimateSnapshot(heapUsedBytes: number): SnapshotEstimate {
  const heapNodes = Math.round(heapUsedBytes / BYTES_PER_HEAP_NODE);
  return {
    heapUsedBytes,
    heapNodes,
    bytesPerNode: BYTES_PER_HEAP_NODE,
    pauseUsPerNode: PAUSE_US_PER_NODE,
    pauseMs: Math.round((heapNodes * PAUSE_US_PER_NODE) / 1000),
    nativeBytes: Math.max(MIN_NATIVE_BYTES, heapNodes * NATIVE_BYTES_PER_NODE),
    fileBytes: heapNodes * FILE_BYTES_PER_NODE,
  };
}

export interface HeadroomCheck {
  readonly ok: boolean;
  /** Undefined when neither a cgroup limit nor MemAvailable could be read. */
  readonly headroomBytes?: number;
  readonly neededBytes: number;
}

/** Is there room for the snapshot's native memory (the cgroup's and the machine's)? Unknown room passes. */
export function checkHeadroom(headroomBytes: number | undefined, estimate: SnapshotEstimate): HeadroomCheck {
  const neededBytes = estimate.nativeBytes;
  if (headroomBytes === undefined) return { ok: true, neededBytes };
  return { ok: headroomBytes >= neededBytes, headroomBytes, neededBytes };
}
