// Charts for the HTML report as plain SVG strings: line series with a dot per point (or a bare path for
// long series), vertical marks (snapshot moments) and shaded bands (the pauses). Written here rather than
// inlining a chart library: the report needs two chart shapes, and ~100 lines keep the page small and
// free of any script at load time (docs/html-report.md).

import { element, escapeHtml } from './html-escape.js';

export interface ChartSeries {
  readonly name: string;
  readonly points: readonly (readonly [x: number, y: number])[];
  /** A CSS colour class: s0…s3 (html-page.ts). */
  readonly tone: string;
  /** A dot per point with its value as a tooltip (short series); a bare line otherwise. */
  readonly dots?: boolean;
}

export interface ChartOptions {
  readonly title: string;
  readonly series: readonly ChartSeries[];
  readonly formatX: (x: number) => string;
  readonly formatY: (y: number) => string;
  readonly xAxisName: string;
  readonly marks?: readonly { readonly x: number; readonly label: string }[];
  readonly bands?: readonly { readonly from: number; readonly to: number; readonly label: string }[];
  readonly width?: number;
  readonly height?: number;
}

const PAD = { left: 72, right: 16, top: 12, bottom: 36 };

function extent(values: readonly number[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!Number.isFinite(lo)) return [0, 1];
  return lo === hi ? [lo - 1, hi + 1] : [lo, hi];
}

const fixed = (n: number): string => (Math.round(n * 10) / 10).toString();

/** One SVG chart; an empty string when no series has a point. */
export function lineChart(o: ChartOptions): string {
  const points = o.series.flatMap((s) => s.points);
  if (points.length === 0) return '';
  const width = o.width ?? 720;
  const height = o.height ?? 220;
  const xs = [...points.map((p) => p[0]), ...(o.marks ?? []).map((m) => m.x), ...(o.bands ?? []).flatMap((b) => [b.from, b.to])];
  const [x0, x1] = extent(xs);
  const [yLo, y1] = extent(points.map((p) => p[1]));
  const y0 = Math.min(0, yLo);
  const sx = (x: number): number => PAD.left + ((x - x0) / (x1 - x0)) * (width - PAD.left - PAD.right);
  const sy = (y: number): number => height - PAD.bottom - ((y - y0) / (y1 - y0)) * (height - PAD.top - PAD.bottom);
  const parts: string[] = [];
  for (const b of o.bands ?? []) {
    parts.push(element('rect', { class: 'band', x: fixed(sx(b.from)), y: PAD.top, width: fixed(Math.max(1.5, sx(b.to) - sx(b.from))), height: height - PAD.top - PAD.bottom }, element('title', {}, escapeHtml(b.label))));
  }
  for (let i = 0; i <= 4; i++) {
    const y = y0 + ((y1 - y0) * i) / 4;
    parts.push(`<line class="grid" x1="${PAD.left}" x2="${width - PAD.right}" y1="${fixed(sy(y))}" y2="${fixed(sy(y))}"/>`);
    parts.push(element('text', { class: 'tick', x: PAD.left - 6, y: fixed(sy(y) + 4), 'text-anchor': 'end' }, escapeHtml(o.formatY(y))));
  }
  for (const x of [x0, x1]) {
    parts.push(element('text', { class: 'tick', x: fixed(sx(x)), y: height - PAD.bottom + 16, 'text-anchor': x === x0 ? 'start' : 'end' }, escapeHtml(o.formatX(x))));
  }
  parts.push(element('text', { class: 'axis', x: (PAD.left + width - PAD.right) / 2, y: height - 4, 'text-anchor': 'middle' }, escapeHtml(o.xAxisName)));
  for (const m of o.marks ?? []) {
    parts.push(element('line', { class: 'mark', x1: fixed(sx(m.x)), x2: fixed(sx(m.x)), y1: PAD.top, y2: height - PAD.bottom }, element('title', {}, escapeHtml(m.label))));
    parts.push(element('text', { class: 'mark-label', x: fixed(sx(m.x) + 3), y: PAD.top + 10 }, escapeHtml(m.label)));
  }
  for (const s of o.series) {
    if (s.points.length === 0) continue;
    const d = s.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${fixed(sx(p[0]))} ${fixed(sy(p[1]))}`).join('');
    parts.push(element('path', { class: `line ${s.tone}`, d, 'data-points': s.points.length }, element('title', {}, escapeHtml(s.name))));
    if (s.dots) {
      for (const [x, y] of s.points) {
        parts.push(element('circle', { class: `dot ${s.tone}`, cx: fixed(sx(x)), cy: fixed(sy(y)), r: 3.5 }, element('title', {}, escapeHtml(`${s.name}: ${o.formatY(y)} at ${o.formatX(x)}`))));
      }
    }
  }
  const legend = o.series.map((s) => element('span', { class: `key ${s.tone}` }, escapeHtml(s.name))).join(' ');
  const svg = element('svg', { class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': o.title }, parts.join(''));
  return element('figure', { class: 'chart-box' }, `${svg}${element('figcaption', {}, `${escapeHtml(o.title)} ${legend}`)}`);
}
