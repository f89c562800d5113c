// The sections the HTML reports share: the verdict with its evidence, a finding with its growth chart
// and chain, the class tables (sortable), survivor groups, warnings. Inputs are result objects (what
// --json prints); every text is escaped (html-escape.ts); no heap string is ever added here — the results
// carry redacted names only (src/analysis/redact.ts). Paths in sentences (labels, fixes, evidence, notes)
// are shown as the text report shows them: relative, `node_modules/<package>/…` (paths.ts).

import { allocationText } from './allocation-text.js';
import type { ClassDiffRow, DiffResult, SurvivorGroup } from '../analysis/diff/diff-series.js';
import type { ClassRow, DominatorRow } from '../analysis/summarize-snapshot.js';
import type { Finding, Verdict } from '../diagnose/finding.js';
import { formatBytes, formatBytesDelta, formatCount, formatCountDelta } from './format.js';
import { chainDetails } from './html-chains.js';
import { lineChart, type ChartSeries } from './html-charts.js';
import { element, escapeHtml } from './html-escape.js';
import { htmlTable } from './html-tables.js';
import { readablePaths } from './paths.js';

/** A sentence of the results as the page shows it: paths readable (paths.ts), escaped. */
const prose = (text: string): string => escapeHtml(readablePaths(text));

/** Where each snapshot sits on a growth chart's x axis: work done, minutes, or its position. */
export interface SeriesAxis {
  readonly xs: readonly number[];
  readonly name: string;
  readonly format: (x: number) => string;
}

export function positionAxis(count: number): SeriesAxis {
  return { xs: Array.from({ length: count }, (_, i) => i + 1), name: 'snapshot', format: (x) => `#${Math.round(x)}` };
}

const rate = (n: number): string => (Math.abs(n) >= 10 ? formatCount(n) : n.toFixed(n === Math.round(n) ? 0 : 2));

export function verdictSection(verdict: Verdict, evidence: readonly string[]): string {
  const items = evidence.map((e) => element('li', {}, prose(e))).join('');
  return element('section', { class: `verdict ${verdict}`, id: 'verdict' }, `${element('strong', {}, escapeHtml(verdict.toUpperCase()))}${items ? element('ul', {}, items) : ''}`);
}

/** Members of the finding's survivor group and every live object of its class, per snapshot. */
function growthChart(f: Finding, diff: Pick<DiffResult, 'classes' | 'survivors'> | undefined, axis: SeriesAxis): string {
  if (!diff || axis.xs.length < 2) return '';
  const series: ChartSeries[] = [];
  const group = f.signature === null ? undefined : diff.survivors?.groups.find((g) => g.signature === f.signature);
  if (group) series.push({ name: 'kept objects of this finding', tone: 's1', dots: true, points: group.counts.map((c, i) => [axis.xs[i]!, c] as const) });
  const row = diff.classes.find((c) => c.name === f.className);
  if (row) series.push({ name: `all live ${f.className}`, tone: 's0', dots: true, points: row.counts.map((c, i) => [axis.xs[i]!, c] as const) });
  return lineChart({ title: `${f.className}: count per snapshot`, series, xAxisName: axis.name, formatX: axis.format, formatY: (y) => formatCount(y), height: 180 });
}

export function findingCard(f: Finding, index: number, diff: Pick<DiffResult, 'classes' | 'survivors'> | undefined, axis: SeriesAxis): string {
  const rates = [
    `${formatCount(f.count)} objects`,
    `${formatBytes(f.retainedSize)} retained`,
    ...(f.externalSize ? [`${formatBytes(f.externalSize)} of it outside the JS heap`] : []),
    ...(f.perUnit === undefined ? [] : [`${rate(f.perUnit)} per unit of work`]),
    ...(f.perMinute === undefined ? [] : [`${rate(f.perMinute)} per minute`]),
    `${rate(f.perInterval)} per interval`,
    ...(f.drained === undefined ? [] : [f.drained ? 'drained after its peak' : 'did not drain']),
  ];
  const evidence = f.evidence.length ? element('ul', {}, f.evidence.map((e) => element('li', {}, prose(e))).join('')) : '';
  const also = f.alsoHeld?.length ? element('p', { class: 'dim' }, `also held through these objects: ${escapeHtml(f.alsoHeld.join(', '))}`) : '';
  const body = [
    element('h3', {}, `${element('span', { class: 'kind' }, escapeHtml(f.kind))}${index + 1}. ${escapeHtml(f.className)}`),
    element('p', { class: 'rates' }, rates.map((r) => element('span', {}, escapeHtml(r))).join('')),
    ...(f.allocation ? [element('p', { class: 'allocation' }, `<b>Made:</b> ${prose(allocationText(f.allocation))}`)] : []),
    element('div', { class: 'fix' }, `<b>Fix:</b> ${prose(f.fix)}`),
    evidence,
    also,
    growthChart(f, diff, axis),
    chainDetails(f.chain, 'what holds it'),
  ];
  return element('article', { class: 'card finding', id: `finding-${index + 1}` }, body.join(''));
}

