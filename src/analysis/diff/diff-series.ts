// `leakhunt diff` as a function: a series of snapshots compared in one of three modes (docs/diff-modes.md):
// - ids: one process within one inspector session. Objects match by V8 id: new and deleted per class,
//   survivors of the newest snapshot grouped by retainer path.
// - signatures: one process whose ids do not line up (V8 numbers objects afresh once an inspector session
//   ends), or instances of one service compared on purpose (`acrossProcesses`). Live objects per
//   retainer-path signature and per class, snapshot by snapshot; no matching of objects.
// - classes: different processes (or nothing tells): class totals only.
// Which process a file came from is read from what lies beside it (snapshot-origin.ts) and from the ids.
//
// Memory: snapshots are parsed one at a time; each is reduced to per-class totals, an id table (~3 bytes
// an object) and, when the series needs them, per-signature totals, before the next is read (and, where
// the caller can, collected: collectGarbage); only the newest keeps its whole graph (for paths). Its
// table is compared with the others at once and all of them let go before its signatures and paths are
// made, so the peak is one graph with its analysis, signatures and paths, and n snapshots need one graph
// at a time. Signature totals are computed while a graph is in memory
// when the origins say ahead that the ids cannot line up (separate sessions, or `acrossProcesses`);
// when only the ids show it, the series is read a second time for them, again one graph at a time.
// Order: V8 ids only grow, so in the ids mode the snapshot with the largest id is the newest; a series
// given out of order is put in order, with a warning. In the signatures mode the times recorded beside
// the files order it when all have one; otherwise the order given is kept.

import type { GroupAllocation } from './group-allocation.js';
import { parseSnapshotFile } from '../../snapshot/parse.js';
import { HeapAnalysis, type AnalysisPhase } from '../heap-analysis.js';
import { describeChain, type ChainHop, type ChainLabeler } from '../chain-description.js';
import type { Plumbing } from '../context-plumbing.js';
import type { HoldKind } from '../holder-tiers.js';
import { findNodeVersion } from '../node-version.js';
import { PathSignatures } from '../path-signatures.js';
import { RetainerPaths } from '../retainer-paths.js';
import { buildIdTable, ClassNames, giveIdTable, type IdTable } from './id-table.js';
import { compareIdTables, mismatchRatio, type IdComparison } from './id-matching.js';
import { grewEveryInterval } from './growth-curve.js';
import { countBySignature, SignatureTexts, type SignatureCounts, type SignatureIndex } from './signature-counts.js';
import { describeSignatureSeries, type SignatureSeries } from './signature-series.js';
import { decideProcess, describeEvidence, readSnapshotOrigin, separateSessions, type ProcessDecision, type SnapshotOrigin } from './snapshot-origin.js';
import { groupSurvivors } from './survivors.js';

export type { SignatureGroup, SignatureSeries } from './signature-series.js';
export type { ProcessDecision, SnapshotOrigin } from './snapshot-origin.js';

export interface DiffOptions {
  /** Survivor groups to report (largest retained size first). */
  readonly groups: number;
  /** Labels for the chains of survivor groups (src/diagnose's labelChain). */
  readonly labelChain?: ChainLabeler;
  readonly onSnapshot?: (index: number, count: number, file: string) => void;
  readonly onBytes?: (read: number, total: number) => void;
  readonly onPhase?: (phase: AnalysisPhase) => void;
  /**
   * Compare by retainer-path signature whatever the ids and origins say: the snapshots are instances
   * of one service (a leaking pod against a healthy one), or one process the caller knows to be one.
   */
  readonly acrossProcesses?: boolean;
  /**
   * Called when memory has just been let go: a snapshot's graph, once reduced (before the next is
   * read), and the id tables, once compared (before the newest graph's signatures and paths). A caller
   * that can collect garbage (the CLI's relaunched process, with `--expose-gc`) returns it then, rather
   * than at V8's next full GC, which may come after the diff's peak.
   */
  readonly collectGarbage?: () => void;
}

/** How the series was compared (docs/diff-modes.md). */
export type DiffMode = 'ids' | 'signatures' | 'classes';

