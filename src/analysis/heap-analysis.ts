// One graph's derived data, computed lazily, once, and kept beside it: edge mask, distances, DevTools
// self sizes, dominators, dominator tree, retained sizes, class index, class summary. The engine never
// prints; `onPhase` tells a caller (the CLI's progress line) which phase is starting. Phases share one
// Scratch pool, so the big temporaries of one phase become the temporaries and outputs of the next.
// Checked node by node (distance, self size, dominator, retained size, class name and key) and row by
// row (class summary) against DevTools' own heap_snapshot_worker on Node 20/22 and Chrome snapshots.

import type { HeapGraph, SizeArray } from '../snapshot/heap-graph.js';
import { computeClassIndex, type ClassIndex } from './class-keys.js';
import { summarizeClasses, type ClassSummaryRow } from './class-summary.js';
import { computeDistances } from './distances.js';
import { computeDetachedNatives } from './dom-state.js';
import { buildDominatorTree, type DominatorTree } from './dominator-tree.js';
import { computeDominatorsInOrder } from './dominators.js';
import { buildRetainerIndex, type RetainerIndex } from './retainer-index.js';
import { DominatorsJob } from './parallel-dominators.js';
import { computeEssentialEdgeMask } from './essential-edges.js';
import { retainedSizesInOrder } from './retained-sizes.js';
import { Scratch } from './scratch.js';
import { computeShallowSizes } from './shallow-sizes.js';
import { selectTopDominated } from './top-dominated.js';

export type AnalysisPhase =
  | 'edge-mask'
  | 'retainers'
  | 'distances'
  | 'dom-state'
  | 'self-sizes'
  | 'dominators'
  | 'dominator-tree'
  | 'retained-sizes'
  | 'class-index'
  | 'class-summary';

export interface AnalyzeOptions {
  /** Called as each phase starts. */
  readonly onPhase?: (phase: AnalysisPhase) => void;
}

export class HeapAnalysis {
  readonly graph: HeapGraph;
  /** Buffers the phases pass along; other analyses of this graph may borrow from it too. */
  readonly scratch = new Scratch();
  readonly #onPhase: ((phase: AnalysisPhase) => void) | undefined;
  #mask?: Uint8Array;
  #detached?: Uint8Array | null;
  #distances?: Uint32Array;
  #selfSizes?: SizeArray;
  #retainers?: RetainerIndex;
  /** The retainer index and dominators under way on a second thread (parallel-dominators.ts), started with the mask. */
  #job?: DominatorsJob;
  #dominators?: Uint32Array;
  /** The dominators' order (dominators.ts), kept until the retained sizes are folded up along it. */
  #order?: Uint32Array;
  #tree?: DominatorTree;
  #retainedSizes?: Float64Array;
  #classIndex?: ClassIndex;
  #summary?: readonly ClassSummaryRow[];

  constructor(graph: HeapGraph, options: AnalyzeOptions = {}) {
    this.graph = graph;
    this.#onPhase = options.onPhase;
  }

