// The evaluation's program drawer (docs/evaluation.md): a pure function of (seed, index) to the params of
// one program of fixtures/generator/program.cjs, and the program's truth, known by construction. Program k
// of a seed is drawn from its own PRNG stream, so `--only k` replays it without drawing the others.
// The PRNG is mulberry32 (public domain, Tommy Ettinger), the programs' own: small, fast, good enough for drawing parameters.
// LangGraph programs (draw-langgraph.ts, their own template) and the shapes of pending work and kept
// state (draw-shapes.ts, theirs) take shares of the indexes, each decided on a stream of its own, so every
// other program of a seed is what it was before they came.

import { createRequire } from 'node:module';
import { describeLangGraph, drawLangGraphProgram, langGraphKept, langGraphTruth, maybeLangGraphProgram, type LangGraphFault } from './draw-langgraph.js';
import { describeShape, drawShapeProgram, isShapeKind, maybeShapeProgram, shapeKept, shapeTruth, shapeWritesLedger, type ShapeFault, type ShapeKind } from './draw-shapes.js';

export type Truth = 'leak' | 'external' | 'native' | 'backlog' | 'none';

export type LeakClass = string; // a user class name, or 'Object' | 'Array' | 'closure' | 'string'
export type Pattern = 'steady' | 'poisson' | 'bursty';

interface KeptRate {
  /** Kept per snapshot interval, as drawn (the nominal rate: Poisson and bursts vary around it). */
  readonly ratePerInterval: number;
  readonly ratePerTurn: number;
  readonly pattern: Pattern;
  /** Bursty: the chance a turn brings a burst. */
  readonly burstChance: number;
  /** Bytes each kept item holds (for native: the measured native size of one TLS context, ~20 KiB). */
  readonly itemBytes: number;
}

export type Fault =
  | { readonly kind: 'none' }
  | ({ readonly kind: 'leak'; readonly className: LeakClass; readonly holder: 'array' | 'map' | 'set' } & KeptRate)
  | ({ readonly kind: 'backlog-grows'; readonly className: LeakClass; readonly servePerTurn: number } & KeptRate)
  | ({ readonly kind: 'external' } & KeptRate)
  | ({ readonly kind: 'native' } & KeptRate)
  | { readonly kind: 'backlog-drains'; readonly className: LeakClass; readonly itemBytes: number; readonly cycleTurns: number; readonly burst: number }
  /**
   * One snapshot only (drawOneSnapshotProgram): a client made inside a turn's AsyncLocalStorage store starts a
   * repeating timer that is never cleared, so the timer keeps the store: one store a turn over the first
   * `stores` turns, all made before the program says it is serving. The context-capture incident in small.
   */
  | { readonly kind: 'context-capture'; readonly stores: number }
  /** LangGraph under load, its own template (draw-langgraph.ts): checkpoint writes that keep up, drain, or pile up. */
  | LangGraphFault
  /** Ordered pending chains, a long-lived promise gaining reactions, kept amounts growing faster than linearly (draw-shapes.ts). */
  | ShapeFault
  /**
   * One snapshot only (drawOneSnapshotProgram): each of the first `copies` turns makes a client of a
   * framework class (`className`) and keeps it forever in a registry, all before the program serves.
   */
  | { readonly kind: 'client-per-turn'; readonly clientClass: FrameworkClass; readonly copies: number };

/**
 * Framework classes a process needs a few of (recognisers.ts FRAMEWORK_OBJECTS, `few`): `Agent` is Node's
 * own http.Agent, the others are classes of that name declared in program.cjs.
 */
export type FrameworkClass = 'Agent' | 'Client' | 'CompiledStateGraph';
export const FRAMEWORK_CLASSES: readonly FrameworkClass[] = ['Agent', 'Client', 'CompiledStateGraph'];

