// `leakhunt attach <pid>`: preflight plan, inspector opened safely, memory samples and N snapshots paced
// by running time or by a work counter in the target (attach-pacing.ts), detach, then the diff pipeline
// over the captured series with diff's reporting and gates, plus the memory timeline. The capture keeps
// leakhunt's RSS small (chunks go straight to disk); the analysis afterwards is measured and reported
// apart. Flags become AttachOptions here; the work is runAttach's (attach-run.ts), shared with MCP.

import type { Command } from 'commander';
import type { InspectorEndpoint } from '../../attach/inspector-port.js';
import type { OpenedTarget } from '../../attach/open-target.js';
import { ExitCode } from '../../errors.js';
import { buildAttachDocument } from '../../report/attach-report.js';
import { formatOf, warn, writeResult } from '../output.js';
import { parseDuration, parseTop } from '../parse-options.js';
import { wantsProgress } from '../progress.js';
import type { ExitStatus, GlobalOptions } from '../global-options.js';
import { pacingOf, type PacingFlags } from './attach-pacing.js';
import { addTargetOptions, installStopSignals, leftBehind, targetAddressOf, type TargetFlags } from './attach-common.js';
import { runAttach, type AttachRun } from './attach-run.js';
import { addGateOptions, gateLimitsOf, type SeriesReportFlags } from './diff.js';
import { DEFAULT_MAX_SNAPSHOTS, FIRST_SNAPSHOTS, seriesPlanOf, type SettleFlags } from './attach-settle.js';

interface AttachFlags extends TargetFlags, SeriesReportFlags, PacingFlags, SettleFlags {
  sampleEvery: string;
  findings: string;
  out?: string;
  force?: boolean;
  verbose?: boolean;
  html?: string;
  traceAllocations?: boolean;
}