/** Something the chosen mode cannot tell, as data (the code) and in words. */
export interface DiffLimitation {
  readonly code: 'no-object-identity' | 'no-births-deaths' | 'different-processes' | 'classes-only';
  readonly text: string;
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
  /**
   * Of this class, survivors (born after the first snapshot, alive in the newest) present at each
   * snapshot, over every survivor group, not only the ones reported; null without ids. With
   * newPerInterval it tells what was born in an interval and died later: the work in flight.
   */
  readonly survivorCounts: readonly number[] | null;
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
  /** Of the retained size, ArrayBuffer backing stores the members hold (bytes outside the JS heap). */
  readonly externalSize: number;
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
  /** Where the members (or the holder that keeps them) were made: snapshots taken while allocations were tracked. */
  readonly allocation?: GroupAllocation;
}

/**
 * Schema 1. Fields were only added to it since its first release (mode, process, limitations,
 * signatures), so a reader of the first form reads this one unchanged.
 */
export interface DiffResult {
  readonly schemaVersion: 1;
  readonly snapshots: readonly SnapshotInfo[];
  /**
   * The object ids line up (one process, one inspector session): new/deleted per class and survivors
   * are known. Same as `mode === 'ids'`; whether the snapshots are one process is `process.same`.
   */
  readonly sameProcess: boolean;
  readonly mode: DiffMode;
  /** Whether the snapshots are one process, and what told. */
  readonly process: ProcessDecision;
  /** What this mode cannot tell (empty in the ids mode). */
  readonly limitations: readonly DiffLimitation[];
  readonly warnings: readonly string[];
  /** Live size, newest minus oldest. */
  readonly growth: number;
  readonly classes: readonly ClassDiffRow[];
  readonly survivors: { readonly count: number; readonly size: number; readonly groups: readonly SurvivorGroup[] } | null;
  /** In the signatures mode: live objects per retainer-path signature, snapshot by snapshot; else null. */
  readonly signatures: SignatureSeries | null;
}

/** Share of impossible ids above which two snapshots are taken to come from different processes. */
const DIFFERENT_PROCESS_RATIO = 0.05;

interface Reduced {
  readonly info: SnapshotInfo;
  readonly origin: SnapshotOrigin | null;
  /** Per-signature totals, when the series needs them. */
  signatureCounts?: SignatureCounts;
  /** Until the snapshots are compared. */
  table: IdTable | undefined;
  /** Per series class id: count, self size, retained size. */
  readonly count: Map<number, number>;
  readonly size: Map<number, number>;
  readonly retained: Map<number, number>;
}

