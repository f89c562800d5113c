// One long-lived promise gaining a reaction per turn (docs/evaluation.md, "Shapes";
// fixtures/generator/shapes/race.cjs): a turn races its work against a promise, an event or a signal that
// outlives it, and the reaction it leaves keeps the turn's reply. The healthy twins race against the
// turn's own end or remove what they added.

import { USER_CLASSES, type Draw, type ProgramParams, type Truth } from './draw.js';

/** race: `Promise.race([work, shuttingDown])`; once: `events.once(emitter, 'never-fires')`; abort: a listener on the lifetime signal. */
export type RaceVariant = 'race' | 'once' | 'abort';

export interface RaceFault {
  readonly kind: 'race';
  readonly variant: RaceVariant;
  /** The healthy twin: a per-turn promise that settles at the turn's end, a signal aborted then, a listener removed then. */
  readonly twin: boolean;
  /** Turns that race an interval, as drawn; the rest only await their work. */
  readonly racesPerInterval: number;
  readonly racesPerTurn: number;
  /** The reply's class (a user class or Object) and its bytes, nested objects and strings included. */
  readonly className: string;
  readonly itemBytes: number;
  /** Upstream calls a turn, each about workMs (the per-turn promises that settle). */
  readonly calls: number;
  readonly workMs: number;
}

/** Share of healthy twins among race programs. */
const TWIN_SHARE = 0.4;

export function drawRaceFault(d: Draw, intervalMs: number): { fault: RaceFault; turnMs: number; workMs: number; warmMs: number } {
  const variant = d.pick(['race', 'once', 'abort'] as const);
  const twin = d.chance(TWIN_SHARE);
  const turnMs = d.int(10, 50);
  const turnsPerInterval = Math.max(1, Math.round(intervalMs / turnMs));
  // 1–300 races an interval, log-uniform, at most one a turn: both sides of the 5-an-interval limit.
  const racesPerInterval = Math.max(1, Math.round(d.logUniform(1, Math.min(300, turnsPerInterval))));
  const className = d.chance(0.5) ? d.pick(USER_CLASSES) : 'Object';
  const itemBytes = Math.round(d.logUniform(64, 8192));
  const calls = d.int(1, 4);
  const workMs = Math.round(d.logUniform(20, 500));
  const fault: RaceFault = { kind: 'race', variant, twin, racesPerInterval, racesPerTurn: racesPerInterval / turnsPerInterval, className, itemBytes, calls, workMs };
  return { fault, turnMs, workMs, warmMs: Math.max(1500, 2 * workMs) };
}

export const raceTruth = (f: RaceFault): Truth => (f.twin ? 'none' : 'leak');

const TWINS: Readonly<Record<RaceVariant, string>> = {
  race: 'raced against the turn end',
  once: 'once with a signal aborted at turn end',
  abort: 'once-listener removed at turn end',
};
const LEAKS: Readonly<Record<RaceVariant, string>> = {
  race: 'Promise.race with a never-settling shuttingDown',
  once: "events.once(emitter, 'never-fires') raced",
  abort: 'abort listener on the lifetime signal, never removed',
};

export function describeRace(_p: ProgramParams, f: RaceFault): string {
  const what = f.twin ? `healthy twin: ${TWINS[f.variant]}` : LEAKS[f.variant];
  return `fault race (${f.variant}${f.twin ? ', twin' : ''}) · ${what} · ${f.racesPerInterval}/interval · reply ${f.className} × ${f.itemBytes} B · ${f.calls} calls × ${f.workMs} ms`;
}