export function findingsSection(findings: readonly Finding[], diff: Pick<DiffResult, 'classes' | 'survivors'> | undefined, axis: SeriesAxis): string {
  const cards = findings.length ? findings.map((f, i) => findingCard(f, i, diff, axis)).join('') : element('p', { class: 'dim' }, 'no findings');
  return element('section', { id: 'findings' }, `${element('h2', {}, `Findings (${findings.length})`)}${cards}`);
}

export function classDiffSection(classes: readonly ClassDiffRow[]): string {
  const last = (a: readonly number[]): number => a[a.length - 1] ?? 0;
  const table = htmlTable<ClassDiffRow>([
    { head: 'class', text: (r) => r.name },
    { head: 'first', text: (r) => formatCount(r.counts[0] ?? 0), value: (r) => r.counts[0] ?? 0 },
    { head: 'last', text: (r) => formatCount(last(r.counts)), value: (r) => last(r.counts) },
    { head: 'Δ count', text: (r) => formatCountDelta(r.countDelta), value: (r) => r.countDelta },
    { head: 'Δ self', text: (r) => formatBytesDelta(r.sizeDelta), value: (r) => r.sizeDelta },
    { head: 'Δ retained', text: (r) => formatBytesDelta(r.retainedDelta), value: (r) => r.retainedDelta },
    { head: 'new', text: (r) => formatCount(r.newCount), value: (r) => r.newCount },
    { head: 'deleted', text: (r) => formatCount(r.deletedCount), value: (r) => r.deletedCount },
    { head: 'grew every interval', text: (r) => (r.grewEveryInterval === null ? '–' : r.grewEveryInterval ? 'yes' : 'no') },
  ], classes, true);
  return element('section', { id: 'classes' }, `${element('h2', {}, `Every class (${classes.length}); click a heading to sort`)}${element('div', { class: 'scroll' }, table)}`);
}

export function classSummarySection(classes: readonly ClassRow[], classCount: number): string {
  const table = htmlTable<ClassRow>([
    { head: 'class', text: (r) => r.name },
    { head: 'count', text: (r) => formatCount(r.count), value: (r) => r.count },
    { head: 'self', text: (r) => formatBytes(r.selfSize), value: (r) => r.selfSize },
    { head: 'retained', text: (r) => formatBytes(r.retainedSize), value: (r) => r.retainedSize },
  ], classes, true);
  const title = classes.length < classCount ? `Classes (top ${classes.length} of ${classCount}); click a heading to sort` : `Every class (${classCount}); click a heading to sort`;
  return element('section', { id: 'classes' }, `${element('h2', {}, escapeHtml(title))}${element('div', { class: 'scroll' }, table)}`);
}

export function dominatorSection(rows: readonly DominatorRow[]): string {
  const table = htmlTable<DominatorRow>([
    { head: 'id', text: (r) => `@${r.id}`, value: (r) => r.id },
    { head: 'class', text: (r) => r.className },
    { head: 'name', text: (r) => r.name },
    { head: 'self', text: (r) => formatBytes(r.selfSize), value: (r) => r.selfSize },
    { head: 'retained', text: (r) => formatBytes(r.retainedSize), value: (r) => r.retainedSize },
  ], rows, true);
  return element('section', { id: 'dominators' }, `${element('h2', {}, `Largest objects (${rows.length})`)}${element('div', { class: 'scroll' }, table)}`);
}

/** The first `shown` survivor groups (the report's --groups), each with its chain; how many more the JSON has. */
export function survivorSection(all: readonly SurvivorGroup[], shown: number): string {
  if (all.length === 0) return '';
  const groups = all.slice(0, shown);
  const more = all.length > groups.length ? element('p', { class: 'dim' }, `${all.length - groups.length} smaller groups are in --json`) : '';
  const cards = groups.map((g, i) => {
    const head = `${i + 1}. ${escapeHtml(g.className)} — ${escapeHtml(formatCount(g.count))} objects, ${escapeHtml(formatBytes(g.retainedSize))} retained, counts ${escapeHtml(g.counts.map((c) => formatCount(c)).join(' → '))}${g.heldBy === 'lasting' ? '' : ` (held by: ${escapeHtml(g.heldBy)})`}`;
    return element('div', { class: 'card group' }, `${element('h3', {}, head)}${chainDetails(g.chain, 'chain of its largest member')}`);
  }).join('');
  return element('section', { id: 'survivors' }, `${element('h2', {}, `Objects born after the first snapshot and still alive, by retainer path (the largest ${groups.length} of ${all.length} groups)`)}${cards}${more}`);
}

export function notesSection(title: string, lines: readonly string[]): string {
  if (lines.length === 0) return '';
  return element('section', {}, `${element('h2', {}, escapeHtml(title))}${element('ul', {}, lines.map((l) => element('li', {}, prose(l))).join(''))}`);
}

export function factsLine(facts: readonly (readonly [string, string])[]): string {
  return element('p', { class: 'facts' }, facts.map(([k, v]) => element('span', {}, `${escapeHtml(k)}: <b>${prose(v)}</b>`)).join(' '));
}