export async function diffSnapshotFiles(files: readonly string[], options: DiffOptions): Promise<DiffResult> {
  const classNames = new ClassNames();
  const texts = new SignatureTexts();
  const origins = files.map((f) => readSnapshotOrigin(f) ?? null);
  // Known before reading: the ids cannot line up, so count signatures while each graph is in memory.
  const countSignatures = options.acrossProcesses === true || separateSessions(origins);
  const reduced: Reduced[] = [];
  // Only the last snapshot keeps its graph (for paths); each earlier one is reduced and let go before
  // the next is read, so peak memory is one graph plus small tables.
  let last: Kept | undefined;
  let compared: Compared | undefined;
  for (const [index, file] of files.entries()) {
    options.onSnapshot?.(index, files.length, file);
    const keep = index === files.length - 1;
    // The last table made, every table is compared and let go before the newest graph's signature
    // pass and paths, which would otherwise have them beside them at the diff's peak.
    const compare = !keep ? undefined : (newest: Reduced): void => {
      compared = compareTables([...reduced, newest], classNames.names.length, (lineUp) => !options.acrossProcesses && decideProcess(origins, lineUp).by === 'ids');
      options.collectGarbage?.();
    };
    // In a function of its own: an async frame keeps a local alive across the next await, and a
    // local here would hold the previous snapshot's whole graph while the next one is parsed.
    const step = await reduceFile(file, origins[index]!, options, classNames, keep, countSignatures ? texts : undefined, compare);
    reduced.push(step.reduced);
    last = step.kept;
    // Its graph let go: gone before the next one is read, not left to V8's timing (whose next full GC
    // can come during the next parse, with both graphs resident).
    if (!keep) options.collectGarbage?.();
  }
  const warnings: string[] = [];
  const { byId, comparisons, idsLineUp, firstLast } = compared!;
  const decision = decideProcess(origins, idsLineUp);
  const mode: DiffMode = options.acrossProcesses ? 'signatures' : decision.by === 'ids' ? 'ids' : decision.same ? 'signatures' : 'classes';
  const series = mode === 'ids' ? byId : mode === 'signatures' ? inTimeOrder(reduced) : reduced;
  if (mode === 'ids' && series.some((r, i) => r !== reduced[i])) {
    warnings.push(`the snapshots were not given oldest first; compared in id order: ${series.map((r) => r.info.file).join(', ')}`);
  } else if (mode === 'signatures' && series.some((r, i) => r !== reduced[i])) {
    warnings.push(`the snapshots were not given oldest first; compared in the order they were taken: ${series.map((r) => r.info.file).join(', ')}`);
  }
  warnings.push(...modeWarnings(mode, decision));
  const ids = mode === 'ids';
  let classes = diffClasses(series, classNames, firstLast, ids ? comparisons : undefined);
  const newestFile = series[series.length - 1]!.info.file;
  const kept = last?.file === newestFile ? last : undefined;
  last = undefined;
  let survivors: DiffResult['survivors'] = null;
  let signatures: SignatureSeries | null = null;
  if (ids) {
    // Given out of order, the newest snapshot is not the one kept: read it again (the rare path).
    const newest = kept?.analysis ?? (await analyzeFile(newestFile, options));
    const described = describeSurvivors(newest, series, options.groups, options.labelChain);
    survivors = described.survivors;
    const zero = new Array<number>(series.length).fill(0);
    classes = classes.map((r) => ({ ...r, survivorCounts: described.byClass.get(r.name) ?? zero }));
  } else if (mode === 'signatures') {
    const newest = await completeSignatureCounts(series, kept, texts, options);
    signatures = describeSignatureSeries(series.map((r) => r.signatureCounts!), texts, newest, options.groups, options.labelChain);
  }
  const first = series[0]!.info, lastInfo = series[series.length - 1]!.info;
  return {
    schemaVersion: 1,
    snapshots: series.map((r) => r.info),
    sameProcess: ids,
    mode,
    process: decision,
    limitations: limitationsOf(mode, decision),
    warnings,
    growth: lastInfo.totalSize - first.totalSize,
    classes,
    survivors,
    signatures,
  };
}

/** The id tables compared in id order; firstLast (oldest against newest) when the ids mode will use it. */
interface Compared {
  readonly byId: readonly Reduced[];
  readonly comparisons: readonly IdComparison[];
  readonly idsLineUp: boolean;
  readonly firstLast: IdComparison | undefined;
}

/** Compares the tables and lets them go (`table` unset): nothing reads them after. */
function compareTables(reduced: readonly Reduced[], classCount: number, idsMode: (idsLineUp: boolean) => boolean): Compared {
  const byId = [...reduced].sort((a, b) => a.info.maxId - b.info.maxId);
  const comparisons: IdComparison[] = [];
  for (let k = 1; k < byId.length; k++) comparisons.push(compareIdTables(byId[k - 1]!.table!, byId[k]!.table!, classCount));
  const idsLineUp = comparisons.every((c, k) => mismatchRatio(c, byId[k + 1]!.table!) <= DIFFERENT_PROCESS_RATIO);
  const firstLast = !idsMode(idsLineUp) ? undefined
    : byId.length === 2 ? comparisons[0] : compareIdTables(byId[0]!.table!, byId[byId.length - 1]!.table!, classCount);
  for (const r of reduced) r.table = undefined;
  return { byId, comparisons, idsLineUp, firstLast };
}

/** The newest snapshot's graph, kept for its paths. */
interface Kept {
  readonly file: string;
  readonly analysis: HeapAnalysis;
  readonly signatures: SignatureIndex | undefined;
}

