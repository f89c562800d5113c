// Kept amounts that grow faster than linearly (docs/evaluation.md, "Shapes";
// fixtures/generator/shapes/growing.cjs): a state that grows a few items a step, a copy of it kept each
// step — every copy (the bytes kept grow quadratically), or only the newest of a state that grows for good
// (the objects flat, the bytes growing) — and their bounded twins: the last N copies of a capped state, or
// the newest copy of a state cleared every few steps.

import type { Draw, ProgramParams, Truth } from './draw.js';

export type GrowingVariant = 'history' | 'newest' | 'last-n' | 'reset';

export interface GrowingFault {
  readonly kind: 'growing';
  readonly variant: GrowingVariant;
  /** history: the copies in an array, or as checkpoints `{step, messages}` in a Map. */
  readonly holder: 'array' | 'map';
  /** Steps an interval (one copy each), as drawn, and a turn. */
  readonly stepsPerInterval: number;
  readonly stepsPerTurn: number;
  /** Messages (history, last-n) or token ids (newest, reset) a step adds to the state. */
  readonly itemsPerStep: number;
  /** Bytes of a message's content (token ids are small integers: 8 B each in the array). */
  readonly itemBytes: number;
  /** Messages in the state at start (last-n: its cap). */
  readonly initialItems: number;
  /** last-n: the state's cap in messages and the copies kept. */
  readonly cap: number;
  readonly keep: number;
  /** reset: steps between clears. */
  readonly resetEvery: number;
}

const VARIANTS: Readonly<Record<GrowingVariant, number>> = { history: 35, newest: 20, 'last-n': 25, reset: 20 };

export function drawGrowingFault(d: Draw, intervalMs: number): { fault: GrowingFault; turnMs: number; warmMs: number } {
  const variant = d.weighted(VARIANTS);
  const turnMs = d.int(10, 50);
  const turnsPerInterval = Math.max(1, Math.round(intervalMs / turnMs));
  const holder = d.pick(['array', 'map'] as const);
  const itemBytes = Math.round(d.logUniform(64, 2048));
  const base = { kind: 'growing' as const, variant, holder, itemBytes, initialItems: 0, cap: 0, keep: 0, resetEvery: 0 };
  const steps = (lo: number, hi: number) => Math.max(1, Math.round(d.logUniform(lo, Math.max(lo, Math.min(hi, turnsPerInterval)))));
  const perTurn = (n: number) => n / turnsPerInterval;
  // A step's period as run: a turn over the steps a turn.
  const stepMs = (n: number) => turnMs / perTurn(n);
  switch (variant) {
    case 'history': {
      // 1–200 copies an interval, 1–5 messages a step (at most 200 an interval), after 1–500 messages.
      const s = steps(1, 200);
      const itemsPerStep = Math.min(d.int(1, 5), Math.max(1, Math.floor(200 / s)));
      const initialItems = Math.round(d.logUniform(1, 500));
      return { fault: { ...base, stepsPerInterval: s, stepsPerTurn: perTurn(s), itemsPerStep, initialItems }, turnMs, warmMs: 1500 };
    }
    case 'newest': {
      // 8–2,000 token ids a step, at most 20,000 an interval (320 KiB of arrays).
      const s = steps(1, 100);
      const itemsPerStep = Math.max(1, Math.min(Math.round(d.logUniform(8, 2000)), Math.floor(20_000 / s)));
      return { fault: { ...base, stepsPerInterval: s, stepsPerTurn: perTurn(s), itemsPerStep }, turnMs, warmMs: 1500 };
    }
    case 'last-n': {
      // A step at least every 250 ms; the state full from the start, the ring full before serving.
      const s = steps(Math.max(20, intervalMs / 250), 400);
      const itemsPerStep = d.int(1, 5);
      const cap = itemsPerStep * d.int(5, 40);
      const keep = d.int(2, 30);
      const warmMs = Math.max(1500, Math.round((keep + 3) * stepMs(s)));
      return { fault: { ...base, stepsPerInterval: s, stepsPerTurn: perTurn(s), itemsPerStep, initialItems: cap, cap, keep }, turnMs, warmMs };
    }
    default: {
      // Cleared at least 5 times an interval: the state's peak is a small fraction of an interval's steps.
      const s = steps(20, 400);
      const resetEvery = d.int(2, Math.max(2, Math.floor(s / 5)));
      const itemsPerStep = Math.round(d.logUniform(8, 2000));
      const warmMs = Math.max(1500, Math.round(2 * resetEvery * stepMs(s)));
      return { fault: { ...base, stepsPerInterval: s, stepsPerTurn: perTurn(s), itemsPerStep, resetEvery }, turnMs, warmMs };
    }
  }
}

export const growingTruth = (f: GrowingFault): Truth => (f.variant === 'history' || f.variant === 'newest' ? 'leak' : 'none');

/** Intervals from start to the middle of a capture of `snapshots` (attach starts about one interval after serving). */
const midCaptureIntervals = (p: ProgramParams, intervalMs: number): number => p.warmMs / intervalMs + 1 + (p.snapshots - 1) / 2;

/**
 * Kept an interval, by construction. history: the copies (the ledger's count), each of the state's length
 * at mid-capture (an array of 8 B a slot, a checkpoint object and Map entry beside it), and the messages
 * they add. newest: no object more, the copy and the state growing by 8 B a token id each.
 */
export function growingKept(p: ProgramParams, f: GrowingFault, intervalMs: number, observed?: number): { readonly count: number; readonly bytes: number } {
  if (f.variant === 'newest') return { count: 0, bytes: 16 * f.itemsPerStep * f.stepsPerInterval };
  if (f.variant !== 'history') return { count: 0, bytes: 0 };
  const count = observed ?? f.stepsPerInterval;
  const length = f.initialItems + f.itemsPerStep * f.stepsPerInterval * midCaptureIntervals(p, intervalMs);
  const copyBytes = 16 + 8 * length + (f.holder === 'map' ? 80 : 0);
  return { count, bytes: Math.round(count * (copyBytes + f.itemsPerStep * (f.itemBytes + 32))) };
}

export function describeGrowing(_p: ProgramParams, f: GrowingFault): string {
  const per = `${f.stepsPerInterval} steps/interval × ${f.itemsPerStep} ${f.variant === 'newest' || f.variant === 'reset' ? 'token ids' : `messages of ${f.itemBytes} B`}`;
  switch (f.variant) {
    case 'history':
      return `fault growing (history in ${f.holder}) · every copy kept · ${per}, from ${f.initialItems} messages`;
    case 'newest':
      return `fault growing (newest) · only the newest copy of a state that grows for good · ${per}`;
    case 'last-n':
      return `fault growing (last-n, twin) · the last ${f.keep} copies of a state capped at ${f.cap} messages · ${per}`;
    default:
      return `fault growing (reset, twin) · the newest copy of a state cleared every ${f.resetEvery} steps · ${per}`;
  }
}
