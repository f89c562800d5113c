// What `leakhunt analyze` reports about one snapshot, as data (schemaVersion 1): header figures, the
// top classes and the largest single objects by retained size. Reporters format it; scripts read its
// JSON. String contents never appear: a string object is named by its type and length only.

import type { HeapAnalysis } from './heap-analysis.js';
import { findNodeVersion } from './node-version.js';
import { describeNodeName } from './node-names.js';

export type ClassSortKey = 'retained' | 'self' | 'count';

export interface SummarizeOptions {
  /** How many classes to list; `Infinity` for all. */
  readonly top: number;
  /**
   * How many of the largest objects to list; `Infinity` for every object (millions on a production
   * heap). Default: `top`, or OBJECTS_WITH_ALL_CLASSES when `top` is all.
   */
  readonly objects?: number;
  readonly sort: ClassSortKey;
}

export interface ClassRow {
  readonly name: string;
  readonly count: number;
  readonly selfSize: number;
  readonly retainedSize: number;
}

export interface DominatorRow {
  /** V8 object id, as DevTools shows it after `@`. */
  readonly id: number;
  readonly name: string;
  readonly className: string;
  readonly selfSize: number;
  readonly retainedSize: number;
}

export interface SnapshotSummary {
  readonly schemaVersion: 1;
  readonly snapshot: {
    readonly nodeCount: number;
    readonly edgeCount: number;
    /** Bytes reachable from the root: the root's retained size, DevTools' "Total". */
    readonly totalSize: number;
    readonly nodeVersion?: string;
  };
  /** Number of classes before `top` cut the list. */
  readonly classCount: number;
  readonly classes: readonly ClassRow[];
  readonly dominators: readonly DominatorRow[];
}

/** The largest objects listed beside every class (`--top all`) unless asked for more. */
export const OBJECTS_WITH_ALL_CLASSES = 100;

const SORTERS: Record<ClassSortKey, (a: ClassRow, b: ClassRow) => number> = {
  retained: (a, b) => b.retainedSize - a.retainedSize || b.selfSize - a.selfSize,
  self: (a, b) => b.selfSize - a.selfSize || b.retainedSize - a.retainedSize,
  count: (a, b) => b.count - a.count || b.retainedSize - a.retainedSize,
};

export function summarizeSnapshot(analysis: HeapAnalysis, options: SummarizeOptions): SnapshotSummary {
  const { graph } = analysis;
  const retained = analysis.retainedSizes;
  const rows = analysis.classSummary()
    .map(({ name, count, selfSize, retainedSize }) => ({ name, count, selfSize, retainedSize }))
    .sort((a, b) => SORTERS[options.sort](a, b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const classes = Number.isFinite(options.top) ? rows.slice(0, options.top) : rows;
  const objects = options.objects ?? (Number.isFinite(options.top) ? options.top : OBJECTS_WITH_ALL_CLASSES);
  const topCount = Number.isFinite(objects) ? objects : graph.nodeCount;
  const dominators = Array.from(analysis.topDominated(topCount), (ordinal): DominatorRow => ({
    id: graph.nodeId[ordinal]!,
    name: describeNodeName(analysis, ordinal),
    className: analysis.className(ordinal),
    selfSize: analysis.selfSizes[ordinal]!,
    retainedSize: retained[ordinal]!,
  }));
  const nodeVersion = findNodeVersion(graph);
  return {
    schemaVersion: 1,
    snapshot: {
      nodeCount: graph.nodeCount,
      edgeCount: graph.edgeCount,
      totalSize: retained[graph.rootOrdinal]!,
      ...(nodeVersion === undefined ? {} : { nodeVersion }),
    },
    classCount: rows.length,
    classes,
    dominators,
  };
}