export interface Healthy {
  readonly inflight: { readonly perTurn: number; readonly className: LeakClass; readonly itemBytes: number } | null;
  readonly cacheAtCap: { readonly cap: number; readonly itemBytes: number } | null;
  readonly cacheUnderCap: { readonly keys: number; readonly cap: number; readonly itemBytes: number } | null;
  readonly ttlCache: { readonly ttlMs: number; readonly perTurn: number } | null;
  readonly pool: { readonly size: number } | null;
  readonly backlogInTurn: { readonly jobs: number } | null;
  readonly buffersInFlight: { readonly perTurn: number; readonly bytes: number } | null;
  /** Each turn runs inside an AsyncLocalStorage store, captured by its timers (one-snapshot suspects). */
  readonly als: boolean;
  /**
   * One snapshot only (drawOneSnapshotProgram): framework clients a healthy program has — one made per
   * turn and closed when the turn's work ends, and/or a fixed set made at start (one per upstream).
   */
  readonly clients?: {
    readonly perTurn: FrameworkClass | null;
    readonly longLived: { readonly className: FrameworkClass; readonly count: number } | null;
  };
  /**
   * A batching client (a tracing or telemetry exporter): each turn queues `perTurn` items, flushed every
   * `flushMs` or once `maxBatch` wait; a flushed batch is held for `sendMs` while it is sent.
   */
  readonly batcher?: Batcher | null;
}

export interface Batcher {
  readonly className: LeakClass;
  readonly perTurn: number;
  readonly itemBytes: number;
  readonly flushMs: number;
  readonly maxBatch: number | null;
  readonly sendMs: number;
}

export interface ProgramParams {
  readonly index: number;
  /** The program's own run-time PRNG seed. */
  readonly seed: number;
  readonly heap: { readonly targetMB: number; readonly ballastBytes: number; readonly smallShare: number };
  readonly turnMs: number;
  /** Mean time a turn's async work holds its in-flight objects. */
  readonly workMs: number;
  /** Time from start to the "serving" line: caches, TTL entries and in-flight work at their steady level. */
  readonly warmMs: number;
  readonly pacing: { readonly kind: 'time'; readonly intervalMs: number } | { readonly kind: 'counter'; readonly every: number };
  readonly snapshots: number;
  readonly turnsPerInterval: number;
  readonly fault: Fault;
  readonly healthy: Healthy;
}

export interface DrawOptions {
  /** Largest heap drawn (the npm-test sample keeps heaps small). */
  readonly maxHeapMB?: number;
  /** Longest snapshot interval drawn, from 2 s (default 5 s; the npm-test sample keeps them short). */
  readonly maxIntervalMs?: number;
  /** Only programs of this fault kind (`npm run eval -- --fault langgraph`, or a shape: chain, race, growing). */
  readonly fault?: 'langgraph' | ShapeKind;
  /**
   * false: no shape programs (`--no-shapes`): every index draws what the generator drew before them. The
   * npm-test sample runs so: it gates the diagnosis on the kinds it was built for, and the shapes are
   * measured by `npm run eval -- --fault <kind>` until the diagnosis answers them.
   */
  readonly shapes?: boolean;
}

/**
 * RSS one kept TLS SecureContext adds outside the heap and `external`: 1,000 kept on Node 20 added 20 MB of
 * RSS and 0.2 MB of heap (docs/evaluation.md).
 */
export const NATIVE_HANDLE_BYTES = 20 * 1024;

/** The class a leak finding names when it finds the kept native handles themselves. */
export const NATIVE_HANDLE_CLASS = 'SecureContext';

export const USER_CLASSES = ['SessionRecord', 'TraceSpan', 'OrderLine', 'PromptCache', 'ToolCall', 'RetryTicket', 'AuditEvent', 'ChunkIndex'];
const COMMON_CLASSES = ['Object', 'Array', 'closure', 'string'];

/** The programs' own PRNG (fixtures/generator/common.cjs), one home for the draws and the programs' run-time draws. */
export const mulberry32 = (createRequire(import.meta.url)('../../../../fixtures/generator/common.cjs') as { seededRandom: (seed: number) => () => number }).seededRandom;

