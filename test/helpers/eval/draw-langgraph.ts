// LangGraph programs under load (docs/evaluation.md, "LangGraph under load"): the params of
// fixtures/generator/langgraph-program.cjs, drawn so that its checkpoint writes land on a chosen side of
// the LangGraph parameters' edges (checkpointMinPuts, checkpointPutsPerRun, checkpointMinRuns), and the
// truth read back from those params. Whether program k of a seed is one, and its params, come from PRNG
// streams of their own: every other program of a seed is drawn as before.

import { Draw, mulberry32, programSeed, type DrawOptions, type ProgramParams, type Truth } from './draw.js';

export type Durability = 'sync' | 'async';
/** The side of the edges a program is drawn on; its truth is read from the params (langGraphTruth). */
export type LangGraphRegime = 'sync' | 'async-keeps-up' | 'async-drains' | 'async-piles-up';

export interface LangGraphFault {
  readonly kind: 'langgraph';
  readonly regime: LangGraphRegime;
  readonly durability: Durability;
  /** Requests a second during load (Poisson), each started as a run if one of the clients is free. */
  readonly arrivalsPerSecond: number;
  /** Clients: each waits for its run's reply (under sync, after its checkpoints landed). */
  readonly workers: number;
  readonly steps: number;
  /** A research step's tool call (one superstep each). */
  readonly stepMs: number;
  /** The answer's model call: long turns (0 for none). */
  readonly modelMs: number;
  readonly docBytes: number;
  readonly saverLatencyMs: number;
  readonly connections: number;
  /** Load phases: loadMs of load, then pauseMs of silence (0, 0: steady load). */
  readonly loadMs: number;
  readonly pauseMs: number;
  /** Runs started a second during load, as constructed (for sync: what busy clients and the saver let through). */
  readonly runsPerSecond: number;
  /** LangGraph's MemorySaver behind the pool instead of the SQLite saver (absent: SQLite, where it loads). */
  readonly saver?: 'memory';
}

/** Share of LangGraph programs on the MemorySaver: on a stream of its own, so the others' params stay as drawn. */
const MEMORY_SAVER_SHARE = 0.3;

/** Share of a seed's programs that are LangGraph programs: 8 parts beside FAULTS' 100. */
const LANGGRAPH_SHARE = 8 / 108;
const REGIMES: Readonly<Record<LangGraphRegime, number>> = { sync: 30, 'async-keeps-up': 20, 'async-drains': 25, 'async-piles-up': 25 };

/**
 * Writes a run makes: a checkpoint put per superstep and the input's, a putWrites per task and the
 * input's (docs/evaluation.md has the count measured).
 */
export const writesPerRun = (steps: number): number => 2 * steps + 5;
/** Writes a second the saver completes: each connection holds a write saverLatencyMs. */
export const saverCapacity = (f: Pick<LangGraphFault, 'connections' | 'saverLatencyMs'>): number => (f.connections * 1000) / f.saverLatencyMs;
/** Writes arriving over the saver's capacity during load (ρ). */
export const saverLoad = (f: LangGraphFault): number => (f.runsPerSecond * writesPerRun(f.steps)) / saverCapacity(f);
const duty = (f: LangGraphFault): number => (f.loadMs > 0 ? f.loadMs / (f.loadMs + f.pauseMs) : 1);

/**
 * The truth, by construction. "sync": every superstep waits for its writes, so a run has at most its
 * step's writes pending and the clients pace themselves: nothing queues beyond the runs in flight.
 * "async": the loop never waits; the saver's queue then grows for good when, averaged over load and
 * pause, more writes arrive than it completes (a leak), and stays empty when it takes under half its
 * capacity and each write lands within a quarter of a step (each run has at most one put pending).
 * Between, puts queue behind each other and drain (after a run's last step, or in a pause): a backlog.
 */
export function langGraphTruth(f: LangGraphFault): Truth {
  if (f.durability === 'sync') return 'none';
  const rho = saverLoad(f);
  if (rho * duty(f) >= 1) return 'leak';
  if (rho <= 0.5 && f.saverLatencyMs <= 0.25 * f.stepMs) return 'none';
  return 'backlog';
}

