// `leakhunt diff` as a function: a series of snapshots of one process, oldest first, compared by class
// and by object id, with the survivors of the newest snapshot grouped by retainer path.
//
// Memory: snapshots are parsed one at a time; each is reduced to per-class totals and an id table
// (8 bytes an object) before the next is read, and only the newest keeps its whole graph (for paths).
// So a diff of two snapshots costs about two `analyze` runs, and n snapshots need one graph at a time.
// Order: V8 ids only grow, so the snapshot with the largest id is the newest; a series given out of
// order is put in order, with a warning. Snapshots of different processes (ids that cannot line up)
// are compared by class only, with a warning.

import { parseSnapshotFile } from '../../snapshot/parse.js';
import { HeapAnalysis, type AnalysisPhase } from '../heap-analysis.js';
import { describeChain, type ChainHop, type ChainLabeler } from '../chain-description.js';
import type { Plumbing } from '../context-plumbing.js';
import type { HoldKind } from '../holder-tiers.js';
import { findNodeVersion } from '../node-version.js';
import { PathSignatures } from '../path-signatures.js';
import { RetainerPaths } from '../retainer-paths.js';
import { buildIdTable, ClassNames, type IdTable } from './id-table.js';
import { compareIdTables, mismatchRatio, type IdComparison } from './id-matching.js';
import { groupSurvivors } from './survivors.js';

export interface DiffOptions {
  /** Survivor groups to report (largest retained size first). */
  readonly groups: number;
  /** Labels for the chains of survivor groups (src/diagnose's labelChain). */
  readonly labelChain?: ChainLabeler;
  readonly onSnapshot?: (index: number, count: number, file: string) => void;
  readonly onBytes?: (read: number, total: number) => void;
  readonly onPhase?: (phase: AnalysisPhase) => void;
}

export interface SnapshotInfo {
  readonly file: string;
  readonly nodeCount: number;
  readonly edgeCount: number;
  /** Bytes reachable from the root (DevTools' total). */
  readonly totalSize: number;
  readonly maxId: number;
  readonly nodeVersion?: string;
}

export interface ClassDiffRow {
  readonly name: string;
  readonly counts: readonly number[];
  readonly sizes: readonly number[];
  readonly retainedSizes: readonly number[];
  readonly newCount: number;
  readonly deletedCount: number;
  /** Per interval: objects new in the later snapshot / gone from the earlier one (null across processes). */
  readonly newPerInterval: readonly number[] | null;
  readonly deletedPerInterval: readonly number[] | null;
  readonly countDelta: number;
  readonly sizeDelta: number;
  readonly retainedDelta: number;
  /** Count change per interval between consecutive snapshots, on average. */
  readonly growthPerInterval: number;
  /** With three or more snapshots: the count rose in every interval; otherwise null. */
  readonly grewEveryInterval: boolean | null;
}

export interface SurvivorGroup {
  readonly signature: string;
  /** The class of every member (the class the signature starts with). */
  readonly className: string;
  readonly count: number;
  readonly selfSize: number;
  readonly retainedSize: number;
  /** Members present at each snapshot of the series. */
  readonly counts: readonly number[];
  readonly growthPerInterval: number;
  readonly grewEveryInterval: boolean | null;
  /** The chain of the group's largest member, object first. */
  readonly chain: readonly ChainHop[];
  /**
   * What the chain has to go through: only lasting holders; a per-moment root such as `(Handle scope)`
   * (code running at snapshot time held the members, nothing lasting did); only a bookkeeping list
   * (Node / CleanupQueue); or no path from the GC roots at all (the chain ends at the top of what holds
   * the members, e.g. a detached native object, not at the root).
   */
  readonly heldBy: HoldKind;
  /**
   * Set when the members are Node's async-context plumbing ('async-context-frame': AsyncContextFrame
   * objects or their tables): the hop that carries a store, not the leak; what leaks is what the frames
   * hold (the groups whose chains pass through them).
   */
  readonly plumbing?: Plumbing;
}

