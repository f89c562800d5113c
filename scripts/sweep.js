#!/usr/bin/env node
// The sweep behind the model's parameters (docs/diagnosis-model.md): kept eval runs (npm run eval --
// --keep <dir>) re-diagnosed in process with one parameter varied, judged as the eval judges. Each
// program's capture is analysed once (`leakhunt report <capture> --json`, cached in
// <program>/report-<commit>.json, the last commit that changed how a series is built); only the
// diagnosis runs per value.
//   npm run sweep -- <kept dir>... --param falseAlarm=0.001,0.01,0.05 [--param zRuledOut=1,1.5,2]
//     [--capture <attach --out dir>=<verdict>]... [--verdicts FILE]
// --capture adds a capture of a program outside the generator (an agent fixture under attach), with the
// verdict it should get: each value also says how many of those got it.
// A sweep is a training step: its seeds are the development set; a fresh seed measures the error rate.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const dist = new URL('../dist/', import.meta.url);
const { diagnoseCapture } = await import(new URL('src/diagnose/diagnose-capture.js', dist).href);
const { DEFAULT_MODEL } = await import(new URL('src/diagnose/model-params.js', dist).href);
const { ALARMS, aboveLimit, isLeakTruth, judge, summarize } = await import(new URL('test/helpers/eval/judge.js', dist).href);
const { truthOf } = await import(new URL('test/helpers/eval/draw.js', dist).href);
const { keptObservedIn } = await import(new URL('test/helpers/eval/run-program.js', dist).href);

const args = process.argv.slice(2);
const dirs = [];
const sweeps = [];
const named = [];
/** --verdicts FILE: each program's default verdict, one line each, to compare two builds. */
let verdictsFile;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--capture') {
    const [dir, expected] = (args[++i] ?? '').split('=');
    if (!dir || !expected) {
      console.error('sweep: --capture <dir>=<verdict>');
      process.exit(2);
    }
    named.push({ dir, expected });
  } else if (args[i] === '--verdicts') {
    verdictsFile = args[++i];
  } else if (args[i] === '--param') {
    const [name, values] = (args[++i] ?? '').split('=');
    if (!(name in DEFAULT_MODEL) || !values) {
      console.error(`sweep: --param name=v1,v2 with a name of ${Object.keys(DEFAULT_MODEL).join(', ')}`);
      process.exit(2);
    }
    sweeps.push({ name, values: values.split(',').map(Number) });
  } else dirs.push(args[i]);
}
if ((dirs.length === 0 && named.length === 0) || (sweeps.length === 0 && !verdictsFile)) {
  console.error('usage: npm run sweep -- <kept dir>... [--capture dir=verdict]... --param name=v1,v2,...');
  process.exit(2);
}
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
// The report's series (everything but its diagnosis, which the sweep redoes) comes from these files:
// a cached report stays valid while none of them changed, whatever changed in diagnose/.
const SERIES_SOURCES = ['src/analysis', 'src/snapshot', 'src/cli/commands/report.ts', 'src/cli/commands/series-output.ts'];
const seriesCommit = execFileSync('git', ['log', '-1', '--format=%h', '--', ...SERIES_SOURCES], { encoding: 'utf8' }).trim();
const bin = new URL('../bin/leakhunt.js', import.meta.url).pathname;

