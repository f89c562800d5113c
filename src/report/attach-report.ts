// `leakhunt attach` / `snapshot` as text: the plan printed on stderr before anything is sent to the
// target (and its second half once the heap size is known), and the attach report: the target and the
// capture, a memory timeline drawn as sparklines, then the diff report of the captured series and the
// verdict with its findings.

import type { DiffResult, SnapshotInfo } from '../analysis/diff/diff-series.js';
import type { CapturedSnapshot, CaptureEnd } from '../attach/capture.js';
import type { CounterOptions } from '../attach/counter.js';
import type { HolderReads } from '../attach/holder-reads.js';
import type { InspectorEndpoint } from '../attach/inspector-port.js';
import type { MemorySample } from '../attach/memory-sampler.js';
import type { Preflight } from '../attach/preflight.js';
import type { HeadroomCheck, SnapshotEstimate } from '../attach/snapshot-cost.js';
import type { DetachReport, TargetInfo } from '../attach/session.js';
import type { CompactionHold } from '../attach/tracking-compaction.js';
import type { GateResult } from '../diagnose/gates.js';
import type { Candidate, Diagnosis, Finding, ModelFigures, Verdict } from '../diagnose/finding.js';
import { buildDiffDocument } from './diff-report.js';
import type { Block, ReportDocument } from './document.js';
import { formatBytes, formatBytesDelta, formatCount, formatCountDelta } from './format.js';
import { diagnosisBlocks } from './diagnosis-report.js';
import { readablePaths } from './paths.js';

export interface AttachOutput extends Omit<DiffResult, 'snapshots'> {
  readonly gates: readonly GateResult[];
  /** diff's per-snapshot facts, plus how each was captured. */
  readonly snapshots: readonly (SnapshotInfo & Partial<Omit<CapturedSnapshot, 'file'>>)[];
  /**
   * `pid` as leakhunt was given it (its own PID namespace); `pidInNamespace` is the target's own
   * `process.pid` when that differs (a container: often 1).
   */
  readonly target: { readonly pid: number; readonly nodeVersion: string; readonly pidInNamespace?: number };
  readonly samples: readonly MemorySample[];
  readonly capture: {
    readonly outDir: string;
    readonly requested: number;
    readonly taken: number;
    /** Running time between snapshots; with `counter.every`, the longest wait (absent: none). */
    readonly intervalMs?: number;
    /** Where the interval is counted from: the end of the previous snapshot (it pauses the target). */
    readonly intervalFrom: 'previous-snapshot-end';
    /** The work counter: its expression, `every` when it paced the snapshots, how far it advanced first → last. */
    readonly counter?: CounterOptions & { readonly units?: number };
    /** What per-unit rates are per: --unit-count, or the counter's advance. */
    readonly unitCount?: { readonly count: number; readonly source: 'unit-count' | 'counter' };
    readonly sampleEveryMs: number;
    readonly endedBy: CaptureEnd;
    /** attach --trace-allocations: how long starting it paused the target, and that it was turned off. */
    /** `compaction`: whether heap compaction was held off while tracking. */
    readonly allocationTracking?: { readonly startPauseMs: number; readonly stopped: boolean; readonly compaction: CompactionHold };
    readonly inspector: { readonly host: string; readonly port: number; readonly how: InspectorEndpoint['how'] } & DetachReport;
    /** The candidates' holders, read after the last snapshot when the budget ran out unsettled (numbers only). */
    readonly holderReads?: readonly HolderReads[];
  };
  readonly verdict: Verdict;
  readonly evidence: readonly string[];
  readonly findings: readonly Finding[];
  /** Groups neither ruled in nor out (verdict `inconclusive`), with what would settle each. */
  readonly candidates?: readonly Candidate[];
  /** The figures the verdict was measured against (docs/diagnosis-model.md). */
  readonly model?: ModelFigures;
  /** leakhunt's own peak RSS while capturing, and while analysing (measured apart). */
  readonly leakhunt: { readonly captureRssPeak: number; readonly analysisRssPeak?: number };
}