/** Writes piling up an interval for a saver too slow, and the heap each holds (a checkpoint copy or a task's writes). */
export function langGraphKept(p: ProgramParams, f: LangGraphFault): { readonly count: number; readonly bytes: number } {
  if (langGraphTruth(f) !== 'leak') return { count: 0, bytes: 0 };
  const intervalMs = p.pacing.kind === 'time' ? p.pacing.intervalMs : p.pacing.every * p.turnMs;
  const count = Math.round(Math.max(0, f.runsPerSecond * writesPerRun(f.steps) * duty(f) - saverCapacity(f)) * (intervalMs / 1000));
  return { count, bytes: count * (1024 + f.docBytes / 2) };
}

/** Program `index` of the seed as a LangGraph program, or undefined when the seed's draw gives it none. */
export function maybeLangGraphProgram(seed: number, index: number, options: DrawOptions = {}): ProgramParams | undefined {
  const pick = new Draw(mulberry32(programSeed(seed ^ 0x2545f491, index)));
  return pick.chance(LANGGRAPH_SHARE) ? drawLangGraphProgram(seed, index, options) : undefined;
}

export function drawLangGraphProgram(seed: number, index: number, options: DrawOptions = {}): ProgramParams {
  const d = new Draw(mulberry32(programSeed(seed ^ 0x27d4eb2f, index)));
  const regime = d.weighted(REGIMES);
  const maxHeapMB = Math.min(100, Math.max(20, options.maxHeapMB ?? 100));
  const targetMB = Math.round(20 * Math.pow(maxHeapMB / 20, d.next() ** 2));
  const steps = d.int(2, 8);
  const stepMs = Math.round(d.logUniform(5, 100));
  const longTurns = d.chance(0.4);
  const modelMs = longTurns ? Math.round(d.logUniform(300, 2500)) : 0;
  const docBytes = d.chance(0.5) ? Math.round(d.logUniform(256, 8192)) : 0;
  let workers = Math.max(1, Math.round(d.logUniform(1, 50)));
  // At most 20 runs a second: the graph's own CPU per write bounds what a shared machine can run.
  const arrivalsPerSecond = d.logUniform(2, 20);
  const runMs = steps * stepMs + modelMs;
  const w = writesPerRun(steps);
  // Under async a client is busy only until the reply (the graph's own time): enough of them that a
  // request finds one free nearly always (Poisson busy count, mean plus three deviations), so runs start
  // at the arrival rate.
  const busyMean = (arrivalsPerSecond * runMs) / 1000;
  if (regime !== 'sync') workers = Math.max(workers, Math.ceil(busyMean + 3 * Math.sqrt(busyMean) + 2));
  const asyncRate = arrivalsPerSecond;
  // Load phases for a backlog that fills in a burst and drains in the pause; half the time elsewhere.
  const phased = regime === 'async-drains' ? d.chance(0.5) : regime !== 'async-piles-up' && d.chance(0.3);
  let loadMs = phased ? d.int(1000, 4000) : 0;
  let pauseMs = phased ? d.int(1000, 4000) : 0;
  let connections = d.int(1, 4);
  let saverLatencyMs: number;
  let runsPerSecond = asyncRate;
  switch (regime) {
    case 'sync': {
      // Below or above the step time: the clients wait for the saver either way.
      saverLatencyMs = Math.round(d.logUniform(1, 100));
      // Each superstep waits for its put and its task's writes: a run takes that long, and the pool lets
      // through at most its capacity.
      const syncRunMs = steps * (stepMs + 2 * saverLatencyMs) + modelMs;
      runsPerSecond = Math.min(arrivalsPerSecond, (workers * 1000) / syncRunMs, (0.9 * saverCapacity({ connections, saverLatencyMs })) / w);
      break;
    }
    case 'async-keeps-up': {
      // Each write lands within a quarter of a step, and the pool works under 40% of its capacity.
      saverLatencyMs = Math.max(1, Math.floor(0.25 * stepMs * d.uniform(0.3, 1)));
      connections = Math.max(connections, Math.ceil((asyncRate * w * saverLatencyMs) / (0.4 * 1000)));
      break;
    }
    case 'async-drains': {
      if (phased) {
        // Over capacity during load (ρ 1.5–4), with a pause long enough to drain what piled up twice over.
        const rho = d.uniform(1.5, 4);
        saverLatencyMs = Math.max(1, Math.round((rho * connections * 1000) / (asyncRate * w)));
        const rhoNow = (asyncRate * w * saverLatencyMs) / (connections * 1000);
        pauseMs = Math.max(pauseMs, Math.round(2 * (rhoNow - 1) * loadMs + steps * saverLatencyMs + 500));
      } else {
        // A run's puts queue behind each other (each longer than a step) while the pool keeps up (ρ ≤ 0.5):
        // they drain after the run's last step, or during its model call.
        saverLatencyMs = Math.round(stepMs * d.uniform(2, 6));
        connections = Math.max(connections, Math.ceil((asyncRate * w * saverLatencyMs) / (0.5 * 1000)));
      }
      break;
    }
    default: {
      // Steady load over the saver's capacity (ρ 2–5): the queue grows for as long as the load lasts.
      loadMs = 0;
      pauseMs = 0;
      const rho = d.uniform(2, 5);
      saverLatencyMs = Math.max(1, Math.round((rho * connections * 1000) / (asyncRate * w)));
    }
  }
  const memory = new Draw(mulberry32(programSeed(seed ^ 0x4cf5ad43, index))).chance(MEMORY_SAVER_SHARE);
  const fault: LangGraphFault = { kind: 'langgraph', regime, durability: regime === 'sync' ? 'sync' : 'async', arrivalsPerSecond, workers, steps, stepMs, modelMs, docBytes, saverLatencyMs, connections, loadMs, pauseMs, runsPerSecond, ...(memory ? { saver: 'memory' as const } : {}) };
  const meanRate = runsPerSecond * duty(fault);
  const intervalMs = d.int(2000, Math.max(2000, Math.min(5000, options.maxIntervalMs ?? 5000)));
  const turnMs = Math.max(1, Math.round(1000 / meanRate));
  // Counted in runs started; long turns are paced by time (a backlog that fills and drains within a turn).
  const every = Math.max(1, Math.round((0.8 * intervalMs) / turnMs));
  const pacing = !longTurns && d.chance(0.5) ? { kind: 'counter' as const, every } : { kind: 'time' as const, intervalMs };
  return {
    index,
    seed: programSeed(seed ^ 0x5bd1e995, index),
    heap: { targetMB, ballastBytes: Math.max(0, targetMB - 8) * 1024 * 1024, smallShare: d.uniform(0.02, 0.1) },
    turnMs,
    workMs: runMs,
    // Runs in flight at their steady level, and a load phase and a pause behind.
    warmMs: Math.round(Math.max(2000, 2 * runMs, loadMs + pauseMs)),
    pacing,
    snapshots: d.int(3, 6),
    turnsPerInterval: pacing.kind === 'counter' ? every : Math.max(1, Math.round(intervalMs / turnMs)),
    fault,
    healthy: { inflight: null, cacheAtCap: null, cacheUnderCap: null, ttlCache: null, pool: null, backlogInTurn: null, buffersInFlight: null, als: false },
  };
}

export function describeLangGraph(f: LangGraphFault): string {
  const phases = f.loadMs > 0 ? `, load ${f.loadMs} ms / pause ${f.pauseMs} ms` : '';
  const model = f.modelMs > 0 ? ` + model ${f.modelMs} ms` : '';
  const doc = f.docBytes > 0 ? `, doc ${f.docBytes} B` : '';
  return `fault langgraph ${f.durability} (${f.regime}) · ${f.arrivalsPerSecond.toFixed(1)} requests/s, ${f.workers} clients, ${f.runsPerSecond.toFixed(1)} runs/s · ${f.steps} steps × ${f.stepMs} ms${model}${doc} · ${f.saver === 'memory' ? 'MemorySaver' : 'saver'} ${f.saverLatencyMs} ms × ${f.connections} connections, load ρ ${saverLoad(f).toFixed(2)}${phases}`;
}
