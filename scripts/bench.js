#!/usr/bin/env node
// `npm run bench`: leakhunt against its peers on generated agent-like snapshots, side by side in one run.
// Median wall time of N runs and peak RSS (GNU time -v, or all processes of a run summed when larger) per tool and size; writes a Markdown table to stdout
// and bench/out/results.{md,json}; progress goes to stderr. Peer tools live in bench/ with their own lockfile.
// The signature-mode rows (`diff --across-processes`, and a three-file series so compared) stand beside the id-mode
// diff of the same files, and their ratios are to it.
//   node scripts/bench.js [--sizes 50,300] [--large] [--runs 3] [--tools leakhunt,diff,diff-across,series,series-across,memlab,…]
//                         [--timeout-min 15] [--heap-mb 16000] [--leakhunt bin/leakhunt.js]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sampleTreeRss } from './process-tree-rss.js';

const ROOT = new URL('..', import.meta.url).pathname;
const BENCH = join(ROOT, 'bench');
const OUT = join(BENCH, 'out');
const GNU_TIME = '/usr/bin/time';
const MiB = 1024 * 1024;

const { values: opts } = parseArgs({
  options: {
    sizes: { type: 'string', default: '50,300' },
    large: { type: 'boolean', default: false },
    runs: { type: 'string', default: '3' },
    tools: { type: 'string', default: 'leakhunt,diff,diff-across,series,series-across,memlab,vscode,heapsnapshot-parser' },
    'timeout-min': { type: 'string', default: '15' },
    'heap-mb': { type: 'string', default: '16000' },
    leakhunt: { type: 'string', default: 'bin/leakhunt.js' }, // another build's bin, to compare against a baseline
  },
});
const sizes = opts.sizes.split(',').filter(Boolean).map(Number).concat(opts.large ? [1100] : []);
const runs = Number(opts.runs);
const timeoutMs = Number(opts['timeout-min']) * 60_000;
const nodeFlags = [`--max-old-space-size=${Number(opts['heap-mb'])}`];

// Each tool: a label and the node argv for one snapshot pair (and its third, `later`). `vs` names the row its
// ratios are taken to and `times` scales it: `diff` is compared with 2× leakhunt analyze; the signature mode
// (snapshots whose ids cannot line up: other inspector sessions, other instances) with the id mode on the
// same files, which is its target (docs/benchmarks.md: ≤ 1.3× the time, ≤ 1.15× the peak RSS).
const lh = (...args) => [opts.leakhunt, ...args, '--json'];
const TOOLS = {
  leakhunt: { label: 'leakhunt analyze', argv: (s) => lh('analyze', s.before), json: true },
  diff: { label: 'leakhunt diff', argv: (s) => lh('diff', s.before, s.after), json: true, vs: 'leakhunt', times: 2, note: 'time ÷ (2 × analyze)' },
  'diff-across': {
    label: 'leakhunt diff --across-processes', argv: (s) => lh('diff', s.before, s.after, '--across-processes'), json: true,
    vs: 'diff', rss: true, note: '÷ leakhunt diff (id mode), same files',
  },
  series: { label: 'leakhunt diff, 3 files', argv: (s) => lh('diff', s.before, s.after, s.later), json: true, vs: 'leakhunt', times: 3, note: 'time ÷ (3 × analyze)' },
  'series-across': {
    label: 'leakhunt diff, 3 files, --across-processes', argv: (s) => lh('diff', s.before, s.after, s.later, '--across-processes'), json: true,
    vs: 'series', rss: true, note: '÷ leakhunt diff, 3 files (id mode)',
  },
  memlab: { label: '@memlab/core', argv: (s) => ['bench/tools/memlab.js', s.before] },
  vscode: { label: '@vscode/v8-heap-parser', argv: (s) => ['bench/tools/vscode.js', s.before] },
  'heapsnapshot-parser': { label: 'heapsnapshot-parser', argv: (s) => ['bench/tools/heapsnapshot-parser.js', s.before] },
};
const tools = opts.tools.split(',').filter(Boolean);
for (const t of tools) if (!TOOLS[t]) usage(`unknown tool "${t}" (known: ${Object.keys(TOOLS).join(', ')})`);
if (!sizes.length || sizes.some((s) => !(s > 0)) || !(runs >= 1) || !(timeoutMs > 0)) usage('bad --sizes, --runs or --timeout-min');

