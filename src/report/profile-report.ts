// `leakhunt profile` as a result (what --json prints) and as report blocks (text and Markdown): the
// target and the readings, the verdict (from sampling: allocation sites, no retainer chain, and the
// attach command that would get the chain), each leak site with its rates and fix, the sites that grew
// the most with the rule each passed, and the readings.

import type { InspectorEndpoint } from '../attach/inspector-port.js';
import type { ProfileEnd } from '../attach/profile-run.js';
import type { DetachReport } from '../attach/session.js';
import type { AllocationFrame } from '../analysis/allocation-site.js';
import type { ProfileFinding, ProfileModel, SiteChecks, SiteSeries } from '../diagnose/profile-growth.js';
import { sparkline } from './attach-report.js';
import type { Block, ReportDocument } from './document.js';
import { formatBytes, formatCount, formatPercent } from './format.js';
import { readablePaths } from './paths.js';

export interface ProfileReadingJson {
  readonly index: number;
  readonly takenAt: string;
  readonly elapsedMs: number;
  readonly counter?: number;
  readonly heapUsed?: number;
  /** Live bytes of every sampled object, and how many there are. */
  readonly sampledBytes: number;
  readonly sampledObjects: number;
  readonly readMs: number;
}

/** A site's series as the engine judged it, its folded site spelled out for JSON. */
export type ProfileSiteJson = Omit<SiteSeries, 'site'> & {
  readonly site: string;
  readonly frames: readonly AllocationFrame[];
  readonly inUserCode: boolean;
};

/** What `leakhunt profile --json` prints; `verdict` and `findings` sit at the top level as in attach's. */
export interface ProfileOutput {
  readonly schemaVersion: 1;
  /**
   * `pid` as leakhunt was given it (its own PID namespace); `pidInNamespace` is the target's own
   * `process.pid` when that differs (a container: often 1).
   */
  readonly target: { readonly pid: number; readonly nodeVersion: string; readonly pidInNamespace?: number };
  readonly profile: {
    readonly method: 'sampling-heap-profiler';
    readonly samplingInterval: number;
    readonly intervalMs: number;
    readonly requested: number;
    readonly taken: number;
    readonly startedAt: string;
    readonly endedBy: ProfileEnd;
    readonly counter?: { readonly expression: string; readonly units?: number };
    readonly readings: readonly ProfileReadingJson[];
    readonly inspector: { readonly host: string; readonly port: number; readonly how: InspectorEndpoint['how'] } & DetachReport;
  };
  readonly verdict: 'leak' | 'none';
  readonly evidence: readonly string[];
  readonly findings: readonly ProfileFinding[];
  readonly topSites: readonly ProfileSiteJson[];
  readonly model?: ProfileModel;
  /** The command that would get the retainer chain of what grows. */
  readonly attachCommand: string;
  readonly warnings: readonly string[];
}

export const PROFILE_VERDICT_TEXT: Record<ProfileOutput['verdict'], string> = {
  leak: 'LEAK: live memory made at these allocation sites grows with the work (from sampling: no retainer chain)',
  none: 'NO LEAK FOUND (from sampling: no allocation site grew in every interval)',
};

/** Bytes per unit of work and per minute when known, else per interval. */
export function siteRateText(f: ProfileFinding): string {
  const parts: string[] = [];
  if (f.perUnit !== undefined) parts.push(`+${formatBytes(f.perUnit)} per unit of work`);
  if (f.perMinute !== undefined) parts.push(`+${formatBytes(f.perMinute)} per minute`);
  if (parts.length === 0) parts.push(`+${formatBytes(f.perInterval)} per interval`);
  return parts.join(', ');
}

/** Which rule a site failed, for the table of sites (docs/profile.md). */
export function checksText(c: SiteChecks): string {
  if (c.growsWithWork && c.enoughSamples && c.matters) return 'leak site';
  const failed = [
    ...(c.growsWithWork ? [] : ['not every interval']),
    ...(c.enoughSamples ? [] : ['too few samples']),
    ...(c.matters ? [] : ['below the floor']),
  ];
  return failed.join(', ');
}

