// `leakhunt diff` as a report document: the series and how it was compared, the classes that grew, the
// survivor groups (ids mode) or the growing retainer paths (signatures mode) with one chain each, the
// warnings and the gates.

import type { ClassDiffRow, DiffResult, SignatureGroup, SurvivorGroup } from '../analysis/diff/diff-series.js';
import type { GateResult } from '../diagnose/gates.js';
import type { Diagnosis } from '../diagnose/finding.js';
import { diagnosisBlocks, shownSignatures } from './diagnosis-report.js';
import type { Block, ReportDocument } from './document.js';
import { chainLines, foldedChainText } from './chain-lines.js';
import { readablePaths } from './paths.js';
import { formatBytes, formatBytesDelta, formatCount, formatCountDelta } from './format.js';
import { truncate } from './analyze-report.js';

export interface DiffReportOptions {
  /** Classes to list. */
  readonly top: number;
  /** Survivor groups to show (the result may hold more, for the diagnosis). */
  readonly groups?: number;
  /** Full chains and paths everywhere, and the new/deleted columns (--verbose). */
  readonly verbose?: boolean;
  /** `sizes`: only the live size and object counts (attach says how the series was taken). */
  readonly series?: 'full' | 'sizes';
  /** Findings shown in full; the others one line each (attach --findings; default all). */
  readonly findings?: number;
}

function seriesText(values: readonly number[], format: (n: number) => string): string {
  return values.length <= 4
    ? values.map(format).join(' → ')
    : `${format(values[0]!)} → … → ${format(values[values.length - 1]!)}`;
}