function usage(message) {
  console.error(`bench: ${message}`);
  process.exit(2);
}
const log = (line) => console.error(`bench: ${line}`);

// --- setup -----------------------------------------------------------------------------------------------

function ensurePeerTools() {
  if (existsSync(join(BENCH, 'node_modules')) || tools.every((t) => TOOLS[t].json)) return; // leakhunt rows need no peer
  log('installing the peer tools into bench/node_modules (npm ci, no install scripts, no browser download)');
  // --ignore-scripts: none of the peers needs one; it keeps puppeteer (a dependency of @memlab/core) from
  // fetching a browser and the optional `sleep` addon from running node-gyp (which would fetch headers).
  const r = spawnSync('npm', ['ci', '--prefix', BENCH, '--ignore-scripts', '--no-audit', '--no-fund'], {
    stdio: ['ignore', 2, 2], env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' },
  });
  if (r.status !== 0) usage('npm ci --prefix bench failed');
}

function measureMode() {
  const probe = existsSync(GNU_TIME) && spawnSync(GNU_TIME, ['-v', 'true'], { encoding: 'utf8' });
  if (probe && /Maximum resident set size/.test(probe.stderr)) return 'gnu-time';
  log(`${GNU_TIME} -v is missing (Debian: apt-get install time); falling back to polling VmHWM in /proc`);
  return 'vmhwm';
}

function machine() {
  const version = (p) => { try { return JSON.parse(readFileSync(p, 'utf8')).version; } catch { return '?'; } };
  const git = spawnSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  return {
    date: new Date().toISOString(),
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? '?',
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    leakhunt: `${version(join(ROOT, 'package.json'))} (${git || 'no git'})`,
    peers: Object.fromEntries(['@memlab/core', '@vscode/v8-heap-parser', 'heapsnapshot-parser']
      .map((p) => [p, version(join(BENCH, 'node_modules', p, 'package.json'))])),
  };
}

function generate(mb) {
  log(`snapshot of ~${mb} MB: generating or reusing (bench/out)`);
  const r = spawnSync(process.execPath, ['--max-old-space-size=14000', join(BENCH, 'generate-agent-heap.js'),
    '--mb', String(mb), '--out-dir', OUT], { stdio: ['ignore', 'pipe', 2], encoding: 'utf8' });
  if (r.status !== 0) usage(`generating the ${mb} MB snapshot failed (exit ${r.status ?? r.signal})`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

// --- one measured run -------------------------------------------------------------------------------------

// Stops a tool's process group: SIGTERM first, since leakhunt relaunches itself as a child in a group of its own
// and forwards SIGTERM to it (a SIGKILL to our group would orphan that child), then SIGKILL what is left.
function stopGroup(pgid, then = () => {}) {
  try { process.kill(-pgid, 'SIGTERM'); } catch { /* already gone */ }
  setTimeout(() => { try { process.kill(-pgid, 'SIGKILL'); } catch { /* gone */ } then(); }, 5000);
}
let current; // the process group running now, stopped if we are interrupted
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => (current ? stopGroup(current, () => process.exit(130)) : process.exit(130)));
}

