// `--html FILE` of attach, diff and analyze (and `leakhunt report`): one self-contained page built from
// the same result objects the commands print with --json — verdict and findings with growth charts, the
// memory timeline (attach), every chain as a collapsible tree, the full class table, sortable.

import type { DiffResult } from '../analysis/diff/diff-series.js';
import type { ClassRow, DominatorRow } from '../analysis/summarize-snapshot.js';
import type { MemorySample } from '../attach/memory-sampler.js';
import type { GateResult } from '../diagnose/gates.js';
import type { Finding, Verdict } from '../diagnose/finding.js';
import type { AttachOutput } from './attach-report.js';
import { formatBytes, formatBytesDelta, formatCount } from './format.js';
import { element, escapeHtml } from './html-escape.js';
import { htmlPage } from './html-page.js';
import { readablePath } from './paths.js';
import {
  classDiffSection, classSummarySection, dominatorSection, factsLine, findingsSection, notesSection, positionAxis, survivorSection, verdictSection, type SeriesAxis,
} from './html-sections.js';
import { timelineSection, type SnapshotMoment } from './html-timeline.js';

/** What `diff --json` prints. */
export interface DiffJson extends DiffResult {
  readonly verdict: Verdict;
  readonly evidence: readonly string[];
  readonly findings: readonly Finding[];
  readonly gates: readonly GateResult[];
}

/** What `analyze --json` prints. */
export interface AnalyzeJson {
  readonly snapshot: { readonly nodeCount: number; readonly totalSize: number; readonly nodeVersion?: string };
  readonly classCount: number;
  readonly classes: readonly ClassRow[];
  readonly dominators: readonly DominatorRow[];
  readonly verdict: Verdict;
  readonly evidence: readonly string[];
  readonly findings: readonly Finding[];
}

function header(title: string, facts: readonly (readonly [string, string])[]): string {
  return `${element('h1', {}, escapeHtml(title))}${factsLine(facts)}`;
}

function gateLines(gates: readonly GateResult[]): string[] {
  return gates.map((g) => `${g.passed ? 'pass' : 'FAIL'} ${g.gate}: ${g.reason}`);
}

/** Work done (the counter) when every snapshot has a reading; else minutes when every one has a time; else its position. */
function attachAxis(out: AttachOutput): SeriesAxis {
  const counters = out.snapshots.map((s) => s.counter);
  if (counters.length > 1 && counters.every((c) => c !== undefined)) {
    const first = counters[0]!;
    const what = out.capture.counter?.expression ?? 'the counter';
    return { xs: counters.map((c) => c! - first), name: `units of work since snapshot 1 (${what})`, format: (x) => formatCount(x) };
  }
  const times = out.snapshots.map((s) => (s.takenAt === undefined ? NaN : Date.parse(s.takenAt)));
  if (times.length > 1 && times.every((t) => Number.isFinite(t))) {
    return { xs: times.map((t) => (t - times[0]!) / 60_000), name: 'minutes since snapshot 1', format: (x) => `${x.toFixed(1)} min` };
  }
  return positionAxis(out.snapshots.length);
}

/** The readings taken with each snapshot, when no timeline samples were kept. */
function snapshotReadings(out: AttachOutput): MemorySample[] {
  return out.snapshots.flatMap((s) => (s.takenAt && s.memoryUsage ? [{ t: Date.parse(s.takenAt), ...s.memoryUsage }] : []));
}

/** How much of the result the page shows: survivor groups with a chain each (the command's --groups). */
export interface HtmlOptions {
  readonly groups: number;
  /** False when the capture's own record is gone (`leakhunt report` without result.json): its facts are not shown. */
  readonly captureKnown?: boolean;
}

export function buildAttachHtml(out: AttachOutput, options: HtmlOptions): string {
  const moments: SnapshotMoment[] = out.snapshots.flatMap((s, i) => (s.takenAt ? [{ index: s.index ?? i + 1, t: Date.parse(s.takenAt), durationMs: s.durationMs ?? 0 }] : []));
  const axis = attachAxis(out);
  const body = [
    header(`leakhunt attach: pid ${out.target.pid}`, [
      ['Node', out.target.nodeVersion],
      ['snapshots', options.captureKnown === false ? `${out.snapshots.length} (the capture's record, result.json, is missing)` : `${out.capture.taken} of ${out.capture.requested}`],
      ['first snapshot', (out.snapshots[0]?.takenAt ?? '?').replace('T', ' ').replace(/\.\d+Z$/, ' UTC')],
      ['live heap growth', formatBytesDelta(out.growth)],
      ...(out.capture.unitCount ? [['units of work', formatCount(out.capture.unitCount.count)] as const] : []),
      ...(options.captureKnown === false ? [] : [['ended', out.capture.endedBy] as const]),
    ]),
    verdictSection(out.verdict, out.evidence),
    findingsSection(out.findings, out, axis),
    timelineSection(out.samples.length ? out.samples : snapshotReadings(out), moments),
    survivorSection(out.survivors?.groups ?? [], options.groups),
    classDiffSection(out.classes),
    notesSection('Gates', gateLines(out.gates)),
    notesSection('What this comparison cannot tell', out.limitations.map((l) => l.text)),
    notesSection('Warnings', out.warnings),
  ];
  return htmlPage(`leakhunt: pid ${out.target.pid} — ${out.verdict}`, body.join('\n'));
}

export function buildDiffHtml(d: DiffJson, options: HtmlOptions): string {
  const axis = positionAxis(d.snapshots.length);
  const body = [
    header('leakhunt diff', [
      ['snapshots', String(d.snapshots.length)],
      ['compared by', d.mode],
      ['live heap growth', formatBytesDelta(d.growth)],
      ['last live size', formatBytes(d.snapshots[d.snapshots.length - 1]?.totalSize ?? 0)],
    ]),
    verdictSection(d.verdict, d.evidence),
    findingsSection(d.findings, d, axis),
    survivorSection(d.survivors?.groups ?? [], options.groups),
    classDiffSection(d.classes),
    notesSection('Gates', gateLines(d.gates)),
    notesSection('What this comparison cannot tell', d.limitations.map((l) => l.text)),
    notesSection('Warnings', d.warnings),
  ];
  return htmlPage(`leakhunt diff — ${d.verdict}`, body.join('\n'));
}

export function buildAnalyzeHtml(a: AnalyzeJson, file: string): string {
  const body = [
    header(`leakhunt analyze: ${readablePath(file)}`, [
      ['objects', formatCount(a.snapshot.nodeCount)],
      ['live size', formatBytes(a.snapshot.totalSize)],
      ...(a.snapshot.nodeVersion ? [['Node', a.snapshot.nodeVersion] as const] : []),
    ]),
    verdictSection(a.verdict, a.evidence),
    findingsSection(a.findings, undefined, positionAxis(1)),
    classSummarySection(a.classes, a.classCount),
    dominatorSection(a.dominators),
  ];
  return htmlPage(`leakhunt analyze — ${a.verdict}`, body.join('\n'));
}