function findingBlocks(f: ProfileFinding, rank: number): Block[] {
  return [{
    kind: 'lines',
    lines: [
      `${rank}. [${f.kind}] created at ${f.site}`,
      `   ${siteRateText(f)}; ${formatBytes(f.liveBytes)} live (${formatCount(f.samples[f.samples.length - 1] ?? 0)} sampled objects), ${formatPercent(f.allocation.share, 1)} of the sampled growth`,
      `   live bytes ${sparkline(f.bytes, 24)} ${f.bytes.map((b) => formatBytes(b)).join(' → ')}`,
      `   fix: ${f.fix}`,
    ].map((l) => readablePaths(l)),
  }];
}

/** The site last: it is the long column, and the terminal table gives the last column what is left. */
function siteRows(out: ProfileOutput): string[][] {
  return out.topSites.map((s) => [
    formatBytes(s.bytes[0] ?? 0),
    formatBytes(s.bytes[s.bytes.length - 1] ?? 0),
    `${s.addedBytes >= 0 ? '+' : ''}${formatBytes(s.addedBytes)}`,
    `${s.samples[0] ?? 0} → ${s.samples[s.samples.length - 1] ?? 0}`,
    checksText(s.checks),
    readablePaths(s.site),
  ]);
}

function readingRows(out: ProfileOutput): string[][] {
  return out.profile.readings.map((r) => [
    String(r.index),
    `${(r.elapsedMs / 1000).toFixed(1)} s`,
    r.counter === undefined ? '–' : formatCount(r.counter),
    r.heapUsed === undefined ? '–' : formatBytes(r.heapUsed),
    formatBytes(r.sampledBytes),
    formatCount(r.sampledObjects),
    `${r.readMs} ms`,
  ]);
}

export function buildProfileDocument(out: ProfileOutput): ReportDocument {
  const p = out.profile;
  const tone = out.verdict === 'leak' ? 'bad' : 'good';
  return [
    { kind: 'heading', text: `leakhunt profile: pid ${out.target.pid} (node ${out.target.nodeVersion})` },
    {
      kind: 'fields',
      rows: [
        ['method', `V8's sampling heap profiler, one sample every ~${formatBytes(p.samplingInterval)} allocated (no heap snapshot; each reading: V8's full GC and the profile)`],
        ['readings', `${p.taken} of ${p.requested}, ${(p.intervalMs / 1000).toFixed(p.intervalMs % 1000 ? 1 : 0)} s apart (${p.endedBy})`],
        ...(p.counter ? [['work', `${p.counter.expression}${p.counter.units === undefined ? '' : ` advanced by ${formatCount(p.counter.units)}`}`] as [string, string]] : []),
        ['inspector', p.inspector.note],
      ],
    },
    { kind: 'heading', text: `Verdict: ${PROFILE_VERDICT_TEXT[out.verdict]}` },
    { kind: 'lines', tone, lines: out.evidence.map((e) => readablePaths(`- ${e}`)) },
    ...out.findings.flatMap((f, i) => findingBlocks(f, i + 1)),
    ...(out.topSites.length > 0
      ? [{ kind: 'table', title: 'Allocation sites that added the most live bytes', head: ['first', 'last', 'added', 'sampled objects', 'rules', 'site'], rows: siteRows(out), align: ['right', 'right', 'right', 'right', 'left', 'left'] } as const]
      : []),
    { kind: 'table', title: 'Readings', head: ['#', 'after', 'counter', 'heapUsed', 'sampled live', 'sampled objects', 'read took'], rows: readingRows(out), align: ['right', 'right', 'right', 'right', 'right', 'right', 'right'] },
    ...(out.warnings.length > 0 ? [{ kind: 'lines', tone: 'warn', lines: out.warnings.map((w) => `warning: ${w}`) } as const] : []),
  ];
}
