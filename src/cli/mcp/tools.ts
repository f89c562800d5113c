// The MCP server's tools: each calls the function its CLI command calls (runAttach, runDiff, …; never the
// CLI as a child) and returns the command's --json object as structured content with a short text. Tools
// that touch a process (capture, profile) need a plan from plan_capture and confirm: true; plan_capture,
// list_node_processes and watch_memory read /proc only. No heap string contents leave the server (the
// CLI's rule: the JSON these commands print has none). Results name the HTML report written.

import { dirname, join, resolve } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { listNodeProcesses } from '../../attach/node-processes.js';
import { LeakhuntError, UsageError } from '../../errors.js';
import { analyzeSnapshotFile } from '../../index.js';
import { buildAnalyzeHtml, buildDiffHtml } from '../../report/html-report.js';
import { summaryJson, sampleJson } from '../../report/watch-report.js';
import { checkHtmlPath, writeHtmlReport } from '../html-output.js';
import { parseDuration } from '../parse-options.js';
import { defaultOutDir, runAttach } from '../commands/attach-run.js';
import { pacingOf, pacingText } from '../commands/attach-pacing.js';
import { gateLimitsOf, runDiff } from '../commands/diff.js';
import { runProfiling } from '../commands/profile.js';
import { runRetainers } from '../commands/retainers.js';
import { runWatching } from '../commands/watch.js';
import { PlanStore } from './plans.js';

type Structured = Record<string, unknown>;
interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Structured;
  isError?: boolean;
}
interface Extra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (n: { method: 'notifications/progress'; params: { progressToken: string | number; progress: number; total?: number; message?: string } }) => Promise<void>;
}

const CONNECT_TIMEOUT_MS = 10_000;
const loose = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);

function ok(text: string, structured: object): ToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured as Structured };
}

/** A refusal or bad input: the CLI's one line, as a tool error; anything else says it is a bug of ours. */
function failure(err: unknown): ToolResult {
  const text = err instanceof LeakhuntError ? err.message : `internal error: ${err instanceof Error ? err.message : String(err)}`;
  return { content: [{ type: 'text', text }], isError: true };
}

/** Tool calls still running: the server waits for them (their detach) before the process ends. */
const inFlight = new Set<Promise<ToolResult>>();

function guarded(body: () => Promise<ToolResult>): Promise<ToolResult> {
  const call = body().catch(failure);
  inFlight.add(call);
  void call.finally(() => inFlight.delete(call));
  return call;
}

/** Resolves once every tool call in flight has ended (cancelled ones included). */
export async function settled(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

function progressOf(extra: Extra): (progress: number, total: number | undefined, message: string) => void {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => {};
  return (progress, total, message) => {
    void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, ...(total === undefined ? {} : { total }), message } }).catch(() => {});
  };
}

/** Where a report goes by default: beside the (last) snapshot it describes, `false` for none. */
function htmlPathFor(asked: string | false | undefined, beside: string, suffix: string): string | undefined {
  if (asked === false) return undefined;
  return resolve(asked ?? join(dirname(beside), `${beside.replace(/^.*\//, '').replace(/\.heapsnapshot$/, '')}${suffix}`));
}

const verdictText = (verdict: string, evidence: readonly string[]): string => `${verdict.toUpperCase()}${evidence[0] ? `: ${evidence[0]}` : ''}`;

