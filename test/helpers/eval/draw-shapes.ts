// The shapes of pending work and kept state (docs/evaluation.md, "Shapes"): ordered pending chains
// (draw-chain.ts), a long-lived promise gaining a reaction per turn (draw-race.ts), and kept amounts that
// grow faster than linearly (draw-growing.ts), all run by fixtures/generator/pending-program.cjs. Whether
// program k of a seed is one, and which, comes from a PRNG stream of its own, and each family's params
// from another: every other program of a seed is drawn as before.

import { chainTruth, describeChain, drawChainFault, type ChainFault } from './draw-chain.js';
import { describeGrowing, drawGrowingFault, growingKept, growingTruth, type GrowingFault } from './draw-growing.js';
import { describeRace, drawRaceFault, raceTruth, type RaceFault } from './draw-race.js';
import { Draw, mulberry32, programSeed, type DrawOptions, type ProgramParams, type Truth } from './draw.js';

export type ShapeFault = ChainFault | RaceFault | GrowingFault;
export type ShapeKind = ShapeFault['kind'];
export const SHAPE_KINDS: readonly ShapeKind[] = ['chain', 'race', 'growing'];
export const isShapeKind = (kind: string): kind is ShapeKind => (SHAPE_KINDS as readonly string[]).includes(kind);

/** Share of the indexes the LangGraph draw leaves that are shape programs: about 25% of a seed's programs. */
const SHAPE_SHARE = 0.27;
/** Each family's params stream: program k of a family is the same in a mixed run and under `--fault`. */
const SALTS: Readonly<Record<ShapeKind, number>> = { chain: 0x68e31da4, race: 0xb5297a4d, growing: 0x1b56c4e9 };

/** Program `index` of the seed as a shape program, or undefined when the seed's draw gives it none. */
export function maybeShapeProgram(seed: number, index: number, options: DrawOptions = {}): ProgramParams | undefined {
  const pick = new Draw(mulberry32(programSeed(seed ^ 0x61c88647, index)));
  if (!pick.chance(SHAPE_SHARE)) return undefined;
  return drawShapeProgram(seed, index, pick.pick(SHAPE_KINDS), options);
}

/** Heap, interval and snapshots as LangGraph programs draw them (20–100 MB, skewed small), then the family's own. */
export function drawShapeProgram(seed: number, index: number, kind: ShapeKind, options: DrawOptions = {}): ProgramParams {
  const d = new Draw(mulberry32(programSeed(seed ^ SALTS[kind], index)));
  const maxHeapMB = Math.min(100, Math.max(20, options.maxHeapMB ?? 100));
  const targetMB = Math.round(20 * Math.pow(maxHeapMB / 20, d.next() ** 2));
  const smallShare = d.uniform(0.02, 0.1);
  const intervalMs = d.int(2000, Math.max(2000, Math.min(5000, options.maxIntervalMs ?? 5000)));
  const snapshots = d.int(3, 6);
  const byCounter = d.chance(0.5);
  const drawn = kind === 'chain' ? drawChainFault(d, intervalMs) : kind === 'race' ? drawRaceFault(d, intervalMs) : drawGrowingFault(d, intervalMs);
  const turnsPerInterval = Math.max(1, Math.round(intervalMs / drawn.turnMs));
  return {
    index,
    seed: programSeed(seed ^ 0x5bd1e995, index),
    heap: { targetMB, ballastBytes: Math.max(0, targetMB - 8) * 1024 * 1024, smallShare },
    turnMs: drawn.turnMs,
    workMs: 'workMs' in drawn ? drawn.workMs : drawn.turnMs,
    warmMs: drawn.warmMs,
    pacing: byCounter ? { kind: 'counter', every: turnsPerInterval } : { kind: 'time', intervalMs },
    snapshots,
    turnsPerInterval,
    fault: drawn.fault,
    healthy: { inflight: null, cacheAtCap: null, cacheUnderCap: null, ttlCache: null, pool: null, backlogInTurn: null, buffersInFlight: null, als: false },
  };
}

export function shapeTruth(p: ProgramParams, f: ShapeFault): Truth {
  if (f.kind === 'chain') return chainTruth(p, f);
  return f.kind === 'race' ? raceTruth(f) : growingTruth(f);
}

/** The shapes that write a ledger: a chain that never drains (its pile), races that stay, every copy kept. */
export function shapeWritesLedger(p: ProgramParams, f: ShapeFault): boolean {
  if (f.kind === 'growing') return f.variant === 'history';
  return shapeTruth(p, f) === 'leak';
}

const intervalOf = (p: ProgramParams): number => (p.pacing.kind === 'time' ? p.pacing.intervalMs : p.pacing.every * p.turnMs);

/** Kept an interval: the ledger's count where there is one, else the drawn rate; bytes by construction. */
export function shapeKept(p: ProgramParams, f: ShapeFault, observed?: number): { readonly count: number; readonly bytes: number } {
  if (f.kind === 'growing') return growingKept(p, f, intervalOf(p), observed);
  if (shapeTruth(p, f) !== 'leak') return { count: 0, bytes: 0 };
  const count = observed ?? (f.kind === 'chain' ? f.pilePerInterval : f.racesPerInterval);
  return { count, bytes: count * f.itemBytes };
}

export function describeShape(p: ProgramParams, f: ShapeFault): string {
  if (f.kind === 'chain') return describeChain(p, f);
  return f.kind === 'race' ? describeRace(p, f) : describeGrowing(p, f);
}
