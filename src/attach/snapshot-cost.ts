// What one heap snapshot will cost the target, estimated from its heap size before taking it: the
// pause (the target is frozen for the whole generation and serialisation), the native memory V8 keeps
// resident afterwards, and the file's size. The constants are measurements (DESIGN.md, "Node facts"):
// ~7–9 µs per heap node on Node 20/22/24, ~1.5 GB resident after a snapshot of a 200 MB heap, and
// ~60 bytes of heapUsed per heap node in agent-like heaps. They are estimates and are labelled so.

export const BYTES_PER_HEAP_NODE = 60;
export const PAUSE_US_PER_NODE = 8;
/** 1.5 GB left resident for a 200 MB heap (≈3.5 M nodes): ≈450 bytes a node, scaled linearly. */
export const NATIVE_BYTES_PER_NODE = 450;
/** Snapshot files run at ~100 bytes a node (nodes, edges and strings) in the fixtures and agent heaps. */
export const FILE_BYTES_PER_NODE = 100;
/** A floor for tiny heaps: V8's own tables and serialisation buffers. */
const MIN_NATIVE_BYTES = 32 * 1024 * 1024;

export interface SnapshotEstimate {
  /** The heapUsed the estimate starts from. */
  readonly heapUsedBytes: number;
  readonly heapNodes: number;
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
