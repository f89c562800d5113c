// The leak zoo's case runner, shared by test/e2e/zoo.test.ts and scripts/zoo.js (which imports the compiled
// copy under dist/test/helpers): the cases are fixtures/zoo/<name>.cjs (or .mjs, an ES module) with their expected answer beside them
// in <name>.expect.json; a case runs the way a user meets a process — the program free-running on a given
// Node, `leakhunt attach <pid> --json` from outside — and its answer is judged against the expectation.
// The target's state after the attach (alive, inspector closed) is read from /proc by live-target.ts.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { runCli } from './cli.js';
import { sleep, startTarget } from './live-target.js';
import { nodeBinaryInfo, type NodeMajor } from './node-binaries.js';
import { resolveFixture } from './take-snapshot.js';

/** One hop a chain must contain: every regex given must match the same hop. */
export interface HopExpectation {
  /** Name of the edge that holds this hop's node (`responseCache`, `_events`, `pending`). */
  readonly edge?: string;
  readonly className?: string;
  /** Kind of the hop's label (`async-context`, `pending-work`, …). */
  readonly label?: string;
}

export interface FindingExpectation {
  readonly className: string;
  /** One hop, or several that must all be on the chain. */
  readonly hop: HopExpectation | readonly HopExpectation[];
}

export interface ZooExpectation {
  readonly verdict: 'leak' | 'backlog' | 'external' | 'native' | 'warm-up' | 'none';
  readonly kind: 'leak' | 'lookalike';
  /**
   * Other verdicts that are right too: a look-alike whose JIT and caches level off in the first interval
   * is `warm-up` as truly as `none` (neither is an alarm; the eval judges healthy programs the same way).
   */
  readonly alsoRight?: readonly ZooExpectation['verdict'][];
  /** The first finding (leaks). */
  readonly top?: FindingExpectation;
  /** More findings that must be there, at any rank, each matched by a different finding. */
  readonly findings?: readonly FindingExpectation[];
  /** For a backlog: whether the answer must say it drained. Checked on the finding's `drained` field. */
  readonly drained?: boolean;
  readonly attach: {
    readonly rate: number;
    /** `--every N` (paced by the request counter), or null for time pacing with `interval`. */
    readonly every: number | null;
    readonly interval?: string;
    readonly env?: Readonly<Record<string, string>>;
    /** Wall time the target serves before the attach starts. */
    readonly warmupMs?: number;
    /**
     * SIGUSR2 to the target once snapshot k of the series is on disk, for each k listed: the load changes
     * at known points of the series (a burst that starts after the first snapshot and stops after the
     * second), whatever the machine's speed.
     */
    readonly signalAfterSnapshots?: readonly number[];
    /**
     * Without `--snapshots 3`: 3, then more while the verdict is inconclusive, up to this many
     * (`--max-snapshots`), as a user runs attach. For a case whose three snapshots may honestly not
     * settle it (a batch caught at a new high cannot be told from a backlog that grows).
     */
    readonly maxSnapshots?: number;
  };
}

export interface ZooCase {
  readonly name: string;
  readonly fixture: string;
  readonly expect: ZooExpectation;
}

export interface Hop {
  readonly node: { readonly id: number; readonly name?: string; readonly type?: string; readonly className: string };
  readonly edge: { readonly type: string; readonly name: string } | null;
  readonly label?: { readonly kind: string; readonly text: string };
}

export interface Finding {
  readonly kind: string;
  readonly className: string;
  readonly count: number;
  readonly perUnit?: number;
  readonly fix: string;
  readonly evidence?: readonly string[];
  readonly drained?: boolean;
  readonly chain: readonly Hop[];
}

export interface AttachJson {
  readonly verdict: string;
  readonly evidence: readonly string[];
  readonly findings: readonly Finding[];
  readonly snapshots: readonly { readonly counter?: number; readonly durationMs: number }[];
  readonly capture: {
    readonly taken: number;
    readonly inspector: { readonly port: number; readonly inspectorClosed: boolean };
  };
}

export interface ZooRun {
  readonly case: string;
  readonly node: NodeMajor;
  readonly nodeVersion: string;
  readonly exitCode: number | null;
  /** The attach's answer, when it printed one. */
  readonly out?: AttachJson;
  /** What went wrong around the answer: the attach failed, the target was not left as found, pacing. */
  readonly problems: readonly string[];
  readonly durationMs: number;
}

export interface Judgement {
  readonly right: boolean;
  /** Why the answer is wrong, one line each. */
  readonly wrong: readonly string[];
  /** Expectations that today's output has no data for (e.g. no `drained` field): not checked. */
  readonly unchecked: readonly string[];
}

