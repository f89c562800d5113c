// What one heap snapshot will cost the target, estimated from its heap size before taking it: the
// pause (the target is frozen for the whole generation and serialisation), the native memory V8 takes
// for it (most of it stays resident afterwards), and the file's size. The constants are measurements
// (issue 13, defect 10; fixtures/heap-size.cjs and scripts/bench-attach.js, Node 20 and 24, a 2-core VM
// shared with other work, load average 4–7):
// - heap nodes: 40 bytes of heapUsed a node in the fixture's mix (89.6 MB → 2,240,876 nodes); the design
//   notes measured ~60 in agent-like heaps. 40 counts more nodes, so the pause and memory err high.
// - pause: the first snapshot of a process is the slow one (its memory is faulted in): 6.5–12.6 µs a node
//   (70–90 MiB heaps, 14.7–29 s); later ones 2.4–7.6 µs. An idle machine is several times faster (the issue
//   saw 2.9–4.6 s for a 216 MiB heap, under 1 µs a node): the plan gives a range, from 1 µs a node up to
//   the loaded first snapshot's 7 µs, with 3 µs as the expectation.
// - native memory: the first snapshot raises the target's RSS by 350–390 bytes a node and it stays there
//   (30 MiB heap +270 MB, 70 MiB +630 MB, 90 MiB +870 MB); later snapshots add little (3–4 more at 30 and
//   70 MiB: within ±70 MB, and 130 MB once on Node 24), so it is not paid again per snapshot. The peak is
//   higher: 520 bytes a node (a 306 MB heap: 0.39 → 4.3 GB at the peak, 3.5 GB after). HeapProfiler.disable
//   does not give it back (30 MiB heap: 378 → 337 MB once, then unchanged) and it forgets the object ids
//   the series' diff relies on (getHeapObjectId answers 0 after it); closing the session frees ~130–200 MB.
// - file: 77 bytes a node (172.7 MB for 2,240,876 nodes); 85 on agent-like heaps.
// The headroom check uses the peak, so it errs on the side of not OOM-killing the target.

export const BYTES_PER_HEAP_NODE = 40;
/** The expected pause a node, and the range the plan states (idle machine .. loaded first snapshot). */
export const PAUSE_US_PER_NODE = 3;
export const PAUSE_US_PER_NODE_RANGE: readonly [number, number] = [1, 7];
/** Peak native memory a snapshot takes in the target, per heap node (measured above), scaled linearly. */
export const NATIVE_BYTES_PER_NODE = 520;
/** What stays resident after the first snapshot, per heap node (later snapshots do not add it again). */
export const KEPT_BYTES_PER_NODE = 400;
/** Snapshot files run at ~77–100 bytes a node (nodes, edges and strings). */
export const FILE_BYTES_PER_NODE = 85;
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
  /** The pause's range: an idle machine .. a loaded one's first snapshot. */
  readonly pauseRangeMs: readonly [number, number];
  /** Native memory the snapshot takes in the target at its peak. */
  readonly nativeBytes: number;
  /** What stays resident in the target after the first snapshot (not added again by later ones). */
  readonly keptBytes: number;
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
    pauseRangeMs: [Math.round((heapNodes * PAUSE_US_PER_NODE_RANGE[0]) / 1000), Math.round((heapNodes * PAUSE_US_PER_NODE_RANGE[1]) / 1000)],
    nativeBytes: Math.max(MIN_NATIVE_BYTES, heapNodes * NATIVE_BYTES_PER_NODE),
    keptBytes: Math.max(MIN_NATIVE_BYTES, heapNodes * KEPT_BYTES_PER_NODE),
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