/** By the times recorded beside the files, when every one has one; else as given. */
function inTimeOrder(reduced: readonly Reduced[]): readonly Reduced[] {
  if (!reduced.every((r) => r.origin?.takenAt !== undefined)) return reduced;
  if (new Set(reduced.map((r) => r.origin!.source)).size > 1) return reduced; // ISO times and file-name stamps do not compare
  return [...reduced].sort((a, b) => (a.origin!.takenAt! < b.origin!.takenAt! ? -1 : a.origin!.takenAt! > b.origin!.takenAt! ? 1 : 0));
}

/**
 * Signature totals for every snapshot of the series, and the newest one's signature index. Those not
 * counted on the first reading (the ids showed the need only once all were read) are read again, one
 * at a time, oldest first, so the newest is read last and its graph is the one kept.
 */
async function completeSignatureCounts(
  series: readonly Reduced[], kept: Kept | undefined, texts: SignatureTexts, options: DiffOptions,
): Promise<SignatureIndex> {
  let newest = kept?.signatures;
  for (const [k, r] of series.entries()) {
    const isNewest = k === series.length - 1;
    if (r.signatureCounts && (!isNewest || newest)) continue;
    options.onSnapshot?.(k, series.length, r.info.file);
    const counted = await countFile(r.info.file, texts, options);
    r.signatureCounts = counted.counts;
    if (isNewest) newest = counted.index;
  }
  return newest!;
}

async function countFile(file: string, texts: SignatureTexts, options: DiffOptions): Promise<ReturnType<typeof countBySignature>> {
  return countBySignature(await analyzeFile(file, options), texts);
}

function modeWarnings(mode: DiffMode, process: ProcessDecision): string[] {
  if (mode === 'classes') {
    return ['the snapshots do not come from one process (their object ids do not line up): comparing classes only, in the order given; no new/deleted objects and no survivors'];
  }
  if (mode !== 'signatures') return [];
  const why = !process.same
    ? 'compared as instances of one service, not one process'
    : process.by === 'ids'
      ? 'compared by retainer path as asked, though the object ids line up'
      : `one process (by ${describeEvidence(process)}) whose object ids do not line up across inspector sessions`;
  return [`${why}: compared by retainer path and class, not object by object; a group whose objects are replaced keeps its count, and births and deaths per interval are unknown`];
}

function limitationsOf(mode: DiffMode, process: ProcessDecision): DiffLimitation[] {
  if (mode === 'ids') return [];
  const out: DiffLimitation[] = [
    { code: 'no-object-identity', text: 'objects are not matched between snapshots: no survivors, and a group whose objects are all replaced keeps its count, so a leak and a steady queue of the same size look alike' },
    { code: 'no-births-deaths', text: 'objects born and freed in each interval are unknown: no new/deleted counts, no turnover' },
  ];
  if (!process.same) out.push({ code: 'different-processes', text: 'the snapshots come from different processes: a difference between them is a difference between the processes, not growth over time' });
  if (mode === 'classes') out.push({ code: 'classes-only', text: 'compared by class totals only: no retainer paths' });
  return out;
}

async function reduceFile(
  file: string,
  origin: SnapshotOrigin | null,
  options: DiffOptions,
  classNames: ClassNames,
  keep: boolean,
  texts: SignatureTexts | undefined,
  onReduced?: (reduced: Reduced) => void,
): Promise<{ reduced: Reduced; kept: Kept | undefined }> {
  const analysis = await analyzeFile(file, options);
  // The newest snapshot's table is compared (onReduced) before anything else is made: it can live in the pool.
  const pooled = onReduced !== undefined;
  const reduced = reduce(analysis, file, origin, classNames, pooled);
  if (onReduced) {
    const table = reduced.table!;
    onReduced(reduced);
    giveIdTable(analysis, table);
  }
  const counted = texts ? countBySignature(analysis, texts) : undefined;
  if (counted) reduced.signatureCounts = counted.counts;
  return { reduced, kept: keep ? { file, analysis, signatures: counted?.index } : undefined };
}

async function analyzeFile(file: string, options: DiffOptions): Promise<HeapAnalysis> {
  const graph = await parseSnapshotFile(file, { onProgress: options.onBytes });
  return new HeapAnalysis(graph, { onPhase: options.onPhase });
}