const seconds = (ms: number): string => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`);

function listeningText(p: Preflight): string {
  return p.listening.length === 0 ? 'no TCP ports' : p.listening.map((s) => `${s.family === 6 ? `[${s.address}]` : s.address}:${s.port}`).join(', ');
}

function memoryText(p: Preflight): string {
  const m = p.memory;
  const parts = [`RSS ${formatBytes(p.rssBytes)}`];
  if (m.cgroup) parts.push(`cgroup limit ${formatBytes(m.cgroup.limitBytes)} (${formatBytes(m.cgroup.usageBytes)} in use)`);
  else parts.push('no cgroup memory limit');
  if (m.memAvailableBytes !== undefined) parts.push(`MemAvailable ${formatBytes(m.memAvailableBytes)}`);
  return parts.join('; ');
}

/** The plan, before any signal: what the target is and what will be done to it (two lines unless `verbose`). */
export function planLines(p: Preflight, work: string, verbose = true): string[] {
  const f = p.flags;
  const inspector = f.inspectAtStart
    ? `started with --inspect (${f.host}:${f.port}): use that inspector and leave it open`
    : p.signal.refusal
      ? `REFUSED: ${p.signal.refusal}`
      : `SIGUSR1 is caught: send it, find the port pid ${p.pid} itself opens (${f.port === 0 ? 'a random port' : `${f.host}:${f.port} expected`}), check process.pid, close it when done`;
  if (!verbose) {
    // Two lines: what the target is and what is done to it; the memory it has left is judged once the
    // heap is known (connectedLines: "headroom ok", or the whole plan when it is not).
    const what = p.isNode ? `node, uid ${p.uid.target}` : 'NOT node';
    const how = f.inspectAtStart ? `its --inspect inspector (${f.host}:${f.port}), left open` : p.signal.refusal ? `REFUSED: ${p.signal.refusal}` : 'SIGUSR1 opens its inspector, closed when done';
    return [
      `plan for pid ${p.pid} (${what}): ${how}`,
      `  work       ${readablePaths(work)}`,
      ...p.refusals.map((r) => `  REFUSED    ${r}`),
    ];
  }
  return [
    `plan for pid ${p.pid}`,
    `  process    ${p.isNode ? 'node' : 'NOT node'}: ${(p.exe ?? '?')} ${p.argv.slice(1).join(' ')}`.slice(0, 160),
    `  owner      uid ${p.uid.target} (leakhunt runs as uid ${p.uid.ours})`,
    `  inspector  ${inspector}`,
    `  listening  ${listeningText(p)}`,
    `  memory     ${memoryText(p)}`,
    `  work       ${work}`,
    ...p.refusals.map((r) => `  REFUSED    ${r}`),
  ];
}

/** After connecting: the heap, the expected pause and the headroom for the snapshot. */
export function connectionLine(endpoint: InspectorEndpoint, info: TargetInfo): string {
  const where = `${endpoint.host}:${endpoint.port}`;
  const how = endpoint.how === 'sigusr1' ? `opened by SIGUSR1 on ${where}` : endpoint.how === 'explicit' ? `at ${where} (given)` : `already listening on ${where}`;
  return `  connected  ${how}; process.pid ${info.pid}, node ${info.nodeVersion}`;
}

export function connectedLines(endpoint: InspectorEndpoint, info: TargetInfo, estimate: SnapshotEstimate, headroom: HeadroomCheck, verbose = true): string[] {
  if (!verbose) {
    // One line: where, the pause each snapshot costs and whether the memory is there for it.
    const ok = headroom.headroomBytes === undefined ? 'headroom unknown' : headroom.ok ? `headroom ok (${formatBytes(headroom.headroomBytes)} free)` : 'NOT ENOUGH headroom';
    return [`  connected  ${endpoint.host}:${endpoint.port}; heap ${formatBytes(estimate.heapUsedBytes)}: ~${seconds(estimate.pauseMs)} paused per snapshot; ${ok}`];
  }
  const room = headroom.headroomBytes === undefined
    ? `unknown (no cgroup limit or MemAvailable readable) against ~${formatBytes(headroom.neededBytes)} needed`
    : `${formatBytes(headroom.headroomBytes)} free against ~${formatBytes(headroom.neededBytes)} needed: ${headroom.ok ? 'ok' : 'NOT ENOUGH'}`;
  return [
    connectionLine(endpoint, info),
    `  heap       ${formatBytes(estimate.heapUsedBytes)} used → ~${formatCount(estimate.heapNodes)} heap nodes (an estimate: ~${estimate.bytesPerNode} bytes a node)`,
    `  pause      ~${seconds(estimate.pauseMs)} frozen per snapshot (${seconds(estimate.pauseRangeMs[0])}–${seconds(estimate.pauseRangeMs[1])}: ~${estimate.pauseUsPerNode} µs a node, more on a busy machine and for the first snapshot)`,
    `  cost       up to ~${formatBytes(estimate.nativeBytes)} native memory in the target while taking one, ~${formatBytes(estimate.keptBytes)} of it kept resident after the first (not added again by later snapshots); ~${formatBytes(estimate.fileBytes)} on disk a snapshot`,
    `  headroom   ${room}`,
  ];
}

/**
 * After each snapshot, what it cost beside what the plan predicted: the pause (generation, V8's own GC
 * first, and transfer), the target's RSS just before the snapshot and once it was sent, the file's size,
 * and how it was taken (written by the target, or streamed and why).
 */
export function measuredLine(s: CapturedSnapshot, estimate?: SnapshotEstimate): string {
  const parts = [`paused ${seconds(s.durationMs)}${estimate ? ` (predicted ~${seconds(estimate.pauseMs)})` : ''}`];
  const before = s.rssBeforeBytes;
  if (before !== undefined && s.rssAfterBytes !== undefined) {
    const predicted = estimate ? `; predicted up to +${formatBytes(estimate.nativeBytes)}` : '';
    parts.push(`target RSS ${formatBytes(before)} → ${formatBytes(s.rssAfterBytes)} (${formatBytesDelta(s.rssAfterBytes - before)}${predicted})`);
  }
  parts.push(`file ${formatBytes(s.bytes)}${estimate ? ` (predicted ~${formatBytes(estimate.fileBytes)})` : ''}`);
  parts.push(methodText(s));
  return `  measured   ${parts.join('; ')}`;
}

/** How a snapshot was taken, for the plan and the measured line. */
export function methodText(s: Pick<CapturedSnapshot, 'method' | 'streamedBecause'>): string {
  return s.method === 'target-wrote'
    ? 'written by the target itself (v8.writeHeapSnapshot)'
    : `streamed over the inspector${s.streamedBecause ? ` (${s.streamedBecause})` : ''}`;
}

const BARS = '▁▂▃▄▅▆▇█';

/** A text sparkline of `values`, averaged into at most `width` buckets, scaled min..max. */
export function sparkline(values: readonly number[], width = 48): string {
  if (values.length === 0) return '';
  const n = Math.min(width, values.length);
  const buckets: number[] = [];
  for (let i = 0; i < n; i++) {
    const from = Math.floor((i * values.length) / n), to = Math.max(from + 1, Math.floor(((i + 1) * values.length) / n));
    let sum = 0;
    for (let k = from; k < to; k++) sum += values[k]!;
    buckets.push(sum / (to - from));
  }
  const min = Math.min(...buckets), max = Math.max(...buckets);
  if (max === min) return BARS[0]!.repeat(n);
  return buckets.map((v) => BARS[Math.min(BARS.length - 1, Math.floor(((v - min) / (max - min)) * BARS.length))]).join('');
}

type SampleField = 'rss' | 'heapUsed' | 'external' | 'arrayBuffers';

/** Columns of a timeline row's sparkline: every row spans the same time, so the rows line up. */
const TIMELINE_WIDTH = 40;

/**
 * `values` at times `ts` in `width` buckets of equal time over [from, to]: each bucket the mean of its
 * readings, a bucket without one the reading before it (a measure read less often than RSS).
 */
function onTimeAxis(ts: readonly number[], values: readonly number[], from: number, to: number, width: number): number[] {
  const sums = new Array<number>(width).fill(0), counts = new Array<number>(width).fill(0);
  const span = Math.max(1, to - from);
  ts.forEach((t, i) => {
    const k = Math.min(width - 1, Math.max(0, Math.floor(((t - from) / span) * width)));
    sums[k]! += values[i]!;
    counts[k]!++;
  });
  const out: number[] = [];
  let previous = values[0]!;
  for (let k = 0; k < width; k++) {
    if (counts[k]! > 0) previous = sums[k]! / counts[k]!;
    out.push(previous);
  }
  return out;
}

/** One sparkline row a measure, all on one time axis: `rss          ▁▂▃▅▇█  45.1 MiB → 52.0 MiB (+6.9 MiB)`. */
export function timelineLines(samples: readonly MemorySample[], fields: readonly SampleField[] = ['rss', 'heapUsed', 'external', 'arrayBuffers']): string[] {
  const lines: string[] = [];
  if (samples.length < 2) return lines;
  const from = samples[0]!.t, to = samples[samples.length - 1]!.t;
  const width = Math.min(TIMELINE_WIDTH, samples.length);
  for (const field of fields) {
    const read = samples.filter((s) => s[field] !== undefined);
    if (read.length < 2) continue;
    const values = read.map((s) => s[field]!);
    const first = values[0]!, last = values[values.length - 1]!;
    const line = sparkline(onTimeAxis(read.map((s) => s.t), values, from, to, width), width);
    lines.push(`${field.padEnd(12)} ${line}  ${formatBytes(first)} → ${formatBytes(last)} (${formatBytesDelta(last - first)})`);
  }
  return lines;
}

function paceText(c: AttachOutput['capture']): string {
  const every = c.counter?.every;
  if (every !== undefined) {
    return `${formatCount(every)} counter units apart${c.intervalMs === undefined ? '' : ` (at most ${seconds(c.intervalMs)})`}`;
  }
  return `${seconds(c.intervalMs ?? 0)} of running time between them`;
}

/** `globalThis.turns: 12 → 62 → 113 (+50, +51; 101 units for the per-unit rates)`. */
function counterText(out: AttachOutput): string | undefined {
  const counter = out.capture.counter;
  if (!counter) return undefined;
  const values = out.snapshots.map((s) => s.counter);
  const steps = values.slice(1).map((v, i) => {
    const before = values[i];
    return v === undefined || before === undefined ? '?' : formatCountDelta(v - before);
  });
  const unit = out.capture.unitCount;
  const rates = !unit ? 'no per-unit rates' : unit.source === 'counter' ? `${formatCount(unit.count)} units for the per-unit rates` : `per-unit rates over --unit-count ${formatCount(unit.count)}`;
  return `${counter.expression}: ${values.map((v) => (v === undefined ? '?' : formatCount(v))).join(' → ')} (${steps.join(', ')}; ${rates})`;
}

export function buildAttachDocument(out: AttachOutput, options: { top: number; groups?: number; verbose?: boolean; findings?: number }, diagnosis?: Diagnosis): ReportDocument {
  const c = out.capture;
  const pauses = out.snapshots.map((s) => (s.durationMs === undefined ? '?' : seconds(s.durationMs))).join(', ');
  const counter = counterText(out);
  const span = out.samples.length > 1 ? out.samples[out.samples.length - 1]!.t - out.samples[0]!.t : 0;
  const rss = `leakhunt's peak RSS ${formatBytes(out.leakhunt.captureRssPeak)} capturing${out.leakhunt.analysisRssPeak === undefined ? '' : `, ${formatBytes(out.leakhunt.analysisRssPeak)} analysing`}`;
  const how = c.inspector.how === 'sigusr1' ? 'opened by SIGUSR1' : c.inspector.how === 'explicit' ? 'given' : 'already listening';
  const left = c.inspector.inspectorClosed ? 'closed again' : c.inspector.note;
  const rows: (readonly [string, string])[] = [
    ['target', `pid ${out.target.pid}, node ${out.target.nodeVersion}; inspector ${c.inspector.host}:${c.inspector.port} ${how}, ${left}`],
    ['capture', readablePaths(`${c.taken} of ${c.requested} snapshots, ${paceText(c)}, in ${c.outDir}${c.endedBy === 'complete' ? '' : c.endedBy === 'settled' ? ' (the verdict was settled)' : c.endedBy === 'budget' ? ' (the budget ran out with the verdict unsettled)' : ` (ended: ${c.endedBy})`}`)],
    ...(counter === undefined ? [] : [['counter', counter] as const]),
    // Each pause is the snapshot alone (V8 collects garbage first; leakhunt forces no GC: docs/attach-pause.md).
    ['paused', `${pauses}; ${rss}`],
  ];
  const timeline: Block = { kind: 'code', lines: [`Memory timeline (${out.samples.length} samples over ${seconds(span)})`, ...timelineLines(out.samples)] };
  // The answer first (the verdict and findings that open the diff document), then how it was captured:
  // the capture's facts joined with the series' sizes in one field list, then the timeline.
  const diff = { ...out, snapshots: out.snapshots } as DiffResult;
  const rest = buildDiffDocument(diff, out.gates, { ...options, series: 'sizes' }, diagnosis);
  const answer = diagnosis ? diagnosisBlocks(diagnosis, { verbose: options.verbose === true, findings: options.findings }).length : 0;
  const sizes = rest[answer];
  const facts: Block[] = sizes?.kind === 'fields'
    ? [{ kind: 'fields', rows: [...rows, ...sizes.rows] }, timeline]
    : [{ kind: 'fields', rows }, timeline, ...(sizes ? [sizes] : [])];
  return [...rest.slice(0, answer), ...facts, ...rest.slice(answer + 1)];
}
