// What the turns in flight hold in one snapshot (suspects.ts): a one-shot timer armed in Node's timer
// lists fires on its own within its duration and lets go of what it holds — the request timeout, the
// retry delay, the model call of a turn still running. A timer that repeats (setInterval), is due far out
// (a client's 30-minute idle timer), or is no longer armed but kept by an object outlives the turn.
// Read from the heap without numeric values (leakhunt's snapshots have none): a timer's duration is the
// key of its list in the timers module's `timerListMap` (`timerListMap[30000] → TimersList`, whose
// `_idleNext` ring holds the armed timers), and a one-shot timer's `_repeat` is null (an Oddball), where
// an interval's is its period (a number, or no edge at all when it is a small integer).

import { DistanceSearch, UNREACHABLE_DISTANCE } from '../analysis/distances.js';
import type { HeapAnalysis } from '../analysis/heap-analysis.js';
import { findHolderTiers } from '../analysis/holder-tiers.js';
import { hopName } from '../analysis/path-signatures.js';
import { DEFAULT_MODEL } from './model-params.js';
import { propertyTarget } from './timer-details.js';

/** The timers module's `timerListMap` object (held by a context variable of that name), or -1. */
function findTimerListMap(analysis: HeapAnalysis): number {
  const graph = analysis.graph;
  const name = graph.strings.indexOf('timerListMap');
  if (name < 0) return -1;
  for (let e = 0; e < graph.edgeCount; e++) {
    if (graph.edgeNameOrIndex[e] === name && graph.edgeType[e] === graph.edgeTypes.context) return graph.edgeTarget[e]!;
  }
  return -1;
}

/** A one-shot timer: `_repeat` is null (an Oddball), not a period. */
function isOneShot(analysis: HeapAnalysis, timer: number): boolean {
  const repeat = propertyTarget(analysis, timer, '_repeat');
  return repeat >= 0 && analysis.graph.nodeType[repeat] === analysis.graph.nodeTypes.hidden;
}

/** Armed timers: those of turns in flight (1 per Timeout ordinal) and the others (ordinals). */
export interface ArmedTimers {
  readonly inFlight: Uint8Array;
  readonly inFlightCount: number;
  readonly lasting: readonly number[];
}

/**
 * The armed timers, by the list they are in: one-shot timers in lists of at most `inFlightMaxMs`
 * (ModelParams: a turn's own timeouts run up to minutes, HTTP clients of model APIs default to 10) are a
 * turn's in flight, the rest outlive it. Undefined when the heap has no timer lists.
 */
export function findArmedTimers(analysis: HeapAnalysis, inFlightMaxMs: number = DEFAULT_MODEL.inFlightMaxMs): ArmedTimers | undefined {
  const graph = analysis.graph;
  const map = findTimerListMap(analysis);
  if (map < 0) return undefined;
  const inFlight = new Uint8Array(graph.nodeCount);
  const lasting: number[] = [];
  let inFlightCount = 0;
  for (let e = graph.firstEdge[map]!, end = graph.firstEdge[map + 1]!; e < end; e++) {
    const durationMs = Number(graph.edgeNameOf(e));
    const list = graph.edgeTarget[e]!;
    if (!Number.isFinite(durationMs) || hopName(analysis, list) !== 'TimersList') continue;
    // The ring: list → _idleNext → … → list; bounded by the node count against a malformed heap.
    for (let t = propertyTarget(analysis, list, '_idleNext'), steps = 0; t >= 0 && t !== list && steps < graph.nodeCount; t = propertyTarget(analysis, t, '_idleNext'), steps++) {
      if (hopName(analysis, t) !== 'Timeout') break;
      if (durationMs <= inFlightMaxMs && isOneShot(analysis, t)) {
        inFlight[t] = 1;
        inFlightCount++;
      } else {
        lasting.push(t);
      }
    }
  }
  return { inFlight, inFlightCount, lasting };
}

/**
 * Nodes held beyond the turns in flight: a BFS over the same edges as the distances (essential-edges.ts)
 * that reaches the timers of turns in flight without expanding them, nor the holders that are not lasting
 * ones (holder-tiers.ts: what the code running at the snapshot's moment holds, Node's cleanup list), from
 * the root and from every lasting armed timer (the list's ring runs through the in-flight ones too).
 * 1 per node held beyond the turns in flight.
 */
export function heldBeyondInFlight(analysis: HeapAnalysis, timers: ArmedTimers): Uint8Array {
  const graph = analysis.graph;
  const distances = new Uint32Array(graph.nodeCount).fill(UNREACHABLE_DISTANCE);
  const queue = new Uint32Array(graph.nodeCount);
  const stop = timers.inFlight.slice();
  for (const holder of findHolderTiers(graph).keys()) stop[holder] = 1;
  const search = new DistanceSearch(graph, analysis.edgeMask, distances, queue, stop, []);
  let tail = 0;
  for (const start of [graph.rootOrdinal, ...timers.lasting]) {
    if (distances[start] !== UNREACHABLE_DISTANCE) continue;
    distances[start] = 0;
    queue[tail++] = start;
  }
  search.run(tail);
  const held = new Uint8Array(graph.nodeCount);
  for (let n = 0; n < graph.nodeCount; n++) held[n] = distances[n] !== UNREACHABLE_DISTANCE && stop[n] === 0 ? 1 : 0;
  return held;
}