/** One 32-bit seed per (run seed, program index): a fixed mix, so program k is the same whatever else runs. */
export function programSeed(seed: number, index: number): number {
  let h = Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

export class Draw {
  constructor(readonly next: () => number) {}
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }
  int(lo: number, hi: number): number {
    return Math.floor(this.uniform(lo, hi + 1));
  }
  logUniform(lo: number, hi: number): number {
    return Math.exp(this.uniform(Math.log(lo), Math.log(hi)));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  weighted<T extends string>(table: Readonly<Record<T, number>>): T {
    const entries = Object.entries(table) as [T, number][];
    let u = this.next() * entries.reduce((s, [, w]) => s + w, 0);
    for (const [k, w] of entries) if ((u -= w) < 0) return k;
    return entries[entries.length - 1]![0];
  }
}

/** Share of each fault among drawn programs: healthy programs weigh most (false alarms are the rarer event). */
const FAULTS = { none: 40, leak: 30, 'backlog-grows': 5, external: 10, native: 7, 'backlog-drains': 8 } as const;

export function drawProgram(seed: number, index: number, options: DrawOptions = {}): ProgramParams {
  if (options.fault === 'langgraph') return drawLangGraphProgram(seed, index, options);
  if (options.fault !== undefined && isShapeKind(options.fault)) return drawShapeProgram(seed, index, options.fault, options);
  return maybeLangGraphProgram(seed, index, options) ?? (options.shapes === false ? undefined : maybeShapeProgram(seed, index, options)) ?? drawServiceProgram(seed, index, options);
}

/** A program of fixtures/generator/program.cjs: healthy parts and at most one fault of its own. */
export function drawServiceProgram(seed: number, index: number, options: DrawOptions): ProgramParams {
  const d = new Draw(mulberry32(programSeed(seed, index)));
  const maxHeapMB = Math.min(500, Math.max(20, options.maxHeapMB ?? 500));
  // log-uniform from 20 MB, skewed small: exp(log(20) + u² · log(max/20)); median ≈ 44 MB at max 500
  const targetMB = Math.round(20 * Math.pow(maxHeapMB / 20, d.next() ** 2));
  const smallShare = d.uniform(0.02, 0.1);
  const turnMs = d.int(10, 50);
  // Up to 1.5 s of work a turn (a model or tool call): up to ~150 turns in flight, each with its timer and,
  // with `als`, its store (the one-snapshot suspects of issue 21 point 7 were the turns in flight).
  const workMs = Math.round(d.logUniform(20, 1500));
  const intervalMs = d.int(2000, Math.max(2000, Math.min(5000, options.maxIntervalMs ?? 5000)));
  const turnsPerInterval = Math.max(1, Math.round(intervalMs / turnMs));
  const pacing = d.chance(0.5) ? { kind: 'time' as const, intervalMs } : { kind: 'counter' as const, every: turnsPerInterval };
  const snapshots = d.int(3, 6);
  const kind = d.weighted(FAULTS);

  const className = (): LeakClass => (d.chance(0.5) ? d.pick(USER_CLASSES) : d.pick(COMMON_CLASSES));
  const keptRate = (lo: number, hi: number, itemBytes: number): KeptRate => {
    const ratePerInterval = Math.max(1, Math.round(d.logUniform(lo, hi)));
    const pattern = d.weighted({ steady: 40, poisson: 35, bursty: 25 } as Record<Pattern, number>);
    const burstsPerInterval = d.uniform(0.7, 4);
    return {
      ratePerInterval,
      ratePerTurn: ratePerInterval / turnsPerInterval,
      pattern,
      burstChance: Math.min(1, burstsPerInterval / turnsPerInterval),
      itemBytes,
    };
  };
  let fault: Fault;
  let leakedClass: LeakClass | undefined;
  switch (kind) {
    case 'leak':
      leakedClass = className();
      fault = { kind, className: leakedClass, holder: d.pick(['array', 'map', 'set'] as const), ...keptRate(1, 500, Math.round(d.logUniform(32, 8192))) };
      break;
    case 'backlog-grows':
      leakedClass = className();
      fault = { kind, className: leakedClass, servePerTurn: d.int(1, 5), ...keptRate(1, 500, Math.round(d.logUniform(32, 4096))) };
      break;
    case 'external': {
      const rate = keptRate(1, 500, Math.round(d.logUniform(1024, 64 * 1024)));
      // at most 8 MiB of Buffers a interval: a long series must not fill the machine
      fault = { kind, ...rate, itemBytes: Math.min(rate.itemBytes, Math.floor((8 << 20) / rate.ratePerInterval)) };
      break;
    }
    case 'native':
      // ~1 ms of CPU to make each: at most 300 an interval
      fault = { kind, ...keptRate(20, 300, NATIVE_HANDLE_BYTES) };
      break;
    case 'backlog-drains': {
      // a burst every cycleTurns turns, served over the cycle: several fills and drains per interval
      const cycleTurns = d.int(3, Math.max(4, Math.floor(turnsPerInterval / 3)));
      leakedClass = className();
      fault = { kind, className: leakedClass, itemBytes: Math.round(d.logUniform(64, 2048)), cycleTurns, burst: d.int(20, 400) };
      break;
    }
    default:
      fault = { kind: 'none' };
  }

  const inflight = d.chance(0.5)
    ? {
        perTurn: d.int(1, 20),
        // beside a leak, half the time the in-flight work is of the leaked class itself
        className: leakedClass !== undefined && d.chance(0.5) ? leakedClass : className(),
        itemBytes: Math.round(d.logUniform(64, 4096)),
      }
    : null;
  const under = d.chance(0.3) ? d.int(10, 500) : 0;
  const healthy: Healthy = {
    inflight,
    cacheAtCap: d.chance(0.3) ? { cap: d.int(50, 2000), itemBytes: Math.round(d.logUniform(64, 2048)) } : null,
    cacheUnderCap: under ? { keys: under, cap: under * 2, itemBytes: Math.round(d.logUniform(64, 2048)) } : null,
    ttlCache: d.chance(0.3) ? { ttlMs: d.int(200, 1500), perTurn: d.int(1, 5) } : null,
    pool: d.chance(0.3) ? { size: d.int(4, 64) } : null,
    backlogInTurn: d.chance(0.3) ? { jobs: d.int(5, 200) } : null,
    buffersInFlight: d.chance(0.3) ? { perTurn: d.int(1, 4), bytes: Math.round(d.logUniform(1024, 64 * 1024)) } : null,
    als: d.chance(0.4),
    batcher: drawBatcher(seed, index),
  };
  const warmMs = Math.round(Math.max(1500, (healthy.ttlCache?.ttlMs ?? 0) * 1.5, workMs * 2, healthy.batcher ? (healthy.batcher.flushMs + healthy.batcher.sendMs) * 1.5 : 0));
  return {
    index,
    seed: programSeed(seed ^ 0x5bd1e995, index),
    heap: { targetMB, ballastBytes: Math.max(0, targetMB - 8) * 1024 * 1024, smallShare },
    turnMs,
    workMs,
    warmMs,
    pacing,
    snapshots,
    turnsPerInterval,
    fault,
    healthy,
  };
}

/** Share of programs with a batching client: drawn on a PRNG stream of its own, so the other draws of a seed stay as they were. */
const BATCHER_SHARE = 0.35;

/**
 * A batching client for program `index`, or null. Flushes from every 200 ms to every 5 s (an
 * OpenTelemetry batch processor's default delay), a cap of 20–1,000 items half the time, items of
 * 256 B–8 KiB, sends of 10 ms–1 s: batches from a few KiB to several MiB, on both sides of any byte floor.
 */
function drawBatcher(seed: number, index: number): Batcher | null {
  const d = new Draw(mulberry32(programSeed(seed ^ 0x1b873593, index)));
  if (!d.chance(BATCHER_SHARE)) return null;
  return {
    className: d.chance(0.5) ? d.pick(USER_CLASSES) : 'Object',
    perTurn: d.int(1, 4),
    itemBytes: Math.round(d.logUniform(256, 8192)),
    flushMs: Math.round(d.logUniform(200, 5000)),
    maxBatch: d.chance(0.5) ? d.int(20, 1000) : null,
    sendMs: Math.round(d.logUniform(10, 1000)),
  };
}

/** Share of one-snapshot programs that carry the context-capture fault (the rest are healthy or client programs). */
const CAPTURED_SHARE = 0.25;

/**
 * A program for the one-snapshot evaluation (docs/evaluation.md, "One snapshot"). The series draw
 * (drawProgram) is unchanged: the fault is decided on a PRNG stream of its own, and a captured program is
 * drawn program `index` with its turns inside a store and that fault in place of its own. Stores kept:
 * log-uniform from 1 to 200, so the sweep sees both sides of any least count of suspects. Program `index`
 * neither captured nor healthy is a client program (drawClientsProgram).
 */
export function drawOneSnapshotProgram(seed: number, index: number, options: DrawOptions = {}): ProgramParams {
  const p = drawServiceProgram(seed, index, options);
  const d = new Draw(mulberry32(programSeed(seed ^ 0x3c6ef372, index)));
  if (!d.chance(CAPTURED_SHARE)) return truthOf(p) === 'none' ? p : drawClientsProgram(seed, p);
  const stores = Math.round(d.logUniform(1, 200));
  // Serving only once every store is made: a turn makes one, plus a few turns' margin.
  const warmMs = Math.max(p.warmMs, (stores + 5) * p.turnMs);
  return { ...p, warmMs, fault: { kind: 'context-capture', stores }, healthy: { ...p.healthy, als: true } };
}

// ---- framework copies (one snapshot) ----

/** Share of the client programs that keep copies (the fault); the rest are healthy programs with clients. */
const COPIES_SHARE = 0.5;

/**
 * The framework-copies dimension of the one-snapshot draw, for the programs it had no use for (neither
 * healthy nor captured), on a PRNG stream of its own: the healthy and captured programs stay as drawn.
 * Program `p` with its fault replaced: either it keeps `copies` clients of one framework class (log-uniform
 * 1–200, so the sweep sees both sides of any least count), one a turn before it serves, half the time beside
 * a client per turn of that class that it closes; or it is healthy with clients: one per turn closed when
 * the turn's work ends (the turns in flight hold theirs), a fixed set of 1–20 made at start (one per
 * upstream or tenant: what "a process needs only a few" is taken to mean), or both.
 */
function drawClientsProgram(seed: number, p: ProgramParams): ProgramParams {
  const d = new Draw(mulberry32(programSeed(seed ^ 0x1b873593, p.index)));
  if (d.chance(COPIES_SHARE)) {
    const className = d.pick(FRAMEWORK_CLASSES);
    const copies = Math.round(d.logUniform(1, 200));
    const warmMs = Math.max(p.warmMs, (copies + 5) * p.turnMs);
    const clients = { perTurn: d.chance(0.5) ? className : null, longLived: null };
    return { ...p, warmMs, fault: { kind: 'client-per-turn', clientClass: className, copies }, healthy: { ...p.healthy, clients } };
  }
  const shape = d.pick(['perTurn', 'longLived', 'both'] as const);
  const clients = {
    perTurn: shape === 'longLived' ? null : d.pick(FRAMEWORK_CLASSES),
    longLived: shape === 'perTurn' ? null : { className: d.pick(FRAMEWORK_CLASSES), count: d.int(1, 20) },
  };
  return { ...p, fault: { kind: 'none' }, healthy: { ...p.healthy, clients } };
}

/** What a one-snapshot program keeps beyond its turns, by construction: stores or client copies (0 when healthy). */
export function keptInOneSnapshot(p: ProgramParams): { readonly what: 'stores' | 'copies'; readonly count: number } | undefined {
  if (p.fault.kind === 'context-capture') return { what: 'stores', count: p.fault.stores };
  if (p.fault.kind === 'client-per-turn') return { what: 'copies', count: p.fault.copies };
  return undefined;
}

/**
 * A one-snapshot program's fault found: a suspect at all for captured stores (the store's class is the
 * program's own), a suspect naming the kept class for client copies. Healthy programs: never.
 */
export function foundInOneSnapshot(p: ProgramParams, suspects: readonly { readonly className: string }[]): boolean {
  if (p.fault.kind === 'context-capture') return suspects.length > 0;
  if (p.fault.kind === 'client-per-turn') {
    const className = p.fault.clientClass;
    return suspects.some((s) => s.className === className);
  }
  return false;
}

/** The kinds of one-snapshot program (eval --kinds draws only some). */
export const ONE_SNAPSHOT_KINDS = ['healthy', 'healthy-clients', 'context-capture', 'client-per-turn'] as const;
export type OneSnapshotKind = (typeof ONE_SNAPSHOT_KINDS)[number];

export function oneSnapshotKind(p: ProgramParams): OneSnapshotKind {
  if (p.fault.kind === 'context-capture' || p.fault.kind === 'client-per-turn') return p.fault.kind;
  return p.healthy.clients ? 'healthy-clients' : 'healthy';
}

/** Buckets of what one-snapshot programs keep (stores or copies) that detection is reported by. */
export const ONE_SNAPSHOT_BUCKETS: readonly (readonly [number, number])[] = [[1, 9], [10, 24], [25, 49], [50, 200]];

/** Quotas of the npm-test sample: the first programs of the seed, in index order, until each truth has its share. */
export const SAMPLE_QUOTAS: Readonly<Record<Truth, number>> = { leak: 6, none: 6, external: 3, native: 2, backlog: 3 };

export function sampleIndexes(seed: number, options: DrawOptions, quotas: Readonly<Record<Truth, number>> = SAMPLE_QUOTAS): number[] {
  const left = { ...quotas };
  const picked: number[] = [];
  for (let k = 0; Object.values(left).some((n) => n > 0) && k < 10_000; k++) {
    const t = truthOf(drawProgram(seed, k, options));
    if (left[t] > 0) {
      left[t]--;
      picked.push(k);
    }
  }
  return picked;
}

/** The truth of a program, by construction: what it keeps. A queue that never drains keeps jobs: a leak. */
export function truthOf(p: ProgramParams): Truth {
  switch (p.fault.kind) {
    case 'leak':
    case 'backlog-grows':
      return 'leak';
    case 'external':
      return 'external';
    case 'native':
      return 'native';
    case 'backlog-drains':
      return 'backlog';
    case 'context-capture':
    case 'client-per-turn':
      return 'leak';
    case 'langgraph':
      return langGraphTruth(p.fault);
    case 'chain':
    case 'race':
    case 'growing':
      return shapeTruth(p, p.fault);
    default:
      return 'none';
  }
}

/** The faults whose program writes a ledger of what it keeps or queues beyond its consumer (program.cjs, pending-program.cjs). */
export const writesLedger = (p: ProgramParams): boolean =>
  p.fault.kind === 'leak' || p.fault.kind === 'external' || p.fault.kind === 'native' || p.fault.kind === 'backlog-grows' ||
  ((p.fault.kind === 'chain' || p.fault.kind === 'race' || p.fault.kind === 'growing') && shapeWritesLedger(p, p.fault));

/**
 * Kept per interval: what the program really kept while leakhunt looked (`observed`, from its ledger,
 * run-program.ts) for the faults that keep at a drawn rate, else the drawn rate itself.
 */
export function keptPerInterval(p: ProgramParams, observed?: number): { readonly count: number; readonly bytes: number } {
  const f = p.fault;
  if (f.kind === 'langgraph') return langGraphKept(p, f);
  if (f.kind === 'chain' || f.kind === 'race' || f.kind === 'growing') return shapeKept(p, f, observed);
  if (f.kind === 'none' || f.kind === 'backlog-drains' || f.kind === 'context-capture' || f.kind === 'client-per-turn') return { count: 0, bytes: 0 };
  const count = observed ?? f.ratePerInterval;
  return { count, bytes: count * f.itemBytes };
}

/**
 * Far from the detection limit: an `inconclusive` there is a wrong answer. Kept ≥ 20 a interval and ≥ 64 KiB
 * a interval (native: ≥ 1 MiB a interval of RSS, well above the RSS noise of a snapshot's pause).
 */
export function farFromLimit(p: ProgramParams, observed?: number): boolean {
  const { count, bytes } = keptPerInterval(p, observed);
  if (p.fault.kind === 'native') return bytes >= 1 << 20;
  return count >= 20 && bytes >= 64 * 1024;
}

/** One line of a program's params for the failure lists. */
export function describeProgram(p: ProgramParams): string {
  const f = p.fault;
  const parts = [`#${p.index}`, `heap ${p.heap.targetMB} MB`, `${p.snapshots} snapshots`,
    p.pacing.kind === 'time' ? `every ${p.pacing.intervalMs} ms` : `every ${p.pacing.every} turns`, `turn ${p.turnMs} ms`, `work ${p.workMs} ms`];
  if (f.kind === 'backlog-drains') parts.push(`fault backlog-drains ${f.className} burst ${f.burst}/${f.cycleTurns} turns`);
  else if (f.kind === 'context-capture') parts.push(`fault context-capture ${f.stores} stores kept by never-cleared timers`);
  else if (f.kind === 'langgraph') parts.push(describeLangGraph(f));
  else if (f.kind === 'chain' || f.kind === 'race' || f.kind === 'growing') parts.push(describeShape(p, f));
  else if (f.kind === 'client-per-turn') parts.push(`fault client-per-turn ${f.copies} ${f.clientClass} kept`);
  else if (f.kind !== 'none') {
    const what = 'className' in f ? ` ${f.className}` : '';
    const holder = f.kind === 'leak' ? ` in ${f.holder}` : '';
    parts.push(`fault ${f.kind}${what}${holder} ${f.ratePerInterval}/interval ${f.pattern} × ${formatBytes(f.itemBytes)}`);
  } else parts.push('fault none');
  const h = p.healthy;
  const extras = [
    h.inflight && `in-flight ${h.inflight.className} ${h.inflight.perTurn}/turn`,
    h.cacheAtCap && `lru at cap ${h.cacheAtCap.cap}`,
    h.cacheUnderCap && `cache ${h.cacheUnderCap.keys} keys`,
    h.ttlCache && `ttl ${h.ttlCache.ttlMs} ms`,
    h.pool && `pool ${h.pool.size}`,
    h.backlogInTurn && `backlog-in-turn ${h.backlogInTurn.jobs}`,
    h.buffersInFlight && `buffers in flight ${h.buffersInFlight.perTurn}×${formatBytes(h.buffersInFlight.bytes)}`,
    h.als && 'als',
    h.batcher && `batcher ${h.batcher.className} ${h.batcher.perTurn}/turn × ${formatBytes(h.batcher.itemBytes)} every ${h.batcher.flushMs} ms${h.batcher.maxBatch ? ` or ${h.batcher.maxBatch} items` : ''}, send ${h.batcher.sendMs} ms`,
    h.clients?.perTurn && `${h.clients.perTurn} per turn`,
    h.clients?.longLived && `${h.clients.longLived.count} long-lived ${h.clients.longLived.className}`,
  ].filter(Boolean);
  if (extras.length) parts.push(`healthy: ${extras.join(', ')}`);
  return parts.join(' · ');
}

export function formatBytes(n: number): string {
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${Math.round(n)} B`;
}