const COUNTER = 'globalThis.__leakhuntRequests';
const CLI_TIMEOUT_MS = 120_000;

export function zooDir(): string {
  return dirname(resolveFixture('zoo/map-cache'));
}

/** Every case of fixtures/zoo, by name: `<name>.cjs`, or `<name>.mjs` for a case that is an ES module. */
export function loadZooCases(): ZooCase[] {
  const dir = zooDir();
  return readdirSync(dir)
    .filter((f) => f.endsWith('.expect.json'))
    .sort()
    .map((f) => {
      const name = basename(f, '.expect.json');
      const fixture = existsSync(join(dir, `${name}.mjs`)) ? `zoo/${name}.mjs` : `zoo/${name}`;
      return { name, fixture, expect: JSON.parse(readFileSync(join(dir, f), 'utf8')) as ZooExpectation };
    });
}

/**
 * Runs one case on one Node: the target free-running with `--inspect-port=0` (a random port if the
 * attach opens the inspector), `leakhunt attach --json` paced by its request counter (or by time), and
 * the checks that the target was left as found. A missing Node binary throws.
 */
export async function runZooCase(c: ZooCase, major: NodeMajor): Promise<ZooRun> {
  const info = nodeBinaryInfo(major);
  if (info.path === undefined) throw new Error(`no Node ${major} binary: ${info.reason}`);
  const { attach } = c.expect;
  const started = Date.now();
  const problems: string[] = [];
  const target = await startTarget({
    fixture: c.fixture,
    node: info.path,
    nodeArgs: ['--inspect-port=0'],
    rate: attach.rate,
    serving: true,
    env: attach.env,
  });
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-zoo-'));
  try {
    if (!target.alive()) throw new Error(`${c.name} exited at start on Node ${major}: ${target.stderr()}`);
    if (attach.warmupMs) await sleep(attach.warmupMs);
    const pacing = attach.every !== null ? ['--every', String(attach.every)] : ['--interval', attach.interval ?? '1s'];
    const signals = signalAfterSnapshots(target.pid, join(dir, 'capture'), attach.signalAfterSnapshots ?? []);
    const r = await runCli([
      'attach', String(target.pid), '--counter', COUNTER, ...pacing, ...(attach.maxSnapshots ? ['--max-snapshots', String(attach.maxSnapshots)] : ['--snapshots', '3']),
      '--sample-every', '250ms', '--json', '--no-progress', '--out', join(dir, 'capture'),
    ], { timeoutMs: CLI_TIMEOUT_MS }).finally(() => signals.stop());
    if (signals.sent() < (attach.signalAfterSnapshots?.length ?? 0)) problems.push(`only ${signals.sent()} of the SIGUSR2 signals were sent`);
    let out: AttachJson | undefined;
    if (r.code !== 0 && r.code !== 1) problems.push(`attach exit ${r.code}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    else {
      try {
        out = JSON.parse(r.stdout) as AttachJson;
      } catch {
        problems.push(`attach printed no JSON: ${r.stdout.slice(0, 200)}`);
      }
    }
    if (out) {
      const most = attach.maxSnapshots ?? 3;
      if (out.capture.taken < 3 || out.capture.taken > most) problems.push(`${out.capture.taken} snapshots taken, not ${most === 3 ? 3 : `3 to ${most}`}`);
      const readings = out.snapshots.map((s) => s.counter ?? NaN);
      if (attach.every !== null && !readings.every((v, k) => k === 0 || v - readings[k - 1]! >= attach.every!)) {
        problems.push(`snapshots not ≥ ${attach.every} requests apart: ${readings.join(' → ')}`);
      }
      if (!out.capture.inspector.inspectorClosed) problems.push('the inspector was not closed');
      if (target.listeningPorts().includes(out.capture.inspector.port)) problems.push(`the inspector port ${out.capture.inspector.port} still listens`);
    }
    await sleep(300); // a target that crashed while its inspector closed would be gone by now
    if (!target.alive()) problems.push(`the target died: ${target.stderr().slice(-500)}`);
    return { case: c.name, node: major, nodeVersion: info.version!, exitCode: r.code, ...(out ? { out } : {}), problems, durationMs: Date.now() - started };
  } finally {
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What a diff of two instances of a case (`leakhunt diff --across-processes`, docs/diff-modes.md) can
 * answer: the case's own answer, except what needs one process's intervals. A warm-up is growth that
 * stops after the first interval (across processes: `none`); a backlog is told from a leak by the same
 * objects leaving (undefined: not judged, the mode's stated limit); a case whose load changes at a
 * given snapshot of a series (signalAfterSnapshots) has no such series here (undefined).
 */
export function acrossProcessesExpectation(e: ZooExpectation): ZooExpectation | undefined {
  if (e.verdict === 'backlog' || e.attach.signalAfterSnapshots !== undefined) return undefined;
  return e.verdict === 'warm-up' ? { ...e, verdict: 'none' } : e;
}

export interface AcrossRun {
  readonly case: string;
  readonly nodeVersion: string;
  readonly out?: Pick<AttachJson, 'verdict' | 'evidence' | 'findings'> & { readonly mode: string };
  readonly problems: readonly string[];
  readonly durationMs: number;
}

/**
 * Two instances of one case free-running side by side (as two replicas of a service), `leakhunt
 * snapshot` of the first `ageMs` after the case's warm-up and of the second `olderByMs` later, then
 * `leakhunt diff --across-processes --json` of the two files. A missing Node binary throws.
 */
export async function runZooCaseAcross(c: ZooCase, major: NodeMajor, ageMs = 2000, olderByMs = 8000): Promise<AcrossRun> {
  const info = nodeBinaryInfo(major);
  if (info.path === undefined) throw new Error(`no Node ${major} binary: ${info.reason}`);
  const { attach } = c.expect;
  // Both past the case's warm-up (a pool that fills, a cache at its bound), as a replica that has served a while.
  // Three instances at three ages: two points cannot tell a leak from a cache filled once (inconclusive).
  // Far enough apart in age that a slow leak's path counts clear their own noise with room on a busy
  // machine (docs/zoo.md).
  const youngMs = (attach.warmupMs ?? 0) + ageMs;
  const middleMs = youngMs + olderByMs / 2;
  const oldMs = youngMs + olderByMs;
  const started = Date.now();
  const problems: string[] = [];
  const start = () => startTarget({ fixture: c.fixture, node: info.path!, rate: attach.rate, serving: true, env: attach.env });
  const targets = await Promise.all([start(), start(), start()]);
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-zoo-'));
  try {
    const files: string[] = [];
    for (const [target, age, atMs] of [[targets[0]!, 'young', youngMs], [targets[1]!, 'middle', middleMs], [targets[2]!, 'old', oldMs]] as const) {
      await sleep(Math.max(0, started + atMs - Date.now()));
      const file = join(dir, `${age}.heapsnapshot`);
      const r = await runCli(['snapshot', String(target.pid), '-o', file, '--no-progress'], { timeoutMs: CLI_TIMEOUT_MS });
      if (r.code !== 0) problems.push(`snapshot of the ${age} instance: exit ${r.code}: ${r.stderr.trim().split('\n').pop()}`);
      files.push(file);
    }
    if (problems.length > 0) return { case: c.name, nodeVersion: info.version!, problems, durationMs: Date.now() - started };
    const r = await runCli(['diff', ...files, '--across-processes', '--json', '--no-progress'], { timeoutMs: CLI_TIMEOUT_MS });
    if (r.code !== 0 && r.code !== 1) {
      problems.push(`diff exit ${r.code}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
      return { case: c.name, nodeVersion: info.version!, problems, durationMs: Date.now() - started };
    }
    for (const target of targets) if (!target.alive()) problems.push(`an instance died: ${target.stderr().slice(-300)}`);
    return { case: c.name, nodeVersion: info.version!, out: JSON.parse(r.stdout) as NonNullable<AcrossRun['out']>, problems, durationMs: Date.now() - started };
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Sends SIGUSR2 to `pid` once `<dir>/<pid>-<k>.heapsnapshot` exists (attach renames it there when complete), for each k. */
function signalAfterSnapshots(pid: number, dir: string, after: readonly number[]): { stop(): void; sent(): number } {
  const waiting = [...after].sort((a, b) => a - b);
  let sent = 0;
  const timer = setInterval(() => {
    while (waiting.length > 0 && existsSync(join(dir, `${pid}-${waiting[0]}.heapsnapshot`))) {
      waiting.shift();
      try {
        process.kill(pid, 'SIGUSR2');
        sent++;
      } catch {
        // gone: the run reports it
      }
    }
  }, 20);
  return { stop: () => clearInterval(timer), sent: () => sent };
}

function hopMatches(h: Hop, e: HopExpectation): boolean {
  return (e.edge === undefined || (h.edge !== null && new RegExp(e.edge).test(h.edge.name)))
    && (e.className === undefined || new RegExp(e.className).test(h.node.className))
    && (e.label === undefined || (h.label !== undefined && new RegExp(e.label).test(h.label.kind)));
}

function hopList(e: FindingExpectation): readonly HopExpectation[] {
  return Array.isArray(e.hop) ? e.hop : [e.hop as HopExpectation];
}

/** Why this finding does not match the expectation (empty when it does). */
function findingMismatch(f: Finding, e: FindingExpectation): string[] {
  const why: string[] = [];
  if (!new RegExp(e.className).test(f.className)) why.push(`class ${f.className} is not /${e.className}/`);
  for (const hop of hopList(e)) {
    if (!f.chain.some((h) => hopMatches(h, hop))) why.push(`no hop ${JSON.stringify(hop)} on its chain`);
  }
  return why;
}

/**
 * `exitCode`: attach's, when the run was an attach (it exits 1 exactly for `leak` and `external` when no
 * gate is set); a diff's says nothing here (it exits 1 only with --fail-on-leak).
 */
export function judgeZooRun(expect: ZooExpectation, out: Pick<AttachJson, 'verdict' | 'findings'>, exitCode?: number | null): Judgement {
  const wrong: string[] = [];
  const unchecked: string[] = [];
  if (out.verdict !== expect.verdict && !expect.alsoRight?.includes(out.verdict as ZooExpectation['verdict'])) wrong.push(`verdict ${out.verdict}, expected ${expect.verdict}`);
  if (exitCode !== undefined) {
    const expected = out.verdict === 'leak' || out.verdict === 'external' ? 1 : 0;
    if (exitCode !== expected) wrong.push(`exit ${exitCode} with verdict ${out.verdict}, expected ${expected}`);
  }
  if (expect.top) {
    const top = out.findings[0];
    if (!top) wrong.push('no finding');
    else {
      const why = findingMismatch(top, expect.top);
      if (why.length) wrong.push(`top finding ${top.className}: ${why.join('; ')}`);
    }
  }
  if (expect.findings) {
    // Each required finding matched by a different one (two leaks are two findings, not one twice).
    const used = new Set<number>();
    for (const e of expect.findings) {
      const at = out.findings.findIndex((f, k) => !used.has(k) && findingMismatch(f, e).length === 0);
      if (at < 0) wrong.push(`no finding of class /${e.className}/ with ${hopList(e).map((h) => JSON.stringify(h)).join(' and ')} (besides the others required)`);
      else used.add(at);
    }
  }
  if (expect.drained !== undefined) {
    const backlog = out.findings.find((f) => f.kind === 'backlog');
    if (backlog === undefined) {
      if (expect.verdict === 'backlog' && out.verdict === 'backlog') wrong.push('verdict backlog but no backlog finding');
    } else if (backlog.drained === undefined) {
      unchecked.push(`drained=${expect.drained}: the backlog finding has no "drained" field`);
    } else if (backlog.drained !== expect.drained) {
      wrong.push(`backlog drained=${backlog.drained}, expected ${expect.drained}`);
    }
  }
  return { right: wrong.length === 0, wrong, unchecked };
}

export function renderChain(chain: readonly Hop[], max = 8): string {
  const hops = chain.slice(0, max).map((h) => `${h.edge ? `[${h.edge.name}] ` : ''}${h.node.className}${h.label ? ` {${h.label.kind}}` : ''}`);
  return hops.join(' ← ') + (chain.length > max ? ' ← …' : '');
}

/** Verdict, evidence and findings with their chains, for a failure message or a report. */
export function describeAnswer(out: Pick<AttachJson, 'verdict' | 'evidence' | 'findings'>): string {
  const lines = [`verdict ${out.verdict}`, ...out.evidence.map((e) => `  evidence: ${e}`)];
  out.findings.forEach((f, k) => {
    lines.push(`  finding ${k + 1}: ${f.kind} ${f.className} ×${f.count}${f.drained !== undefined ? ` drained=${f.drained}` : ''}`);
    lines.push(`    chain: ${renderChain(f.chain)}`);
  });
  return lines.join('\n');
}

/**
 * A healthy service that is not a zoo case (it has no attach expectation): fixtures/lazy-routes.mjs, route
 * modules loaded on first use with `import()`. Run with runZooCaseAcross by test/e2e/healthy-across and
 * scripts/healthy-across.js; across processes it must never read `leak`.
 */
export const healthyLazyRoutes: ZooCase = {
  name: 'lazy-routes',
  fixture: 'lazy-routes.mjs',
  expect: { verdict: 'none', kind: 'lookalike', attach: { rate: 50, every: null } },
};