export function registerTools(server: McpServer, plans = new PlanStore()): void {
  server.registerTool('list_node_processes', {
    title: 'List Node.js processes',
    description: 'The Node.js processes on this host, from /proc only (no signal): pid, command, RSS, cgroup memory limit, whether SIGUSR1 is caught (it opens the inspector), whether an inspector is already open.',
    inputSchema: {},
    outputSchema: { processes: z.array(loose({ pid: z.number(), command: z.string() })) },
    annotations: { readOnlyHint: true },
  }, async () => guarded(async () => {
    const processes = listNodeProcesses();
    const text = processes.length === 0 ? 'no Node.js processes' : processes.map((p) => `${p.pid}  ${Math.round(p.rssBytes / 1048576)} MiB  ${p.command.replace(/\s+/g, ' ').slice(0, 80)}`).join('\n');
    return ok(text, { processes });
  }));

  server.registerTool('watch_memory', {
    title: 'Watch memory',
    description: 'Memory samples of a process from /proc (no signal, no pause) for `seconds`, one every `interval`: RSS against the cgroup limit, the slope and the time to the limit. The same JSON as `leakhunt watch --json`.',
    inputSchema: { pid: z.number().int().positive(), seconds: z.number().positive().max(3600).default(10), interval: z.string().default('1s').describe('e.g. 500ms, 1s, 10s') },
    outputSchema: { summary: loose({ type: z.literal('memory_summary') }), samples: z.array(z.record(z.string(), z.unknown())) },
    annotations: { readOnlyHint: true },
  }, async ({ pid, seconds, interval }, extra) => guarded(async () => {
    const everyMs = parseDuration('interval', interval);
    if (everyMs < 100) throw new UsageError('interval must be at least 100ms');
    const progress = progressOf(extra as Extra);
    const samples: Record<string, unknown>[] = [];
    const total = Math.floor((seconds * 1000) / everyMs) + 1;
    const watched = await runWatching({
      address: { pid, timeoutMs: CONNECT_TIMEOUT_MS }, everyMs, everyText: interval, forMs: seconds * 1000, forText: `${seconds}s`,
      heap: false, quiet: true, signal: extra.signal,
      onSample: (s) => {
        samples.push(sampleJson(pid, s));
        progress(samples.length, total, `sample ${samples.length}`);
      },
    });
    const summary = summaryJson(pid, watched);
    const slope = Math.round(watched.trend.rss.bytesPerHour / 1048576);
    return ok(`pid ${pid}: ${samples.length} samples over ${seconds} s; RSS ${slope >= 0 ? '+' : ''}${slope} MiB/hour; growing: ${watched.trend.growing.join(', ') || 'nothing'}`, { summary, samples });
  }));

  server.registerTool('plan_capture', {
    title: 'Plan a capture',
    description: 'Attach\'s preflight for a pid, from /proc only: sends NO signal. Says whether a capture may go ahead (is it node, same uid or root, does it catch SIGUSR1, memory headroom), how the inspector is reached and how snapshots travel. Pass the planId to `capture` (or `profile`) with confirm: true.',
    inputSchema: { pid: z.number().int().positive() },
    outputSchema: { planId: z.string(), plan: loose({ decision: z.enum(['proceed', 'refuse']) }) },
    annotations: { readOnlyHint: true },
  }, async ({ pid }) => guarded(async () => {
    const plan = plans.make(pid, 'a series of heap snapshots (each pauses the target), memory samples in between');
    const text = plan.decision === 'refuse' ? `REFUSE pid ${pid}: ${plan.refusals.join('; ')}` : `pid ${pid} can be captured; call capture with planId ${plan.planId} and confirm: true\n${plan.lines.join('\n')}`;
    return ok(text, { planId: plan.planId, plan });
  }));

  server.registerTool('capture', {
    title: 'Capture and diagnose',
    description: 'Runs a planned capture: opens the inspector (SIGUSR1, closed again at the end), takes `snapshots` heap snapshots `interval` of running time apart (or every `every` units of `counter`), detaches, and diagnoses what grows and what holds it. Needs confirm: true; refused when the plan refused. Sends progress notifications; cancelling the request detaches cleanly, as Ctrl-C does. Result: `leakhunt attach --json`, plus the HTML report\'s path.',
    inputSchema: {
      planId: z.string(),
      confirm: z.boolean().optional().describe('must be true: each snapshot pauses the target'),
      snapshots: z.number().int().min(2).max(20).default(3),
      interval: z.string().optional().describe('running time between snapshots, e.g. 30s (default 60s; with `every`, the longest wait)'),
      counter: z.string().optional().describe('a side-effect-free expression read in the target, e.g. globalThis.turns: per-unit rates'),
      every: z.number().positive().optional().describe('take the next snapshot once `counter` advanced this far'),
      outDir: z.string().optional().describe('where the snapshots go (default ./leakhunt-<pid>-<time> in the server\'s directory)'),
      maxGrowth: z.string().optional().describe('gate: fail over this much retained growth, e.g. 1MB'),
    },
    outputSchema: loose({ verdict: z.string(), htmlReport: z.string() }),
  }, async (args, extra) => guarded(async () => {
    if (args.confirm !== true) throw new UsageError('capture needs confirm: true (each heap snapshot pauses the target while V8 writes it)');
    const plan = plans.take(args.planId);
    const pacingFlags = {
      ...(args.interval === undefined ? {} : { interval: args.interval }),
      ...(args.counter === undefined ? {} : { counter: args.counter }),
      ...(args.every === undefined ? {} : { every: String(args.every) }),
    };
    const pacing = pacingOf(pacingFlags);
    const outDir = args.outDir ?? defaultOutDir(plan.pid);
    const html = join(outDir, 'report.html');
    const progress = progressOf(extra as Extra);
    const count = args.snapshots;
    progress(0, count, `capturing: ${pacingText(pacing, count, args.interval, true)}`);
    const run = await runAttach({
      address: { pid: plan.pid, timeoutMs: CONNECT_TIMEOUT_MS },
      series: { most: count, adaptive: false }, pacing, pacingFlags, sampleEveryMs: 1000, groups: 10,
      limits: gateLimitsOf(args),
      force: false, verbose: false, outDir, html, traceAllocations: false, showProgress: false, signal: extra.signal,
      events: {
        onSnapshot: (s) => progress(s.index, count, `snapshot ${s.index} of ${count}: ${Math.round(s.bytes / 1048576)} MiB, paused ${(s.durationMs / 1000).toFixed(1)} s`),
      },
    });
    if (run.stopped) throw new UsageError(`the capture was stopped: ${run.kept.length} complete snapshot(s) kept in ${run.outDir}; the target was left as found`);
    const { output } = run;
    const structured = { ...output, htmlReport: run.htmlFile ?? html };
    const failed = output.gates.filter((g) => !g.passed).map((g) => `FAIL ${g.gate}: ${g.reason}`);
    return ok([verdictText(output.verdict, output.evidence), ...failed, `inspector: ${output.capture.inspector.note}`, `HTML report: ${structured.htmlReport}`, `snapshots: ${resolve(run.outDir)}`].join('\n'), structured);
  }));

  server.registerTool('profile', {
    title: 'Profile allocations',
    description: 'Which lines allocate what grows, from V8\'s sampling heap profiler (no heap snapshot; a short pause per reading). Like capture it opens the inspector: needs a planId from plan_capture and confirm: true. Result: `leakhunt profile --json` plus the HTML report\'s path.',
    inputSchema: {
      planId: z.string(),
      confirm: z.boolean().optional(),
      interval: z.string().default('30s'),
      samples: z.number().int().min(3).max(100).default(6),
      counter: z.string().optional(),
      html: z.string().optional().describe('where the HTML report goes (default ./leakhunt-profile-<pid>.html)'),
    },
    outputSchema: loose({ verdict: z.string(), htmlReport: z.string() }),
  }, async (args, extra) => guarded(async () => {
    if (args.confirm !== true) throw new UsageError('profile needs confirm: true (it opens the inspector and pauses the target briefly per reading)');
    const plan = plans.take(args.planId);
    const intervalMs = parseDuration('interval', args.interval);
    if (intervalMs < 100) throw new UsageError('interval must be at least 100ms');
    const html = resolve(args.html ?? `leakhunt-profile-${plan.pid}.html`);
    const progress = progressOf(extra as Extra);
    const run = await runProfiling({
      address: { pid: plan.pid, timeoutMs: CONNECT_TIMEOUT_MS }, intervalMs, intervalText: args.interval, readings: args.samples,
      samplingInterval: 32 * 1024, ...(args.counter === undefined ? {} : { counter: args.counter }), html,
      targetArgs: String(plan.pid), signal: extra.signal,
      onReading: (i, n) => progress(i, n, `reading ${i} of ${n}`),
    });
    if (!run.output || !run.html) throw new UsageError(`the profile was stopped after ${run.taken} reading(s); the profiler was stopped and the target left as found`);
    const file = writeHtmlReport(run.html.path, run.html.page);
    return ok(`${verdictText(run.output.verdict, run.output.evidence)}\nHTML report: ${file}`, { ...run.output, htmlReport: file });
  }));

  server.registerTool('analyze_snapshot', {
    title: 'Analyze one heap snapshot',
    description: 'One .heapsnapshot file: classes by retained size, largest objects, suspicious retention with chains. Result: `leakhunt analyze --json` plus the HTML report\'s path (default beside the snapshot; html: false for none).',
    inputSchema: { file: z.string(), top: z.number().int().positive().max(1000).default(20), html: z.union([z.string(), z.literal(false)]).optional() },
    outputSchema: loose({ verdict: z.string() }),
    annotations: { readOnlyHint: false },
  }, async ({ file, top, html }) => guarded(async () => {
    const htmlFile = htmlPathFor(html, file, '.analyze.html');
    checkHtmlPath(htmlFile);
    const summary = await analyzeSnapshotFile(file, { top, sort: 'retained' });
    const written = htmlFile === undefined ? undefined : writeHtmlReport(htmlFile, buildAnalyzeHtml(summary, file));
    return ok(`${verdictText(summary.verdict, summary.evidence)}${written ? `\nHTML report: ${written}` : ''}`, { ...summary, ...(written ? { htmlReport: written } : {}) });
  }));

  server.registerTool('diff_snapshots', {
    title: 'Diff heap snapshots',
    description: 'Two or more snapshots, oldest first: what grew, what survived and what holds it, the verdict and the gates. Result: `leakhunt diff --json` plus the HTML report\'s path (default beside the last snapshot).',
    inputSchema: {
      files: z.array(z.string()).min(2),
      maxGrowth: z.string().optional(),
      acrossProcesses: z.boolean().default(false),
      html: z.union([z.string(), z.literal(false)]).optional(),
    },
    outputSchema: loose({ verdict: z.string() }),
  }, async ({ files, maxGrowth, acrossProcesses, html }) => guarded(async () => {
    const htmlFile = htmlPathFor(html, files[files.length - 1]!, '.diff.html');
    checkHtmlPath(htmlFile);
    const { json, gates } = await runDiff(files, { groups: 10, limits: gateLimitsOf({ ...(maxGrowth === undefined ? {} : { maxGrowth }) }), acrossProcesses });
    const written = htmlFile === undefined ? undefined : writeHtmlReport(htmlFile, buildDiffHtml(json, { groups: 10 }));
    const failed = gates.filter((g) => !g.passed).map((g) => `FAIL ${g.gate}: ${g.reason}`);
    return ok([verdictText(json.verdict, json.evidence), ...failed, ...(written ? [`HTML report: ${written}`] : [])].join('\n'), { ...json, ...(written ? { htmlReport: written } : {}) });
  }));

  server.registerTool('retainers', {
    title: 'What holds it',
    description: 'The retainer chains of an object (id) or of every object of a class (className) back to GC roots, in one snapshot. Result: `leakhunt retainers --json` (string contents are never included).',
    inputSchema: { file: z.string(), className: z.string().optional(), id: z.number().int().nonnegative().optional(), paths: z.number().int().positive().max(100).default(5), depth: z.number().int().positive().max(200).default(30) },
    outputSchema: loose({}),
    annotations: { readOnlyHint: true },
  }, async ({ file, className, id, paths, depth }) => guarded(async () => {
    if ((className === undefined) === (id === undefined)) throw new UsageError('give exactly one of className and id');
    const result = await runRetainers(file, id === undefined ? { className: className! } : { id }, { paths, depth, showStrings: false });
    return ok(`${result.target.count} × ${result.target.className} in ${file}: ${result.paths.length} retainer path group(s)`, { ...result });
  }));
}