export interface DiffResult {
  readonly schemaVersion: 1;
  readonly snapshots: readonly SnapshotInfo[];
  /** False when the ids show the snapshots come from different processes: class comparison only. */
  readonly sameProcess: boolean;
  readonly warnings: readonly string[];
  /** Live size, newest minus oldest. */
  readonly growth: number;
  readonly classes: readonly ClassDiffRow[];
  readonly survivors: { readonly count: number; readonly size: number; readonly groups: readonly SurvivorGroup[] } | null;
}

/** Share of impossible ids above which two snapshots are taken to come from different processes. */
const DIFFERENT_PROCESS_RATIO = 0.05;

interface Reduced {
  readonly info: SnapshotInfo;
  readonly table: IdTable;
  /** Per series class id: count, self size, retained size. */
  readonly count: Map<number, number>;
  readonly size: Map<number, number>;
  readonly retained: Map<number, number>;
}

export async function diffSnapshotFiles(files: readonly string[], options: DiffOptions): Promise<DiffResult> {
  const classNames = new ClassNames();
  const reduced: Reduced[] = [];
  // Only the last snapshot keeps its graph (for survivor paths); each earlier one is reduced and let go
  // before the next is read, so peak memory is one graph plus small tables.
  let lastAnalysis: HeapAnalysis | undefined;
  for (const [index, file] of files.entries()) {
    options.onSnapshot?.(index, files.length, file);
    const keep = index === files.length - 1;
    // In a function of its own: an async frame keeps a local alive across the next await, and a
    // local here would hold the previous snapshot's whole graph while the next one is parsed.
    const step = await reduceFile(file, options, classNames, keep);
    reduced.push(step.reduced);
    lastAnalysis = step.analysis;
  }
  const warnings: string[] = [];
  const ordered = [...reduced].sort((a, b) => a.info.maxId - b.info.maxId);
  const reordered = ordered.some((r, i) => r !== reduced[i]);
  const comparisons: IdComparison[] = [];
  for (let k = 1; k < ordered.length; k++) {
    comparisons.push(compareIdTables(ordered[k - 1]!.table, ordered[k]!.table, classNames.names.length));
  }
  const sameProcess = comparisons.every((c, k) => mismatchRatio(c, ordered[k + 1]!.table) <= DIFFERENT_PROCESS_RATIO);
  const series = sameProcess ? ordered : reduced;
  if (!sameProcess) {
    warnings.push('the snapshots do not come from one process (their object ids do not line up): comparing classes only, in the order given; no new/deleted objects and no survivors');
  } else if (reordered) {
    warnings.push(`the snapshots were not given oldest first; compared in id order: ${ordered.map((r) => r.info.file).join(', ')}`);
  }
  const firstLast = sameProcess
    ? compareIdTables(series[0]!.table, series[series.length - 1]!.table, classNames.names.length)
    : undefined;
  const classes = diffClasses(series, classNames, firstLast, sameProcess ? comparisons : undefined);
  let survivors: DiffResult['survivors'] = null;
  if (sameProcess) {
    // Given out of order, the newest snapshot is not the one kept: read it again (the rare path).
    const newestFile = series[series.length - 1]!.info.file;
    const newest = lastAnalysis && newestFile === files[files.length - 1] ? lastAnalysis : await analyzeFile(newestFile, options);
    survivors = describeSurvivors(newest, series, options.groups, options.labelChain);
  }
  const first = series[0]!.info, last = series[series.length - 1]!.info;
  return {
    schemaVersion: 1,
    snapshots: series.map((r) => r.info),
    sameProcess,
    warnings,
    growth: last.totalSize - first.totalSize,
    classes,
    survivors,
  };
}

async function reduceFile(
  file: string,
  options: DiffOptions,
  classNames: ClassNames,
  keep: boolean,
): Promise<{ reduced: Reduced; analysis: HeapAnalysis | undefined }> {
  const analysis = await analyzeFile(file, options);
  return { reduced: reduce(analysis, file, classNames), analysis: keep ? analysis : undefined };
}

async function analyzeFile(file: string, options: DiffOptions): Promise<HeapAnalysis> {
  const graph = await parseSnapshotFile(file, { onProgress: options.onBytes });
  return new HeapAnalysis(graph, { onPhase: options.onPhase });
}

