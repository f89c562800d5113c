// `leakhunt profile`'s diagnosis: from a series of sampling heap profiles (live sampled bytes per
// allocating stack) to leak *sites* and a verdict. Each stack is folded to the user's own frame and the
// library frame it called (src/analysis/allocation-site.ts) and bytes are summed per folded site. The rules
// are the growth model's (growth-model.ts, docs/diagnosis-model.md), applied to a site's live bytes
// instead of a survivor group. A site is a group for the one judge (find-growth.ts judgeGroups) with
// its sampled objects as counts, judged by the profile's rule (model-params.ts PROFILE_RULE):
//
// 1. It grows with the work: every interval added sampled objects, each at least a quarter of the
//    fastest interval's rate times its work. A profile shows only objects still alive, so what an
//    interval added and kept is the rise of the site's live count: rule 2 of the model (kept) is in it.
// 2. Beyond the sampling noise: V8 samples an allocation every ~I bytes (I = the sampling interval), so
//    a site's count is Poisson; its rate over the series must stand above that noise at the leak level, shared
//    among the sites judged (kept-model.ts keptRateOfCounts, leakZ), so a site holding many objects in
//    steady state does not pass on sampling luck.
// 3. It matters: the bytes its added samples account for clear the significance floor — the larger of
//    16 KiB and 0.2% of the largest heapUsed — and the back-and-forth of every site's bytes between
//    readings (a total, not objects known by identity, so the noise floor applies as to class totals).
//
// A sampling profile knows where an object was made, not what keeps it: the verdict says so and names
// the `leakhunt attach` command that would get the retainer chain.

import { allocationSiteKey, foldAllocationStack, type AllocationFrame, type AllocationSite } from '../analysis/allocation-site.js';
import { judgeGroups } from './find-growth.js';
import type { GrowingGroup } from './growing-group.js';
import { significance, stepsOf, workPerInterval, type Significance, type WorkUnit } from './growth-model.js';
import { keptInProportion } from './judge-group.js';
import { keptRateOfCounts } from './kept-model.js';
import { DEFAULT_MODEL, PROFILE_RULE, type ModelParams } from './model-params.js';

/** One reading of the profile series (src/attach/profile-run.ts gives these). */
export interface ProfilePoint {
  /** Since sampling started. */
  readonly elapsedMs: number;
  readonly counter?: number;
  readonly heapUsed?: number;
  readonly stacks: readonly { readonly frames: readonly AllocationFrame[]; readonly bytes: number; readonly samples: number }[];
}

export interface ProfileInput {
  readonly points: readonly ProfilePoint[];
  readonly samplingInterval: number;
  /** How to reach the target again, for the suggested attach command: `4242`, `--port 9229`. */
  readonly target: string;
  readonly counter?: string;
}

/** The judge's parameters for sites: the profile's rule (model-params.ts PROFILE_RULE). */
const PARAMS: ModelParams = { ...DEFAULT_MODEL, proportional: PROFILE_RULE };

export interface SiteChecks {
  readonly growsWithWork: boolean;
  readonly enoughSamples: boolean;
  readonly matters: boolean;
}

export interface SiteSeries {
  readonly site: AllocationSite;
  /** Live sampled bytes at each reading. */
  readonly bytes: readonly number[];
  /** Live sampled objects at each reading. */
  readonly samples: readonly number[];
  /** Last reading minus first. */
  readonly addedBytes: number;
  readonly checks: SiteChecks;
}

export interface ProfileFinding {
  readonly kind: 'leak';
  /** The folded site as a person reads it: `file:line (function) → library file:line (function)`. */
  readonly site: string;
  /** The allocation site: its frames (innermost first, 1-based) and its share of all sampled growth. */
  readonly allocation: { readonly frames: readonly AllocationFrame[]; readonly share: number };
  readonly inUserCode: boolean;
  /** Live sampled bytes at the last reading, and at each. */
  readonly liveBytes: number;
  readonly bytes: readonly number[];
  readonly samples: readonly number[];
  /** Bytes added and kept per interval, per minute, per unit of work (with --counter). */
  readonly perInterval: number;
  readonly perMinute?: number;
  readonly perUnit?: number;
  readonly fix: string;
  readonly evidence: readonly string[];
}

