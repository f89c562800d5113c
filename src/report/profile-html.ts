// `leakhunt profile --html FILE`: the profile's result as one self-contained page (html-page.ts): the
// verdict, each leak site with its frames, rates, fix and a chart of its live bytes per reading (per unit
// of work when the counter was read), the sites that grew the most (sortable), and the readings.

import type { ProfileFinding } from '../diagnose/profile-growth.js';
import { formatBytes, formatCount, formatPercent } from './format.js';
import { lineChart } from './html-charts.js';
import { element, escapeHtml } from './html-escape.js';
import { htmlPage } from './html-page.js';
import { factsLine, notesSection, verdictSection } from './html-sections.js';
import { htmlTable } from './html-tables.js';
import { readablePath, readablePaths } from './paths.js';
import { checksText, siteRateText, type ProfileOutput, type ProfileReadingJson, type ProfileSiteJson } from './profile-report.js';

interface Axis {
  readonly xs: readonly number[];
  readonly name: string;
  readonly format: (x: number) => string;
}

function axisOf(out: ProfileOutput): Axis {
  const r = out.profile.readings;
  if (r.length > 1 && r.every((x) => x.counter !== undefined)) {
    return { xs: r.map((x) => x.counter! - r[0]!.counter!), name: `units of work since reading 1 (${out.profile.counter?.expression ?? 'the counter'})`, format: (x) => formatCount(x) };
  }
  return { xs: r.map((x) => x.elapsedMs / 60_000), name: 'minutes since sampling started', format: (x) => `${x.toFixed(1)} min` };
}

function framesList(f: ProfileFinding): string {
  const items = f.allocation.frames.map((fr, i) => element('li', {}, `${i === 0 && f.inUserCode ? '<b>your code</b> ' : ''}${element('code', {}, escapeHtml(fr.url === '' ? '(V8 builtin)' : `${readablePath(fr.url)}:${fr.line}:${fr.column}`))} ${element('span', { class: 'name' }, escapeHtml(fr.function || 'anonymous'))}`)).join('');
  return element('ol', { class: 'hops' }, items);
}

function siteCard(f: ProfileFinding, index: number, axis: Axis): string {
  const chart = axis.xs.length > 1
    ? lineChart({
      title: 'live sampled bytes made at this site, per reading',
      series: [{ name: 'live bytes', tone: 's1', dots: true, points: f.bytes.map((b, i) => [axis.xs[i]!, b] as const) }],
      xAxisName: axis.name, formatX: axis.format, formatY: (y) => formatBytes(y), height: 180,
    })
    : '';
  const rates = [siteRateText(f), `${formatBytes(f.liveBytes)} live`, `${formatCount(f.samples[f.samples.length - 1] ?? 0)} sampled objects`, `${formatPercent(f.allocation.share, 1)} of the sampled growth`];
  const body = [
    element('h3', {}, `${element('span', { class: 'kind' }, escapeHtml(f.kind))}${index + 1}. created at ${escapeHtml(readablePath(f.allocation.frames[0]?.url ?? ''))}:${escapeHtml(f.allocation.frames[0]?.line ?? '?')}`),
    framesList(f),
    element('p', { class: 'rates' }, rates.map((r) => element('span', {}, escapeHtml(r))).join('')),
    element('div', { class: 'fix' }, `<b>Fix:</b> ${escapeHtml(f.fix)}`),
    element('ul', {}, f.evidence.map((e) => element('li', {}, escapeHtml(e))).join('')),
    chart,
  ];
  return element('article', { class: 'card finding', id: `finding-${index + 1}` }, body.join(''));
}

function sitesTable(sites: readonly ProfileSiteJson[]): string {
  if (sites.length === 0) return '';
  const table = htmlTable<ProfileSiteJson>([
    { head: 'site', text: (s) => readablePaths(s.site) },
    { head: 'first', text: (s) => formatBytes(s.bytes[0] ?? 0), value: (s) => s.bytes[0] ?? 0 },
    { head: 'last', text: (s) => formatBytes(s.bytes[s.bytes.length - 1] ?? 0), value: (s) => s.bytes[s.bytes.length - 1] ?? 0 },
    { head: 'added', text: (s) => formatBytes(s.addedBytes), value: (s) => s.addedBytes },
    { head: 'sampled objects (last)', text: (s) => formatCount(s.samples[s.samples.length - 1] ?? 0), value: (s) => s.samples[s.samples.length - 1] ?? 0 },
    { head: 'rules', text: (s) => checksText(s.checks) },
  ], sites, true);
  return element('section', { id: 'sites' }, `${element('h2', {}, 'Allocation sites that added the most live bytes; click a heading to sort')}${element('div', { class: 'scroll' }, table)}`);
}

function readingsTable(readings: readonly ProfileReadingJson[]): string {
  const table = htmlTable<ProfileReadingJson>([
    { head: '#', text: (r) => String(r.index), value: (r) => r.index },
    { head: 'taken at', text: (r) => r.takenAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') },
    { head: 'counter', text: (r) => (r.counter === undefined ? '–' : formatCount(r.counter)), value: (r) => r.counter ?? 0 },
    { head: 'heapUsed', text: (r) => (r.heapUsed === undefined ? '–' : formatBytes(r.heapUsed)), value: (r) => r.heapUsed ?? 0 },
    { head: 'sampled live', text: (r) => formatBytes(r.sampledBytes), value: (r) => r.sampledBytes },
    { head: 'sampled objects', text: (r) => formatCount(r.sampledObjects), value: (r) => r.sampledObjects },
    { head: 'read took', text: (r) => `${r.readMs} ms`, value: (r) => r.readMs },
  ], readings, false);
  return element('section', { id: 'readings' }, `${element('h2', {}, 'Readings')}${table}`);
}

export function buildProfileHtml(out: ProfileOutput): string {
  const p = out.profile;
  const axis = axisOf(out);
  const cards = out.findings.length ? out.findings.map((f, i) => siteCard(f, i, axis)).join('') : element('p', { class: 'dim' }, 'no leak sites');
  const body = [
    element('h1', {}, escapeHtml(`leakhunt profile: pid ${out.target.pid}`)),
    factsLine([
      ['Node', out.target.nodeVersion],
      ['method', `sampling heap profiler, ~${formatBytes(p.samplingInterval)} a sample`],
      ['readings', `${p.taken} of ${p.requested}`],
      ['started', p.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')],
      ['ended', p.endedBy],
    ]),
    verdictSection(out.verdict, out.evidence),
    element('section', { id: 'findings' }, `${element('h2', {}, `Leak sites (${out.findings.length})`)}${cards}`),
    sitesTable(out.topSites),
    readingsTable(p.readings),
    notesSection('Warnings', out.warnings),
  ];
  return htmlPage(`leakhunt profile: pid ${out.target.pid} — ${out.verdict}`, body.join('\n'));
}
