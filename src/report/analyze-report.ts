// `leakhunt analyze` as a report document: the header, the top classes, the largest objects.

import type { SnapshotSummary, ClassSortKey } from '../analysis/summarize-snapshot.js';
import type { Diagnosis } from '../diagnose/finding.js';
import { diagnosisBlocks } from './diagnosis-report.js';
import type { Block, ReportDocument } from './document.js';
import { formatBytes, formatCount, formatPercent } from './format.js';

const SORT_LABEL: Record<ClassSortKey, string> = {
  retained: 'retained size',
  self: 'self size',
  count: 'count',
};

export function buildAnalyzeDocument(summary: SnapshotSummary, file: string, sort: ClassSortKey, diagnosis?: Diagnosis): ReportDocument {
  const { snapshot } = summary;
  const total = snapshot.totalSize;
  const header: Block = {
    kind: 'fields',
    rows: [
      ['snapshot', file],
      ...(snapshot.nodeVersion ? [['node', snapshot.nodeVersion] as const] : []),
      ['nodes', formatCount(snapshot.nodeCount)],
      ['edges', formatCount(snapshot.edgeCount)],
      ['live size', formatBytes(total)],
    ],
  };
  const classes: Block = {
    kind: 'table',
    title: `Top ${summary.classes.length} of ${formatCount(summary.classCount)} classes by ${SORT_LABEL[sort]}`,
    head: ['class', 'count', 'self size', 'retained size', '% of heap'],
    align: ['left', 'right', 'right', 'right', 'right'],
    rows: summary.classes.map((c) => [
      c.name,
      formatCount(c.count),
      formatBytes(c.selfSize),
      formatBytes(c.retainedSize),
      formatPercent(c.retainedSize, total),
    ]),
  };
  const dominators: Block = {
    kind: 'table',
    title: `Largest ${summary.dominators.length} objects by retained size`,
    head: ['object', 'class', 'self size', 'retained size', '% of heap'],
    align: ['left', 'left', 'right', 'right', 'right'],
    rows: summary.dominators.map((d) => [
      `${truncate(d.name || d.className, 48)} @${d.id}`,
      truncate(d.className, 40),
      formatBytes(d.selfSize),
      formatBytes(d.retainedSize),
      formatPercent(d.retainedSize, total),
    ]),
  };
  const hint: Block = {
    kind: 'lines',
    tone: 'dim',
    lines: ['Ids (@N) and sizes match Chrome DevTools (Memory → load the file → Summary / Containment).'],
  };
  return [header, ...(diagnosis && diagnosis.findings.length > 0 ? diagnosisBlocks(diagnosis) : []), classes, dominators, hint];
}

export function truncate(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ');
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