  /** Per-edge EDGE_* bits (essential-edges.ts). */
  get edgeMask(): Uint8Array {
    return (this.#mask ??= this.#phase('edge-mask', () => {
      const job = DominatorsJob.start(this.graph);
      const mask = computeEssentialEdgeMask(this.graph, this.scratch, job !== undefined);
      job?.submit(mask);
      this.#job = job;
      return mask;
    }));
  }

  get distances(): Uint32Array {
    return (this.#distances ??= this.#phase('distances', () => computeDistances(this.graph, this.edgeMask, this.scratch)));
  }

  /** Self sizes as DevTools shows them (hidden/array sizes moved to their owner); use these, not the raw ones. */
  get selfSizes(): SizeArray {
    return (this.#selfSizes ??= this.#phase('self-sizes', () => computeShallowSizes(this.graph, this.detachedNatives, this.scratch)));
  }

  /** 1 for native nodes DevTools shows as "Detached …" (dom-state.ts); undefined when there are none. */
  get detachedNatives(): Uint8Array | undefined {
    if (this.#detached === undefined) {
      this.#detached = this.#phase('dom-state', () => computeDetachedNatives(this.graph, this.scratch)) ?? null;
    }
    return this.#detached ?? undefined;
  }

  /** Reverse edges without weak ones (retainer-index.ts). */
  get retainers(): RetainerIndex {
    const mask = this.edgeMask;
    return (this.#retainers ??= this.#phase('retainers', () => {
      const index = this.#job?.takeIndex();
      if (!index) this.#job = undefined;
      return index ?? buildRetainerIndex(this.graph, mask, this.scratch);
    }));
  }

  /**
   * Whether the dominators are being computed on the second thread (from the retainer index on, which
   * this waits for): until they are taken, this thread is free for work that does not need them.
   * Distances come first (every report needs them; this thread computes them while the index is built,
   * and their BFS queue, given back, becomes a temporary of the next phase instead of a fresh buffer).
   */
  get dominatorsUnderWay(): boolean {
    void this.distances;
    void this.retainers;
    return this.#job !== undefined;
  }

  get dominators(): Uint32Array {
    if (this.#dominators) return this.#dominators;
    void this.dominatorsUnderWay; // distances, then the index
    const { edgeMask, retainers } = this;
    const job = this.#job;
    this.#job = undefined;
    // With the dominators under way on the second thread, this one builds the class index and the self
    // sizes meanwhile. Neither keeps a per-node temporary, and what they keep would otherwise be
    // allocated right after: the peak grows by no more than the self sizes (measured on a 306 MB file:
    // ~12 MB more at the end of the dominators, none after them).
    if (job) {
      void this.classIndex;
      void this.selfSizes;
    }
    const { dominators, order } = this.#phase('dominators', () =>
      job?.takeDominators(this.scratch) ?? computeDominatorsInOrder(this.graph, edgeMask, this.scratch, retainers));
    this.#order = order;
    return (this.#dominators = dominators);
  }

  get dominatorTree(): DominatorTree {
    return (this.#tree ??= this.#phase('dominator-tree', () =>
      buildDominatorTree(this.dominators, this.graph.rootOrdinal, this.scratch)));
  }

  get retainedSizes(): Float64Array {
    if (this.#retainedSizes) return this.#retainedSizes;
    const { dominators, selfSizes } = this;
    // Along the dominators' own order (kept for this since they were computed): no tree needed yet, and
    // the order's buffer, given back, becomes the tree's.
    const order = this.#order!;
    this.#order = undefined;
    return (this.#retainedSizes = this.#phase('retained-sizes', () => {
      const retained = retainedSizesInOrder(dominators, order, selfSizes, this.scratch);
      this.scratch.give(order);
      return retained;
    }));
  }

  get classIndex(): ClassIndex {
    return (this.#classIndex ??= this.#phase('class-index', () => computeClassIndex(this.graph, this.detachedNatives, this.scratch)));
  }

  className(ordinal: number): string {
    const index = this.classIndex;
    return index.names[index.classOf[ordinal]!]!;
  }

  /** One row per class with at least one node of non-zero self size, in class-id order. */
  classSummary(): readonly ClassSummaryRow[] {
    if (this.#summary) return this.#summary;
    const { classIndex, selfSizes, retainedSizes, distances, dominatorTree } = this;
    this.#summary = this.#phase('class-summary', () =>
      summarizeClasses({ classIndex, selfSizes, retainedSizes, distances, tree: dominatorTree }));
    // Nothing reads the tree after the summary (asked for again, it is built again), and it is two
    // per-node arrays: back to the pool, where a diff's id table and signature pass take their
    // temporaries instead of fresh memory beside it.
    this.#tree = undefined;
    this.scratch.give(dominatorTree.firstChild);
    return this.#summary;
  }

  /** Ordinals of the n largest objects by retained size, largest first (no root, no synthetic nodes). */
  topDominated(n: number): Uint32Array {
    return selectTopDominated(this.graph, this.retainedSizes, n);
  }

  #phase<T>(phase: AnalysisPhase, run: () => T): T {
    this.#onPhase?.(phase);
    return run();
  }
}

/**
 * Runs every phase now and returns the analysis with all of it cached. The order puts the phase with
 * the most temporaries (dominators) first, so later phases mostly recycle its buffers.
 */
export function analyzeHeap(graph: HeapGraph, options: AnalyzeOptions = {}): HeapAnalysis {
  const analysis = new HeapAnalysis(graph, options);
  void analysis.edgeMask;
  void analysis.distances;
  void analysis.retainedSizes;
  void analysis.dominatorTree;
  void analysis.classIndex;
  analysis.classSummary();
  analysis.scratch.clear();
  return analysis;
}