// Runs `node <argv>` in its own process group; resolves { ok, wallS, rssKiB, stdout, error }.
function measure(argv, mode) {
  const tmp = mkdtempSync(join(tmpdir(), 'leakhunt-bench-'));
  const timeFile = join(tmp, 'time.txt');
  const cmd = mode === 'gnu-time' ? [GNU_TIME, '-v', '-o', timeFile, process.execPath] : [process.execPath];
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(cmd[0], [...cmd.slice(1), ...nodeFlags, ...argv], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    current = child.pid;
    let stdout = '';
    let stderr = '';
    let hwmKiB = 0;
    let timedOut = false;
    child.stdout.on('data', (d) => { stdout += d; }); // whole: leakhunt's JSON is parsed to check the run
    child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-1 << 16); });
    // Every process of the run summed (a CLI that relaunches itself waits beside its child on Node
    // without process.execve; GNU time and VmHWM report the larger process only).
    const tree = sampleTreeRss(child.pid, { includeRoot: mode !== 'gnu-time' });
    const poll = mode === 'vmhwm' && setInterval(() => {
      try { hwmKiB = Math.max(hwmKiB, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1])); } catch { /* exited */ }
    }, 50);
    const timer = setTimeout(() => { timedOut = true; stopGroup(child.pid); }, timeoutMs);
    child.on('close', (code, signal) => {
      const wallS = (performance.now() - started) / 1000;
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      const treeKiB = tree.stop().peakKiB;
      current = undefined;
      const time = existsSync(timeFile) ? readFileSync(timeFile, 'utf8') : '';
      rmSync(tmp, { recursive: true, force: true });
      const rssKiB = Math.max(treeKiB, Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(time)?.[1] ?? hwmKiB));
      const status = /Command terminated by signal (\d+)/.exec(time)?.[1];
      const exit = Number(/Exit status: (\d+)/.exec(time)?.[1] ?? code);
      let error;
      if (timedOut) error = `timeout after ${timeoutMs / 60_000} min`;
      else if (exit !== 0 || signal || status) error = reason(stderr, signal ?? (status && `signal ${status}`), exit);
      resolve({ ok: !error, wallS, rssKiB, stdout, stderr, exit, error });
    });
  });
}

// The most telling line of a failed tool's stderr: the thrown error or fatal line if there is one (not the
// source line Node echoes above it), else the first.
function reason(stderr, signal, exit) {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  const line = lines.find((l) => /^(\w*Error\b|FATAL|error:|leakhunt:)|out of memory|panicked/.test(l)) ?? lines[0];
  return `failed: ${line ? line.slice(0, 160) : `exit ${exit}`}${signal ? ` (${signal})` : ''}`;
}

// leakhunt must print its JSON contract; exit 1 ("a leak was found") still counts as a finished run.
function checkLeakhunt(r, isDiff) {
  if (isDiff && /unknown command|not a command|Cannot find module/i.test(r.stderr)) return { ...r, ok: false, error: 'not available' };
  if (r.error && !(r.exit === 1 && !/timeout/.test(r.error))) return r;
  try {
    const json = JSON.parse(r.stdout);
    return { ...r, ok: true, error: undefined, summary: isDiff ? { schemaVersion: json.schemaVersion } : json.snapshot };
  } catch {
    return { ...r, ok: false, error: r.error ?? 'failed: stdout is not JSON' };
  }
}

// --- the run ------------------------------------------------------------------------------------------------

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function benchSize(mb, mode) {
  const snap = generate(mb);
  const results = Object.fromEntries(tools.map((t) => [t, { runs: [] }]));
  const load1 = [loadavg()[0]]; // other work on the machine shows up here, and in the times
  for (let run = 1; run <= runs; run++) {
    for (const t of tools) { // interleaved, so drift on the machine hits every tool alike
      const res = results[t];
      if (res.error) continue; // failures are deterministic here: don't spend the time again
      log(`${mb} MB · ${TOOLS[t].label} · run ${run}/${runs} ...`);
      let r = await measure(TOOLS[t].argv(snap), mode);
      if (TOOLS[t].json) r = checkLeakhunt(r, t !== 'leakhunt');
      else if (r.ok) try { res.summary = JSON.parse(r.stdout.trim().split('\n').pop()); } catch { /* informative only */ }
      if (r.summary) res.summary = r.summary;
      res.runs.push({ wallS: round(r.wallS, 2), rssKiB: r.rssKiB });
      log(`  ${r.ok ? 'ok' : r.error} · ${r.wallS.toFixed(1)} s · ${(r.rssKiB / 1024).toFixed(0)} MiB`);
      if (!r.ok) Object.assign(res, { error: r.error, failedAfterS: round(r.wallS, 1), failedRssMiB: Math.round(r.rssKiB / 1024) });
    }
  }
  for (const res of Object.values(results)) {
    if (res.error) continue;
    res.medianS = round(median(res.runs.map((r) => r.wallS)), 2);
    res.peakRssMiB = Math.round(Math.max(...res.runs.map((r) => r.rssKiB)) / 1024);
  }
  load1.push(loadavg()[0]);
  return { mb, load1: load1.map((x) => round(x, 1)), file: snap.before, bytes: snap.bytes, afterBytes: snap.afterBytes, laterBytes: snap.laterBytes, tools: results };
}