function classTable(rows: readonly ClassDiffRow[], snapshots: number, sameProcess: boolean): Block {
  const everyHeader = snapshots >= 3 ? ['each step'] : [];
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

function groupBlocks(group: SurvivorGroup, rank: number, intervals: number, chainShown: boolean, verbose: boolean, firstMaxId?: number): Block[] {
  const rate = intervals > 0 ? `, +${formatCount(group.growthPerInterval)} per interval` : '';
  const every = group.grewEveryInterval === true ? ', grew in every interval' : '';
  const head = `${rank}. ${group.className} × ${formatCount(group.count)} (retains ${formatBytes(group.retainedSize)}${rate}${every})`;
  if (!verbose) return [{ kind: 'lines', lines: chainShown ? [`${head}: held by a finding above`] : [head, readablePaths(`   chain: ${foldedChainText(group.chain, firstMaxId)}`)] }];
  return [
    { kind: 'lines', lines: [head, `   path: ${group.signature}`] },
    ...(chainShown ? [] : [{ kind: 'code', lines: chainLines(group.chain, '   ') } as const]),
  ];
}

function signatureBlocks(group: SignatureGroup, rank: number, chainShown: boolean, verbose: boolean): Block[] {
  const every = group.grewEveryInterval === true ? ', grew in every interval' : '';
  const head = `${rank}. ${group.className}: ${seriesText(group.counts, formatCount)} alive (${formatCountDelta(group.countDelta)}, ${formatBytesDelta(group.sizeDelta)} self${every}; together they retain ${formatBytes(group.retainedSize)} in the last snapshot)`;
  if (!verbose) return [{ kind: 'lines', lines: chainShown ? [`${head}: held by a finding above`] : [head, readablePaths(`   chain: ${foldedChainText(group.chain)}`)] }];
  return [
    { kind: 'lines', lines: [head, `   path: ${group.signature}`] },
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
  const verbose = options.verbose === true;
  const firstMaxId = result.mode === 'ids' ? Math.min(...snapshots.map((s) => s.maxId)) : undefined;
  // The answer first: the verdict and its findings, then the facts of the series behind it.
  const blocks: Block[] = diagnosis ? diagnosisBlocks(diagnosis, { verbose, findings: options.findings, ...(firstMaxId === undefined ? {} : { firstMaxId }) }) : [];
  blocks.push(
    {
      kind: 'fields',
      rows: [
        ...(options.series === 'sizes' ? [] : [['snapshots', `${snapshots.length}${seriesNote(result)}`] as const]),
        ...(last.nodeVersion && options.series !== 'sizes' ? [['node', last.nodeVersion] as const] : []),
        ['live size', `${formatBytes(first.totalSize)} → ${formatBytes(last.totalSize)} (${formatBytesDelta(result.growth)}${intervals > 1 ? `, ${formatBytesDelta(result.growth / intervals)} per interval` : ''})`],
        ['objects', seriesText(snapshots.map((s) => s.nodeCount), formatCount)],
      ],
    },
  );
  if (result.warnings.length > 0) blocks.push({ kind: 'lines', tone: 'warn', lines: result.warnings.map((w) => `warning: ${w}`) });
  const grown = result.classes.filter((c) => c.sizeDelta > 0 || c.countDelta > 0).slice(0, options.top);
  blocks.push(classTable(grown, snapshots.length, result.sameProcess && verbose));
  // A group a finding shows, or one whose chain runs through a finding's own object or, past its first
  // hop, an object of a finding's class (the rule diagnose folds groups into a finding's `holds` by:
  // src/diagnose/growth-findings.ts), is accounted for.
  const signatures0 = shownSignatures(diagnosis);
  const leading = diagnosis?.findings.flatMap((f) => [f, ...(f.members ?? [])]) ?? [];
  const objects = new Set(leading.flatMap((f) => (f.chain[0] ? [f.chain[0].node.id] : [])));
  const classes = new Set(leading.map((f) => f.className));
  const shown = {
    has: (g: { signature: string | null; chain: readonly { node: { id: number; className: string } }[] }): boolean =>
      signatures0.has(g.signature) || g.chain.some((h) => objects.has(h.node.id)) || g.chain.slice(1).some((h) => classes.has(h.node.className)),
  };
  const survivors = result.survivors;
  if (survivors && !verbose && survivors.groups.slice(0, options.groups ?? survivors.groups.length).every((g) => shown.has(g))) {
    // Every group shown is a finding's or held by one: one line says so.
    const n = Math.min(survivors.groups.length, options.groups ?? survivors.groups.length);
    blocks.push({ kind: 'lines', lines: [`Survivors: ${formatCount(survivors.count)} objects (${formatBytes(survivors.size)}) born after the first snapshot and alive in the last${n > 0 ? `; the ${n === 1 ? 'largest group is' : `${n} largest groups are`} held by the findings above` : ''}`] });
  } else if (survivors) {
    blocks.push({
      kind: 'heading',
      text: `Survivors: ${formatCount(survivors.count)} objects (${formatBytes(survivors.size)}) born after the first snapshot and alive in the last`,
    });
    if (survivors.groups.length === 0) blocks.push({ kind: 'lines', tone: 'good', lines: ['none'] });
    // Groups a finding already showed are listed without their chain; without --verbose, one line each.
    const lines: string[] = [];
    survivors.groups.slice(0, options.groups ?? survivors.groups.length).forEach((g, i) => {
      const group = groupBlocks(g, i + 1, intervals, shown.has(g), verbose, firstMaxId);
      if (verbose) blocks.push(...group);
      else lines.push(...group.flatMap((b) => (b.kind === 'lines' ? b.lines : [])));
    });
    if (lines.length > 0) blocks.push({ kind: 'lines', lines });
  }
  const signatures = result.signatures;
  if (signatures) {
    blocks.push({
      kind: 'heading',
      text: `Retainer paths that grew: ${formatCount(signatures.grownCount)} of ${formatCount(signatures.signatureCount)} (live objects along each path, per snapshot)`,
    });
    if (signatures.groups.length === 0) blocks.push({ kind: 'lines', tone: 'good', lines: ['none'] });
    const lines: string[] = [];
    signatures.groups.slice(0, options.groups ?? signatures.groups.length).forEach((g, i) => {
      const group = signatureBlocks(g, i + 1, shown.has(g), verbose);
      if (verbose) blocks.push(...group);
      else lines.push(...group.flatMap((b) => (b.kind === 'lines' ? b.lines : [])));
    });
    if (lines.length > 0) blocks.push({ kind: 'lines', lines });
  }
  if (gates.length > 0) blocks.push(gateBlock(gates));
  return blocks;
}
