// Ordered pending chains (docs/evaluation.md, "Shapes"; fixtures/generator/shapes/chain.cjs): a writer of
// `writeMs` a write against a producer, each pending write pinning a copy of the state, drawn on one of
// three sides: the chain empties within each turn, fills during load and drains in the pauses, or grows
// for as long as the load lasts. The truth is read back from the params (chainTruth).

import type { Draw, ProgramParams, Truth } from './draw.js';

export type ChainRegime = 'drains-in-turn' | 'drains-across' | 'never-drains';

export interface ChainFault {
  readonly kind: 'chain';
  readonly regime: ChainRegime;
  /** Bytes of each pending write's copy of the state. */
  readonly itemBytes: number;
  /** One write at a time, each holding the writer this long. */
  readonly writeMs: number;
  /** Writes a turn during load (carried from turn to turn; drains-in-turn: a whole burst). */
  readonly writesPerTurn: number;
  /** Load phases: loadMs with writes, then pauseMs without (0, 0: steady). */
  readonly loadMs: number;
  readonly pauseMs: number;
  /** never-drains: writes piled beyond the writer's capacity an interval, as drawn (0 otherwise). */
  readonly pilePerInterval: number;
}

/** A timer fires a millisecond or so late: the budgets of the draining sides count this much a write. */
const SLOP_MS = 1.5;
const REGIMES: Readonly<Record<ChainRegime, number>> = { 'drains-in-turn': 35, 'drains-across': 30, 'never-drains': 35 };

export function drawChainFault(d: Draw, intervalMs: number): { fault: ChainFault; turnMs: number; warmMs: number } {
  const regime = d.weighted(REGIMES);
  let itemBytes = Math.round(d.logUniform(64, 8192));
  if (regime === 'drains-in-turn') {
    // A burst each turn that the writer empties within half the turn, with the timers' slop.
    const turnMs = d.int(60, 400);
    const burst = Math.min(d.int(2, 30), Math.floor((0.5 * turnMs) / (1 + SLOP_MS)));
    const writeMs = Math.max(1, Math.floor(((0.5 * turnMs) / burst - SLOP_MS) * d.uniform(0.2, 1)));
    return { fault: { kind: 'chain', regime, itemBytes, writeMs, writesPerTurn: burst, loadMs: 0, pauseMs: 0, pilePerInterval: 0 }, turnMs, warmMs: 1500 };
  }
  const turnMs = d.int(10, 50);
  if (regime === 'drains-across') {
    // Over the writer's nominal capacity during load (ρ 1.3–2), across a few turns or for longer than an
    // interval; the pause drains what piled up 1.5 times over, at the slowest the timers' slop allows.
    const writeMs = Math.round(d.logUniform(5, 40));
    const rho = d.uniform(1.3, 2);
    const loadMs = d.chance(0.5) ? Math.round(intervalMs * d.uniform(1.1, 1.3)) : d.int(Math.max(100, 3 * turnMs), Math.round(intervalMs / 3));
    const drainMs = (rho * ((writeMs + SLOP_MS) / writeMs) - 1) * loadMs;
    const pauseMs = Math.round(1.5 * drainMs + 5 * (writeMs + SLOP_MS) + 200);
    const writesPerTurn = (rho * turnMs) / writeMs;
    return { fault: { kind: 'chain', regime, itemBytes, writeMs, writesPerTurn, loadMs, pauseMs, pilePerInterval: 0 }, turnMs, warmMs: Math.max(1500, loadMs + pauseMs) };
  }
  // Steady load over the writer's nominal capacity (ρ 1.2–4; a late timer only lowers the capacity): the
  // pile grows by pilePerInterval, 1–500 log-uniform, the writer's latency set to match.
  const pile = Math.max(1, Math.round(d.logUniform(1, 500)));
  const rhoDrawn = d.uniform(1.2, 4);
  const writeMs = Math.min(1000, Math.max(2, Math.round((1000 * (rhoDrawn - 1) * intervalMs) / 1000 / pile)));
  const rho = 1 + (pile * writeMs) / intervalMs;
  // At most 4 MiB piled an interval: a long capture must not fill the machine.
  itemBytes = Math.min(itemBytes, Math.floor((4 << 20) / pile));
  return { fault: { kind: 'chain', regime, itemBytes, writeMs, writesPerTurn: (rho * turnMs) / writeMs, loadMs: 0, pauseMs: 0, pilePerInterval: pile }, turnMs, warmMs: 1500 };
}

/** Writes a second during load over the writer's nominal capacity. */
export const chainLoad = (p: ProgramParams, f: ChainFault): number => (f.writesPerTurn * f.writeMs) / p.turnMs;

/**
 * The truth, by construction: more writes than the writer completes, averaged over load and pause, is a
 * chain that grows for good (a leak); a steady burst that lands within half a turn is none; the rest
 * fills and drains (a backlog).
 */
export function chainTruth(p: ProgramParams, f: ChainFault): Truth {
  const duty = f.loadMs > 0 ? f.loadMs / (f.loadMs + f.pauseMs) : 1;
  if (chainLoad(p, f) * duty > 1) return 'leak';
  if (f.loadMs === 0 && f.writesPerTurn * (f.writeMs + SLOP_MS) <= 0.5 * p.turnMs) return 'none';
  return 'backlog';
}

export function describeChain(p: ProgramParams, f: ChainFault): string {
  const phases = f.loadMs > 0 ? `, load ${f.loadMs} ms / pause ${f.pauseMs} ms` : '';
  const pile = f.pilePerInterval > 0 ? `, piles ${f.pilePerInterval}/interval` : '';
  return `fault chain (${f.regime}) · write ${f.writeMs} ms, ${f.writesPerTurn.toFixed(2)} writes/turn (ρ ${chainLoad(p, f).toFixed(2)})${phases}${pile} · copy ${f.itemBytes} B`;
}
