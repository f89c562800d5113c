// Heap snapshots of the calling thread, over an in-process `node:inspector` Session: garbage collection
// (`HeapProfiler.collectGarbage`, so `--expose-gc` is not needed) and `HeapProfiler.takeHeapSnapshot`
// with every chunk scanned for the largest object id and, when the file is wanted, written
// synchronously as it arrives to a private file (0600 in a 0700 temp dir: a heap holds every string
// of the process). In a worker thread the session connects to that worker's
// own isolate, so the snapshot is of the thread the test runs in (checked on Node 20, 22 and 24).
//
// Settling before a snapshot: a macrotask, a 0 ms timer and another macrotask let pending promise
// reactions, immediates and due timers run; then two collections with a macrotask between them, so
// WeakRef targets (kept until the end of the job) and FinalizationRegistry callbacks are done with.
// The timer functions come from node:timers/promises, not the globals, so a test's fake timers
// (jest/vitest `useFakeTimers`) cannot stall them.

import { Buffer } from 'node:buffer';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextMacrotask, setTimeout as delay } from 'node:timers/promises';
import { flagsToHold } from '../attach/tracking-compaction.js';
import { MaxNodeIdScanner } from './max-node-id.js';

interface ChunkMessage {
  readonly params: { readonly chunk: string };
}

export interface TakenSnapshot {
  /** The largest V8 object id in the snapshot (max-node-id.ts). */
  readonly maxId: number;
  /** The snapshot file, when it was written. */
  readonly file?: string;
}

export class InProcessHeap {
  /** The private directory the snapshots are written to. */
  readonly dir: string;
  readonly #session: Session;
  readonly #files: string[] = [];
  #closed = false;
  /** V8 flags trackAllocations() turned off, each turned on again at close(). */
  readonly #held: string[] = [];

  private constructor(dir: string, session: Session) {
    this.dir = dir;
    this.#session = session;
  }

  /** Connects a session to this thread's inspector and makes the private directory. */
  static open(dir?: string): InProcessHeap {
    const session = new Session();
    session.connect();
    try {
      // mkdtemp creates the directory with mode 0700.
      return new InProcessHeap(mkdtempSync(join(dir ?? tmpdir(), 'leakhunt-test-')), session);
    } catch (err) {
      session.disconnect();
      throw err;
    }
  }

  get files(): readonly string[] {
    return this.#files;
  }

  #post(method: string, params: object = {}): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.#session.post(method, params, (err: Error | null, result?: unknown) => (err ? reject(err) : resolve(result)));
    });
  }

  /** Lets pending work run, then collects garbage twice. */
  async settle(): Promise<void> {
    await nextMacrotask();
    await delay(0);
    await nextMacrotask();
    await this.#post('HeapProfiler.collectGarbage');
    await nextMacrotask();
    await this.#post('HeapProfiler.collectGarbage');
  }

  /**
   * Has V8 compute the line ends of every script. The snapshot records a source location for every
   * function, and on Node 20 V8 finds it by scanning the script's source from the start when the
   * script has no line ends yet: one large bundle (TypeScript's 9 MB, a test runner's own) made one
   * snapshot take 41 s instead of 1.2 s here. Enabling the Debugger domain computes them for all
   * scripts (0.4 s for 145, once). Both commands are posted in one synchronous step, so no JavaScript
   * runs while the domain is on (a `debugger` statement would otherwise pause this very thread).
   */
  #prepareScripts(): Promise<unknown> {
    const on = this.#post('Debugger.enable');
    const off = this.#post('Debugger.disable');
    return Promise.all([on, off]);
  }

  /**
   * Settles, then takes a snapshot of this thread's heap: its largest object id always, and the file
   * `<dir>/<name>.heapsnapshot` when `write` (a snapshot only needed for its id is not written at all).
   */
  /**
   * Allocation tracking on for the rest of the session (it ends with the session: close()). On Node 20
   * compiled code is discarded first, as attach does (src/attach/allocation-tracking.ts): code compiled
   * before tracking began would allocate unseen by it.
   */
  async trackAllocations(): Promise<void> {
    // The flags attach holds off in its target while tracking (src/attach/tracking-compaction.ts):
    // compaction, as V8 moves a tracked object's stack with it only until the object has an id; on
    // Node 22 escape analysis, whose deoptimizations crash that V8's tracker (docs/testing-api.md,
    // "Node 22"). Off before tracking starts, on again at close().
    for (const flag of flagsToHold(process.version, `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`)) {
      setFlagsFromString(`--no-${flag}`);
      this.#held.push(flag);
    }
    await this.#post('HeapProfiler.startTrackingHeapObjects', { trackAllocations: true });
    if (/^v20\./.test(process.version)) {
      await this.#post('Profiler.enable');
      await this.#post('Profiler.startPreciseCoverage', { callCount: false, detailed: false });
      await this.#post('Profiler.stopPreciseCoverage');
      await this.#post('Profiler.disable');
    }
  }

  async snapshot(name: string, write: boolean): Promise<TakenSnapshot> {
    if (this.#closed) throw new Error('the heap session is closed');
    await this.#prepareScripts();
    await this.settle();
    const file = write ? join(this.dir, `${name}.heapsnapshot`) : undefined;
    const fd = file === undefined ? undefined : openSync(file, 'wx', 0o600);
    if (file !== undefined) this.#files.push(file);
    const ids = new MaxNodeIdScanner();
    const onChunk = (message: ChunkMessage): void => {
      const { chunk } = message.params;
      ids.push(chunk);
      if (fd === undefined) return;
      const buf = Buffer.from(chunk, 'utf8');
      for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off, buf.length - off);
    };
    this.#session.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
    try {
      await this.#post('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    } finally {
      this.#session.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
      if (fd !== undefined) closeSync(fd);
    }
    return { maxId: ids.maxId, ...(file === undefined ? {} : { file }) };
  }

  /** Disconnects the session and, unless `keep`, removes the snapshots and their directory. */
  close(keep: boolean): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#session.disconnect();
    for (const flag of this.#held) setFlagsFromString(`--${flag}`);
    if (!keep) rmSync(this.dir, { recursive: true, force: true });
  }
}