const round = (x, digits) => Number(x.toFixed(digits));

// --- output ---------------------------------------------------------------------------------------------------

function toMarkdown({ machine: m, settings, sizes: done }) {
  const lines = [
    `# leakhunt benchmark — ${m.date.slice(0, 10)}`,
    '',
    `Machine: ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB, Node ${m.node}. leakhunt ${m.leakhunt} ` +
      `(${settings.leakhuntBin}); ` +
      Object.entries(m.peers).map(([p, v]) => `${p} ${v}`).join(', ') + '.',
    `Each tool: ${settings.runs} run(s) interleaved, median wall time; peak RSS is the largest of the runs ` +
      `(${settings.rssFrom}); node ${settings.nodeFlags.join(' ')}; timeout ${settings.timeoutMin} min. ` +
      '"÷ leakhunt" is the tool over `leakhunt analyze` (above 1: leakhunt is faster/smaller); for `diff` it is ' +
      'over 2× analyze (3× for 3 files), for the `--across-processes` rows over the id-mode diff of the same files ' +
      '(peak RSS ÷ file is over the first file). 1-minute load average before/after each size: ' +
      `${done.map((s) => `${(s.bytes / 1e6).toFixed(0)} MB ${s.load1.join('/')}`).join(', ')} (on ${m.cpus} CPUs).`,
    '',
    '| snapshot | tool | wall s (median) | peak RSS MiB | RSS ÷ file | time ÷ leakhunt | RSS ÷ leakhunt | note |',
    '|---|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const size of done) {
    const fileMiB = size.bytes / MiB;
    for (const [t, r] of Object.entries(size.tools)) {
      const tool = TOOLS[t];
      const base = size.tools[tool.vs ?? 'leakhunt']?.medianS ? size.tools[tool.vs ?? 'leakhunt'] : undefined;
      const name = `${(size.bytes / 1e6).toFixed(0)} MB`;
      if (r.error) {
        const rss = r.failedRssMiB ? ` at ${r.failedRssMiB} MiB` : ''; // GNU time reports nothing for a timed-out run
        const after = r.error === 'not available' ? '' : ` (after ${r.failedAfterS} s${rss})`;
        lines.push(`| ${name} | ${TOOLS[t].label} | – | – | | | | ${r.error.replaceAll('|', '\\|')}${after} |`);
        continue;
      }
      const vs = (x, y, scale = 1) => (base && t !== 'leakhunt' ? (x / (y * scale)).toFixed(2) : '');
      const rssVs = !tool.vs || tool.rss; // a diff of n files against n × analyze: time only
      lines.push(`| ${name} | ${tool.label} | ${r.medianS.toFixed(1)} | ${r.peakRssMiB} | ` +
        `${(r.peakRssMiB / fileMiB).toFixed(2)} | ${vs(r.medianS, base?.medianS, tool.times ?? 1)} | ` +
        `${rssVs ? vs(r.peakRssMiB, base?.peakRssMiB) : ''} | ${tool.note ?? ''} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

ensurePeerTools();
const mode = measureMode();
mkdirSync(join(OUT, 'runs'), { recursive: true });
const report = {
  machine: machine(),
  settings: { runs, timeoutMin: timeoutMs / 60_000, nodeFlags, leakhuntBin: opts.leakhunt, rssFrom: `${mode === 'gnu-time' ? '/usr/bin/time -v' : '/proc VmHWM polled'}, or the summed RSS of every process of the run sampled every 50 ms when larger` },
  sizes: [],
};
for (const mb of sizes) {
  report.sizes.push(await benchSize(mb, mode));
  // Written after every size, so a long run that dies keeps what it measured; runs/ keeps every run's copy.
  const stamp = report.machine.date.replace(/[:.]/g, '-');
  for (const name of ['results', `runs/${stamp}`]) {
    writeFileSync(join(OUT, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(OUT, `${name}.md`), toMarkdown(report));
  }
}
process.stdout.write(toMarkdown(report));