export interface ProfileModel extends Significance {
  readonly samplingInterval: number;
  /** The z a site's rate over the series must reach above the sampling noise (the leak level shared among the sites judged). */
  readonly zNeeded: number;
  readonly work: readonly number[];
  readonly workUnit: WorkUnit;
  /** Folded sites seen in any reading. */
  readonly sites: number;
}

export interface ProfileDiagnosis {
  readonly verdict: 'leak' | 'none';
  readonly evidence: readonly string[];
  readonly findings: readonly ProfileFinding[];
  /** The sites that added the most live bytes, findings or not, with the rule each passed. */
  readonly topSites: readonly SiteSeries[];
  readonly model?: ProfileModel;
  /** The command that would get the retainer chain. */
  readonly attachCommand: string;
}

const TOP_SITES = 20;

/** `file:line (function)`; a frame without a url is V8's own: `repeat (V8 builtin)`. */
export function frameText(f: AllocationFrame): string {
  return f.url === '' ? `${f.function || 'anonymous'} (V8 builtin)` : `${f.url}:${f.line} (${f.function || 'anonymous'})`;
}

export function siteText(site: AllocationSite): string {
  return site.frames.map(frameText).join(' → ');
}

/** Single-quoted for a POSIX shell. */
function shellQuote(s: string): string {
  return /^[\w.,/:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The attach command that would get what holds the growth: paced by the counter when there is one. */
export function attachCommandFor(input: ProfileInput, unitsPerInterval: number | undefined): string {
  const head = `leakhunt attach ${input.target}`;
  if (input.counter !== undefined && unitsPerInterval !== undefined && unitsPerInterval > 0) {
    return `${head} --counter ${shellQuote(input.counter)} --every ${Math.max(1, Math.round(unitsPerInterval))}`;
  }
  const last = input.points[input.points.length - 1];
  const first = input.points[0];
  const intervalS = last && first && input.points.length > 1 ? Math.max(1, Math.round((last.elapsedMs - first.elapsedMs) / (input.points.length - 1) / 1000)) : 60;
  return `${head} --interval ${intervalS}s`;
}

function foldPoint(point: ProfilePoint): Map<string, { site: AllocationSite; bytes: number; samples: number }> {
  const sites = new Map<string, { site: AllocationSite; bytes: number; samples: number }>();
  for (const stack of point.stacks) {
    const site = foldAllocationStack(stack.frames);
    const key = allocationSiteKey(site);
    const entry = sites.get(key);
    if (entry) {
      entry.bytes += stack.bytes;
      entry.samples += stack.samples;
    } else sites.set(key, { site, bytes: stack.bytes, samples: stack.samples });
  }
  return sites;
}

/** What the work per interval is counted in: the counter's units when workPerInterval could use them. */
function workUnitOf(counters: readonly (number | undefined)[]): ProfileModel['workUnit'] {
  if (!counters.every((c) => c !== undefined)) return 'ms';
  const steps = stepsOf(counters as number[]);
  return steps.every((d) => Number.isFinite(d) && d >= 0) && steps.some((d) => d > 0) ? 'unit' : 'ms';
}

const KIB = 1024;
const fmt = (bytes: number): string => (bytes >= KIB * KIB ? `${(bytes / KIB / KIB).toFixed(1)} MiB` : `${(bytes / KIB).toFixed(1)} KiB`);

export function diagnoseProfile(input: ProfileInput): ProfileDiagnosis {
  const points = input.points;
  const n = points.length;
  const counters = points.map((p) => p.counter);
  const unitsAdvance = n > 1 && counters.every((c) => c !== undefined) ? counters[n - 1]! - counters[0]! : undefined;
  const attachCommand = attachCommandFor(input, unitsAdvance !== undefined && n > 1 ? unitsAdvance / (n - 1) : undefined);
  const chainLine = `a sampling profile records where objects were made, not what keeps them: for the retainer chain run \`${attachCommand}\` (heap snapshots; each pauses the target)`;
  if (n < 3) {
    return {
      verdict: 'none', findings: [], topSites: [], attachCommand,
      evidence: [`only ${n} profile reading(s): growth in every interval needs at least 3`, chainLine],
    };
  }
  const folded = points.map(foldPoint);
  const keys = new Set(folded.flatMap((m) => [...m.keys()]));
  const work = workPerInterval(n - 1, counters, points.map((p) => p.elapsedMs));
  const workUnit = workUnitOf(counters);
  const series = [...keys].map((key) => {
    const site = folded.find((m) => m.has(key))!.get(key)!.site;
    return { key, site, bytes: folded.map((m) => m.get(key)?.bytes ?? 0), samples: folded.map((m) => m.get(key)?.samples ?? 0) };
  });
  const heapUsed = points.flatMap((p) => (p.heapUsed === undefined ? [] : [p.heapUsed]));
  const floor = significance(heapUsed, series.map((s) => ({ sizes: s.bytes })));
  // Each site is a group for the one judge: its sampled objects are the counts, its bytes what it holds.
  const groups = series.map((s): GrowingGroup => ({
    className: s.key, signature: s.key, chain: [], counts: s.samples, born: null,
    retainedSize: s.bytes[n - 1]!, externalSize: 0, movedElsewhere: 0, paths: 1,
  }));
  const verdicts = judgeGroups(groups, { work, significance: floor, params: PARAMS });
  const judgedOf = new Map(verdicts.judged.map((j) => [j.g, j]));
  const steady = { ...PROFILE_RULE, beyondNoise: false };
  const judged = series.map((s, i) => {
    const j = judgedOf.get(groups[i]!);
    const k = j?.k ?? keptRateOfCounts(s.samples, 0, work);
    const checks: SiteChecks = {
      growsWithWork: keptInProportion(k.kept, work, steady),
      enoughSamples: k.zAll >= verdicts.zNeeded,
      matters: j !== undefined,
    };
    return { site: s.site, bytes: s.bytes, samples: s.samples, addedBytes: s.bytes[n - 1]! - s.bytes[0]!, checks, leak: j?.status === 'leak' };
  });
  judged.sort((a, b) => b.addedBytes - a.addedBytes);
  const grownTotal = judged.reduce((sum, s) => sum + Math.max(0, s.addedBytes), 0);
  const elapsedMs = points[n - 1]!.elapsedMs - points[0]!.elapsedMs;
  const findings = judged
    .filter((s) => s.leak)
    .map((s): ProfileFinding => {
      const where = siteText(s.site);
      const user = s.site.inUserCode ? s.site.frames[0]! : undefined;
      return {
        kind: 'leak',
        site: where,
        allocation: { frames: s.site.frames, share: grownTotal > 0 ? s.addedBytes / grownTotal : 0 },
        inUserCode: s.site.inUserCode,
        liveBytes: s.bytes[n - 1]!,
        bytes: s.bytes,
        samples: s.samples,
        perInterval: s.addedBytes / (n - 1),
        ...(elapsedMs > 0 ? { perMinute: (s.addedBytes / elapsedMs) * 60_000 } : {}),
        ...(unitsAdvance !== undefined && unitsAdvance > 0 ? { perUnit: s.addedBytes / unitsAdvance } : {}),
        fix: user
          ? `what ${user.function || 'the function'} at ${user.url}:${user.line} makes per unit of work stays alive: make it once at process scope, or close / release it when the work ends; \`${attachCommand}\` shows what holds it`
          : `no frame of your own code is on this stack (${where}): it is made by a library or Node itself; \`${attachCommand}\` shows what holds it`,
        evidence: [
          `live sampled bytes ${s.bytes.map(fmt).join(' → ')} (${s.samples.join(' → ')} sampled objects) at the ${n} readings`,
          `every interval added at least a quarter of the fastest interval's rate per ${workUnit === 'unit' ? 'unit of work' : 'ms'}, above the sampling noise (z ≥ ${verdicts.zNeeded.toFixed(1)})`,
        ],
      };
    });
  const model: ProfileModel = { ...floor, samplingInterval: input.samplingInterval, zNeeded: verdicts.zNeeded, work, workUnit, sites: series.length };
  const how = `from V8's sampling heap profiler (one sample every ~${fmt(input.samplingInterval)} allocated; ${n} readings, ${series.length} allocation sites)`;
  const evidence = findings.length > 0
    ? [`${findings.length} allocation site(s) whose live bytes grew in every interval with the work, ${how}; top: ${findings[0]!.site}`, chainLine]
    : [`no allocation site's live bytes grew in every interval with the work by more than ${fmt(floor.classFloorBytes)} and above the sampling noise, ${how}`];
  return { verdict: findings.length > 0 ? 'leak' : 'none', evidence, findings, topSites: judged.slice(0, TOP_SITES).map(({ leak: _, ...site }) => site), model, attachCommand };
}
