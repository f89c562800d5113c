// Backing memory for typed arrays that a second thread may read or fill (parallel-edges.ts,
// parallel-dominators.ts): a SharedArrayBuffer then, a plain ArrayBuffer otherwise.

export function byteBuffer(bytes: number, shared: boolean): ArrayBuffer | SharedArrayBuffer {
  return shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
}