/** This build's report of a kept capture (`capture` the attach --out directory), analysed once. */
function reportOf(dir, capture = join(dir, 'capture')) {
  const cached = join(dir, `report-${seriesCommit}.json`);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8'));
  const r = spawnSync(process.execPath, [bin, 'report', capture, '--json', '--no-progress'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) {
    console.error(`sweep: ${dir}: ${r.stderr.trim().split('\n')[0] ?? `exit ${r.status}`}`);
    return undefined;
  }
  writeFileSync(cached, r.stdout, { mode: 0o600 });
  return JSON.parse(r.stdout);
}

const programs = [];
for (const run of dirs) {
  for (const k of readdirSync(run).filter((n) => /^\d+$/.test(n)).sort((a, b) => a - b)) {
    const dir = join(run, k);
    if (!existsSync(join(dir, 'params.json')) || !existsSync(join(dir, 'capture'))) continue;
    const out = reportOf(dir);
    if (!out) {
      console.error(`sweep: ${dir}: report failed, left out`);
      continue;
    }
    const params = JSON.parse(readFileSync(join(dir, 'params.json'), 'utf8'));
    const keptObserved = keptObservedIn(dir, params, out.snapshots.map((x) => Date.parse(x.takenAt)));
    programs.push({ params, out, keptObserved, label: `${basename(run)}#${k}` });
    if (process.stderr.isTTY) process.stderr.write(`\rsweep: ${programs.length} programs analysed`);
  }
}
if (process.stderr.isTTY) process.stderr.write('\n');
console.error(`sweep: ${programs.length} programs analysed`);
for (const c of named) {
  c.out = reportOf(c.dir, c.dir);
  if (!c.out) process.exit(1);
}
/** A kept report diagnosed again with these parameters, as attach and report diagnose a capture. */
const diagnoseOut = (out, params) => diagnoseCapture(out, out.snapshots, out.samples ?? [], out.capture?.unitCount?.count, params, out.capture?.holderReads);
/** The named captures that did not get their verdict with these parameters. */
function namedMisses(params) {
  return named.flatMap((c) => {
    const v = diagnoseOut(c.out, params).verdict;
    return v === c.expected ? [] : [`${c.dir} (${c.expected} expected: ${v})`];
  });
}

/** Diagnose every kept program with one parameter set, judged as the eval judges. */
function run(params) {
  return programs.map(({ params: p, out, keptObserved }) => {
    const d = diagnoseOut(out, params);
    const answer = { verdict: d.verdict, exitCode: null, evidence: d.evidence, findings: d.findings, taken: out.snapshots.length };
    const judged = judge(p, answer, [], keptObserved);
    return { params: p, truth: truthOf(p), ...answer, ...judged, problems: [], keptObserved: keptObserved ?? null, verdict: d.verdict, right: judged.judgement === 'right', fixes: d.findings.map((f) => f.fix ?? '').join('\n') };
  });
}
const of = (k, n) => `${k}/${n}`;
const baseline = run(DEFAULT_MODEL);
if (verdictsFile) writeFileSync(verdictsFile, programs.map((p, k) => `${p.label} ${baseline[k].truth} ${baseline[k].verdict}\n`).join(''));
console.log(`${programs.length} programs from ${dirs.join(", ") || "no kept run"}${named.length ? ` and ${named.length} named captures` : ""}, diagnosed at ${commit}`);
for (const { name, values } of sweeps) {
  console.log(`\n${name} (default ${DEFAULT_MODEL[name]})`);
  console.log('  value      false alarms  found ≥ limit  found, all  backlogs right  inconclusive  wrong  changed');
  for (const value of values) {
    const results = run({ ...DEFAULT_MODEL, [name]: value });
    const s = summarize(results);
    const healthy = results.filter((r) => r.truth === 'none');
    const leaky = results.filter((r) => isLeakTruth(r.truth));
    const backlogs = results.filter((r) => r.truth === 'backlog');
    const above = leaky.filter((r) => aboveLimit(r.params, r.keptObserved ?? undefined));
    const count = (list, f) => list.filter(f).length;
    const changed = programs.flatMap((p, k) => (results[k].verdict !== baseline[k].verdict ? [`${p.label} (${results[k].truth}: ${baseline[k].verdict} → ${results[k].verdict})`] : []));
    console.log(`  ${(String(value) + (value === DEFAULT_MODEL[name] ? ' *' : '')).padEnd(10)} ${of(count(healthy, (r) => ALARMS.has(r.verdict)), healthy.length).padStart(12)}  ${of(count(above, (r) => r.right), above.length).padStart(13)}  ${of(count(leaky, (r) => r.right), leaky.length).padStart(10)}  ${of(count(backlogs, (r) => r.right), backlogs.length).padStart(14)}  ${String(s.counts.inconclusive).padStart(12)}  ${String(s.counts.wrong).padStart(5)}  ${String(changed.length).padStart(7)}${changed.length > 0 && changed.length <= 8 ? `\n    ${changed.join('\n    ')}` : ''}`);
    // Some parameters change only the advice (LangGraph's checkpointMinRuns: the durability advice), not the verdict.
    const fixChanged = programs.flatMap((p, k) => (results[k].verdict === baseline[k].verdict && results[k].fixes !== baseline[k].fixes ? [p.label] : []));
    if (fixChanged.length > 0) console.log(`    same verdict, another fix: ${fixChanged.length} (${fixChanged.slice(0, 8).join(', ')})`);
    if (named.length > 0) {
      const misses = namedMisses({ ...DEFAULT_MODEL, [name]: value });
      console.log(`    captures: ${named.length - misses.length}/${named.length} as expected${misses.map((m) => `\n      ${m}`).join('')}`);
    }
  }
}