export function registerAttach(program: Command, globals: () => GlobalOptions, status: ExitStatus): void {
  const command = program
    .command('attach')
    .argument('[pid]', 'the Node.js process (not needed with --port / --ws)')
    .description('attach to a running Node process: memory timeline, heap snapshots at intervals, what grows and what holds it')
    .option('--snapshots <n>', `take exactly this many snapshots (default: ${FIRST_SNAPSHOTS}, then one more while the verdict is inconclusive, up to --max-snapshots)`)
    .option('--max-snapshots <n>', `without --snapshots: the most to take while the verdict is unsettled (default ${DEFAULT_MAX_SNAPSHOTS})`)
    .option('--max-time <duration>', 'without --snapshots: start no snapshot after this long from the first (e.g. 10m)')
    .option('--interval <duration>', 'running time the target gets between snapshots, from the end of one to the start of the next (e.g. 15s, 5m; default 60s); with --every, the longest wait (default 10m)')
    .option('--counter <expression>', 'a JavaScript expression read in the target before each snapshot (side effects are refused; e.g. globalThis.turns): per-unit rates over how far it advanced')
    .option('--every <n>', 'take the next snapshot once --counter advanced by n (polled at --sample-every)')
    .option('--sample-every <duration>', 'time between memory samples (and counter polls with --every)', '1s')
    .option('--out <dir>', 'where the snapshots go (created 0700; default ./leakhunt-<pid>-<time>); a directory already holding this pid\'s <pid>-<n>.heapsnapshot files is refused')
    .option('--force', 'take snapshots even when the memory headroom or disk space check fails, and replace files of an earlier run in --out (never overrides the signal checks)')
    .option('--top <n|all>', 'how many growing classes to list', '20')
    .option('--groups <n>', 'how many survivor groups to show, with a chain each', '10')
    .option('--findings <n|all>', 'how many findings the report shows in full (chain, fix); each one after them gets one line: kind, class, count, retained size, @id of its chain\'s first hop (text and Markdown; --json and --html keep them all)', 'all')
    .option('--json', 'print the result as JSON: diff\'s object plus target, samples, snapshots, capture')
    .option('--markdown', 'print Markdown')
    .option('--trace-allocations', 'track allocations from the first snapshot on: each finding names the line of your code that made its objects (costs throughput while it runs: the plan says how much)')
    .option('--html <file>', 'also write the report as one self-contained HTML page (rebuild it later: leakhunt report <out dir>)')
    .option('--progress', 'show progress on stderr even with --json')
    .option('--no-progress', 'never show progress')
    .option('--verbose', 'the whole plan, each snapshot\'s measured cost, the analysis phases, and every chain in full')
    .option('--unit-count <n>', 'units of work (turns, requests) the target did between the first and the last snapshot, for per-unit rates (overrides --counter)');
  addTargetOptions(addGateOptions(command))
    .addHelpText('after', `
Examples:
  $ leakhunt attach 4242                               3 snapshots a minute of running time apart, more while unsure; then what grew and what holds it
  $ leakhunt attach 4242 --snapshots 4 --interval 5m --out ./incident-17
  $ leakhunt attach 4242 --interval 15s --json > attach.json
  $ leakhunt attach 4242 --findings 1                  the first finding in full, any others one line each
  $ leakhunt attach 4242 --counter 'globalThis.turns' --every 50
                                                       a snapshot every 50 turns of the agent; rates per turn
  $ leakhunt attach 4242 --counter 'globalThis.turns' --every 50 --interval 10m
                                                       … but never more than 10 minutes apart (then: a warning)
  $ leakhunt attach 4242 --counter 'app.stats.requests' --interval 2m
                                                       2 minutes apart; rates per request
  $ leakhunt attach --port 9229 --interval 30s        an inspector already listening (e.g. kubectl port-forward)

The interval is running time: it counts from the end of one snapshot (which pauses the target) to the
start of the next. --counter is evaluated in the target over the inspector with V8's side-effect check
(an expression that could change anything, e.g. an assignment or a call V8 cannot prove pure, is
refused; a read is stopped after 500 ms); it must give a finite number, and its advance from the first
snapshot to the last is the unit count for per-unit rates.

The target is left as it was found: an inspector leakhunt opened with SIGUSR1 is closed again
(Ctrl-C and errors included); one that was already open stays open. Each snapshot pauses the target;
the plan printed first says for about how long.`)
    .action(async (pidArg: string | undefined, flags: AttachFlags, cmd: Command) => {
      const address = targetAddressOf(pidArg, flags);
      const format = formatOf(flags);
      const top = parseTop(flags.top);
      const findings = parseTop(flags.findings, '--findings');
      const options = {
        address,
        series: seriesPlanOf(flags),
        pacing: pacingOf(flags),
        pacingFlags: flags,
        sampleEveryMs: Math.max(100, parseDuration('--sample-every', flags.sampleEvery)),
        groups: parseTop(flags.groups, '--groups'),
        limits: gateLimitsOf(flags),
        force: flags.force === true,
        verbose: flags.verbose === true,
        ...(flags.out === undefined ? {} : { outDir: flags.out }),
        ...(flags.html === undefined ? {} : { html: flags.html }),
        traceAllocations: flags.traceAllocations === true,
        showProgress: wantsProgress(cmd, flags.progress, format === 'text'),
      };
      const seen: { endpoint?: InspectorEndpoint } = {};
      let opened: OpenedTarget | undefined;
      const stop = installStopSignals('the capture', () => leftBehind(opened?.session, seen, address.pid));
      let run: AttachRun;
      try {
        run = await runAttach({ ...options, signal: stop.signal, seen, onOpened: (o) => (opened = o) });
      } finally {
        stop.dispose();
      }
      if (run.stopped) {
        const { kept, outDir } = run;
        if (stop.signal.aborted) {
          process.stderr.write(`leakhunt: stopped by ${String(stop.signal.reason)}: the snapshot in progress was removed; ${kept.length} complete snapshot(s) kept${kept.length ? ` in ${outDir}` : ''}\n`);
          status.raise(stop.exitCode());
        }
        return;
      }
      const { output, diagnosis } = run;
      if (format !== 'text') for (const w of run.diffWarnings) warn(w);
      await writeResult(format, output, () => buildAttachDocument(output, { top, groups: options.groups, verbose: options.verbose, findings }, diagnosis), globals().noColor);
      const failed = output.gates.filter((g) => !g.passed);
      for (const g of failed) process.stderr.write(`leakhunt: FAIL ${g.gate}: ${g.reason}\n`);
      const grows = diagnosis.verdict === 'leak' || diagnosis.verdict === 'external';
      // Text output opens with the verdict; JSON and Markdown get it on stderr as well.
      if (grows && format !== 'text') process.stderr.write(`leakhunt: ${diagnosis.verdict.toUpperCase()}: ${diagnosis.evidence[0] ?? ''}\n`);
      if (failed.length > 0 || grows) status.raise(ExitCode.leak);
    });
}