function reduce(analysis: HeapAnalysis, file: string, origin: SnapshotOrigin | null, classNames: ClassNames, pooled: boolean): Reduced {
  const { graph } = analysis;
  const count = new Map<number, number>(), size = new Map<number, number>(), retained = new Map<number, number>();
  for (const row of analysis.classSummary()) {
    const id = classNames.idOf(row.name);
    count.set(id, (count.get(id) ?? 0) + row.count);
    size.set(id, (size.get(id) ?? 0) + row.selfSize);
    retained.set(id, (retained.get(id) ?? 0) + row.retainedSize);
  }
  const nodeVersion = findNodeVersion(graph);
  const table = buildIdTable(analysis, classNames, { pooled });
  return {
    info: {
      file,
      nodeCount: graph.nodeCount,
      edgeCount: graph.edgeCount,
      totalSize: analysis.retainedSizes[graph.rootOrdinal]!,
      maxId: table.maxId,
      ...(nodeVersion === undefined ? {} : { nodeVersion }),
    },
    origin,
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
      survivorCounts: null,
      countDelta,
      sizeDelta: sizes[intervals]! - sizes[0]!,
      retainedDelta: retainedSizes[intervals]! - retainedSizes[0]!,
      growthPerInterval: intervals > 0 ? countDelta / intervals : 0,
      grewEveryInterval: grewEveryInterval(counts),
    });
  }
  rows.sort((a, b) => b.sizeDelta - a.sizeDelta || b.countDelta - a.countDelta || (a.name < b.name ? -1 : 1));
  return rows;
}

/**
 * The groups to report: the `limit` largest by retained size, then those among the `limit` largest by
 * their members' own size that are not already in. A chain of single holders (a promise chain, a
 * running turn's frames) retains one structure many times over and would fill the first list alone,
 * leaving out the many objects that structure holds.
 */
export function reportedGroups<G extends { readonly selfSize: number }>(groups: readonly G[], limit: number): G[] {
  const first = groups.slice(0, limit);
  const shown = new Set(first);
  const bySelf = [...groups].sort((a, b) => b.selfSize - a.selfSize).slice(0, limit).filter((g) => !shown.has(g));
  return [...first, ...bySelf];
}

function describeSurvivors(
  analysis: HeapAnalysis,
  series: readonly Reduced[],
  limit: number,
  labeler: ChainLabeler | undefined,
): { survivors: DiffResult['survivors']; byClass: Map<string, number[]> } {
  const paths = new RetainerPaths(analysis);
  const signatures = new PathSignatures(analysis, paths);
  const maxIds = series.map((r) => r.info.maxId);
  const data = groupSurvivors(analysis, paths, signatures, maxIds);
  const intervals = series.length - 1;
  const groups = reportedGroups(data.groups, limit).map((g): SurvivorGroup => {
    // The newest snapshot holds every member; earlier ones those born by then.
    const counts = g.perSnapshot.map((c, k) => (k === intervals ? g.count : c));
    return {
      signature: signatures.text(g.signature),
      // Every member has the representative's class: they share a signature, which starts with it.
      className: analysis.className(g.representative),
      count: g.count,
      selfSize: g.selfSize,
      retainedSize: g.retainedSize,
      externalSize: g.externalSize,
      counts,
      growthPerInterval: intervals > 0 ? g.count / intervals : 0,
      grewEveryInterval: grewEveryInterval(counts),
      chain: describeChain(analysis, paths.shortestPath(g.representative), false, labeler),
      heldBy: g.heldBy,
      ...(g.plumbing ? { plumbing: g.plumbing } : {}),
      ...(g.allocation ? { allocation: g.allocation } : {}),
    };
  });
  // Per class over every group, reported or not: the in-flight estimate needs the whole class.
  const byClass = new Map<string, number[]>();
  for (const g of data.groups) {
    const name = analysis.className(g.representative);
    const curve = byClass.get(name) ?? new Array<number>(g.perSnapshot.length).fill(0);
    g.perSnapshot.forEach((c, k) => (curve[k]! += k === intervals ? g.count : c));
    byClass.set(name, curve);
  }
  return { survivors: { count: data.count, size: data.selfSize, groups }, byClass };
}
