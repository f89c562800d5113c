// `leakhunt diff` as a report document: the series and how it was compared, the classes that grew, the
// survivor groups (ids mode) or the growing retainer paths (signatures mode) with one chain each, the
// warnings and the gates.

import type { ClassDiffRow, DiffResult, SignatureGroup, SurvivorGroup } from '../analysis/diff/diff-series.js';
import type { GateResult } from '../diagnose/gates.js';
import type { Diagnosis } from '../diagnose/diagnose.js';
import { diagnosisBlocks } from './diagnosis-report.js';
import type { Block, ReportDocument } from './document.js';
import { chainLines } from './chain-lines.js';
import { formatBytes, formatBytesDelta, formatCount, formatCountDelta } from './format.js';
import { truncate } from './analyze-report.js';

export interface DiffReportOptions {
  /** Classes to list. */
  readonly top: number;
  /** Survivor groups to show (the result may hold more, for the diagnosis). */
  readonly groups?: number;
}

function seriesText(values: readonly number[], format: (n: number) => string): string {
  return values.length <= 4
    ? values.map(format).join(' → ')
    : `${format(values[0]!)} → … → ${format(values[values.length - 1]!)}`;
}

function classTable(rows: readonly ClassDiffRow[], snapshots: number, sameProcess: boolean): Block {
  const everyHeader = snapshots >= 3 ? ['every interval'] : [];
  return {
    kind: 'table',
    title: `Classes by size growth (${rows.length} shown)`,
    head: ['class', 'count', ...(sameProcess ? ['new', 'deleted'] : []), 'Δ count', 'Δ self size', 'Δ retained', ...everyHeader],
    align: ['left', 'right', ...(sameProcess ? ['right', 'right'] as const : []), 'right', 'right', 'right', ...(snapshots >= 3 ? ['left'] as const : [])],
    rows: rows.map((r) => [
      truncate(r.name, 40),
      seriesText(r.counts, formatCount),
      ...(sameProcess ? [formatCount(r.newCount), formatCount(r.deletedCount)] : []),
      formatCountDelta(r.countDelta),
      formatBytesDelta(r.sizeDelta),
      formatBytesDelta(r.retainedDelta),
      ...(snapshots >= 3 ? [r.grewEveryInterval ? 'grew' : '–'] : []),
    ]),
  };
}

function groupBlocks(group: SurvivorGroup, rank: number, intervals: number, chainShown: boolean): Block[] {
  const rate = intervals > 0 ? `, +${formatCount(group.growthPerInterval)} per interval` : '';
  const every = group.grewEveryInterval === true ? ', grew in every interval' : '';
  return [
    {
      kind: 'lines',
      lines: [
        `${rank}. ${group.className} × ${formatCount(group.count)} (retains ${formatBytes(group.retainedSize)}${rate}${every})`,
        `   path: ${group.signature}`,
      ],
    },
    ...(chainShown ? [] : [{ kind: 'code', lines: chainLines(group.chain, '   ') } as const]),
  ];
}

function signatureBlocks(group: SignatureGroup, rank: number, chainShown: boolean): Block[] {
  const every = group.grewEveryInterval === true ? ', grew in every interval' : '';
  return [
    {
      kind: 'lines',
      lines: [
        `${rank}. ${group.className}: ${seriesText(group.counts, formatCount)} alive (${formatCountDelta(group.countDelta)}, ${formatBytesDelta(group.sizeDelta)} self${every}; together they retain ${formatBytes(group.retainedSize)} in the last snapshot)`,
        `   path: ${group.signature}`,
      ],
    },
    ...(chainShown ? [] : [{ kind: 'code', lines: chainLines(group.chain, '   ') } as const]),
  ];
}

/** What the header says about the series: one process or not, and how it was compared. */
function seriesNote(result: DiffResult): string {
  if (result.mode === 'ids') return ', one process';
  if (result.mode === 'classes') return ', different processes (class comparison only)';
  const how = 'compared by retainer path and class: objects not matched by id';
  if (!result.process.same) return `, different processes, ${how}`;
  if (result.process.by === 'ids') return `, one process, ${how} (as asked)`;
  return `, one process (${result.process.by === 'metadata' ? 'by what was recorded beside each file' : 'by the pid in the file names'}) across inspector sessions, ${how}`;
}

function gateBlock(gates: readonly GateResult[]): Block {
  return {
    kind: 'lines',
    tone: gates.every((g) => g.passed) ? 'good' : 'bad',
    lines: gates.map((g) => `${g.passed ? 'PASS' : 'FAIL'} ${g.gate}: ${g.reason}`),
  };
}

export function buildDiffDocument(
  result: DiffResult,
  gates: readonly GateResult[],
  options: DiffReportOptions,
  diagnosis?: Diagnosis,
): ReportDocument {
  const { snapshots } = result;
  const first = snapshots[0]!, last = snapshots[snapshots.length - 1]!;
  const intervals = snapshots.length - 1;
  const blocks: Block[] = [
    {
      kind: 'fields',
      rows: [
        ['snapshots', `${snapshots.length}${seriesNote(result)}`],
        ...(last.nodeVersion ? [['node', last.nodeVersion] as const] : []),
        ['live size', `${formatBytes(first.totalSize)} → ${formatBytes(last.totalSize)} (${formatBytesDelta(result.growth)}${intervals > 1 ? `, ${formatBytesDelta(result.growth / intervals)} per interval` : ''})`],
        ['objects', seriesText(snapshots.map((s) => s.nodeCount), formatCount)],
      ],
    },
  ];
  if (result.warnings.length > 0) blocks.push({ kind: 'lines', tone: 'warn', lines: result.warnings.map((w) => `warning: ${w}`) });
  if (diagnosis) blocks.push(...diagnosisBlocks(diagnosis));
  const grown = result.classes.filter((c) => c.sizeDelta > 0 || c.countDelta > 0).slice(0, options.top);
  blocks.push(classTable(grown, snapshots.length, result.sameProcess));
  const survivors = result.survivors;
  if (survivors) {
    blocks.push({
      kind: 'heading',
      text: `Survivors: ${formatCount(survivors.count)} objects (${formatBytes(survivors.size)}) born after the first snapshot and alive in the last`,
    });
    if (survivors.groups.length === 0) blocks.push({ kind: 'lines', tone: 'good', lines: ['none'] });
    // Groups a finding already showed with its chain are listed by path only.
    const shown = new Set(diagnosis?.findings.map((f) => f.signature));
    survivors.groups.slice(0, options.groups ?? survivors.groups.length)
      .forEach((g, i) => blocks.push(...groupBlocks(g, i + 1, intervals, shown.has(g.signature))));
  }
  const signatures = result.signatures;
  if (signatures) {
    blocks.push({
      kind: 'heading',
      text: `Retainer paths that grew: ${formatCount(signatures.grownCount)} of ${formatCount(signatures.signatureCount)} (live objects along each path, per snapshot)`,
    });
    if (signatures.groups.length === 0) blocks.push({ kind: 'lines', tone: 'good', lines: ['none'] });
    const shown = new Set(diagnosis?.findings.map((f) => f.signature));
    signatures.groups.slice(0, options.groups ?? signatures.groups.length)
      .forEach((g, i) => blocks.push(...signatureBlocks(g, i + 1, shown.has(g.signature))));
  }
  if (gates.length > 0) blocks.push(gateBlock(gates));
  return blocks;
}