function reduce(analysis: HeapAnalysis, file: string, classNames: ClassNames): Reduced {
  const { graph } = analysis;
  const count = new Map<number, number>(), size = new Map<number, number>(), retained = new Map<number, number>();
  for (const row of analysis.classSummary()) {
    const id = classNames.idOf(row.name);
    count.set(id, (count.get(id) ?? 0) + row.count);
    size.set(id, (size.get(id) ?? 0) + row.selfSize);
    retained.set(id, (retained.get(id) ?? 0) + row.retainedSize);
  }
  const nodeVersion = findNodeVersion(graph);
  const table = buildIdTable(analysis, classNames);
  return {
    info: {
      file,
      nodeCount: graph.nodeCount,
      edgeCount: graph.edgeCount,
      totalSize: analysis.retainedSizes[graph.rootOrdinal]!,
      maxId: table.maxId,
      ...(nodeVersion === undefined ? {} : { nodeVersion }),
    },
    table,
    count,
    size,
    retained,
  };
}

function diffClasses(
  series: readonly Reduced[],
  classNames: ClassNames,
  firstLast: IdComparison | undefined,
  intervalsCompared: readonly IdComparison[] | undefined,
): ClassDiffRow[] {
  const intervals = series.length - 1;
  const rows: ClassDiffRow[] = [];
  for (let c = 0; c < classNames.names.length; c++) {
    const counts = series.map((r) => r.count.get(c) ?? 0);
    if (counts.every((x) => x === 0)) continue;
    const sizes = series.map((r) => r.size.get(c) ?? 0);
    const retainedSizes = series.map((r) => r.retained.get(c) ?? 0);
    const countDelta = counts[intervals]! - counts[0]!;
    rows.push({
      name: classNames.names[c]!,
      counts,
      sizes,
      retainedSizes,
      newCount: firstLast?.newByClass[c] ?? Math.max(0, countDelta),
      deletedCount: firstLast?.deletedByClass[c] ?? Math.max(0, -countDelta),
      newPerInterval: intervalsCompared?.map((cmp) => cmp.newByClass[c] ?? 0) ?? null,
      deletedPerInterval: intervalsCompared?.map((cmp) => cmp.deletedByClass[c] ?? 0) ?? null,
      countDelta,
      sizeDelta: sizes[intervals]! - sizes[0]!,
      retainedDelta: retainedSizes[intervals]! - retainedSizes[0]!,
      growthPerInterval: intervals > 0 ? countDelta / intervals : 0,
      grewEveryInterval: grewEvery(counts),
    });
  }
  rows.sort((a, b) => b.sizeDelta - a.sizeDelta || b.countDelta - a.countDelta || (a.name < b.name ? -1 : 1));
  return rows;
}

function grewEvery(values: readonly number[]): boolean | null {
  if (values.length < 3) return null;
  for (let k = 1; k < values.length; k++) if (!(values[k]! > values[k - 1]!)) return false;
  return true;
}

function describeSurvivors(
  analysis: HeapAnalysis,
  series: readonly Reduced[],
  limit: number,
  labeler: ChainLabeler | undefined,
): DiffResult['survivors'] {
  const paths = new RetainerPaths(analysis);
  const signatures = new PathSignatures(analysis, paths);
  const maxIds = series.map((r) => r.info.maxId);
  const data = groupSurvivors(analysis, paths, signatures, maxIds);
  const intervals = series.length - 1;
  const groups = data.groups.slice(0, limit).map((g): SurvivorGroup => {
    // The newest snapshot holds every member; earlier ones those born by then.
    const counts = g.perSnapshot.map((c, k) => (k === intervals ? g.count : c));
    return {
      signature: signatures.text(g.signature),
      // Every member has the representative's class: they share a signature, which starts with it.
      className: analysis.className(g.representative),
      count: g.count,
      selfSize: g.selfSize,
      retainedSize: g.retainedSize,
      counts,
      growthPerInterval: intervals > 0 ? g.count / intervals : 0,
      grewEveryInterval: grewEvery(counts),
      chain: describeChain(analysis, paths.shortestPath(g.representative), false, labeler),
      heldBy: g.heldBy,
      ...(g.plumbing ? { plumbing: g.plumbing } : {}),
    };
  });
  return { count: data.count, size: data.selfSize, groups };
}
