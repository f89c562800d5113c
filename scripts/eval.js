#!/usr/bin/env node
// The evaluation (docs/evaluation.md): programs drawn from a seed (fixtures/generator/program.cjs, params
// from test/helpers/eval/draw.ts), each run as a real process and diagnosed from outside with the built
// `leakhunt attach <pid> --json`, judged against the truth it was built with. Prints the seed, the
// confusion matrix, detection by kept rate and bytes, the false alarms, and a replay command for every
// wrong or inconclusive program. A fresh seed unless --seed is given.
//   npm run eval -- [--programs 200] [--seed S] [--node 20|22|24|<path>] [--json out.json] [--keep <dir>]
//                   [--concurrency 1|2] [--only <index>] [--max-heap <MB>] [--max-interval <ms>] [--fault langgraph|chain|race|growing] [--no-shapes]
//   npm run eval -- --replay <kept dir> [--only <index>] [--json out.json]   today's build on kept captures
//   npm run eval -- --one-snapshot [--programs N] [--seed S] [--kinds k,…]   healthy, context-capture and
//                   client programs, one snapshot, analyze
//   npm run eval -- --sample                                   the fixed-seed sample (docs/evaluation.md)
//   npm run eval -- --truth-check [--programs N] [--seed S]    what each program keeps, measured without leakhunt
import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const USAGE = `usage: npm run eval -- [--programs N] [--seed S] [--node 20|22|24|<path>] [--json out.json] [--keep <dir>] [--concurrency 1|2] [--only K] [--max-heap MB] [--max-interval ms] [--fault langgraph|chain|race|growing] [--no-shapes]
       npm run eval -- --replay <kept dir> [--only K] [--json out.json] [--concurrency 1|2]
       npm run eval -- --one-snapshot [--programs N] [--seed S] [--kinds k,…] [--node …] [--json out.json] [--keep <dir>]
       npm run eval -- --sample [--node …] [--json out.json] [--keep <dir>]
       npm run eval -- --truth-check [--programs N] [--seed S] [--node …] [--max-heap MB] [--max-interval ms]`;

function fail(message) {
  console.error(`eval: ${message}\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      help: { type: 'boolean', short: 'h' },
      programs: { type: 'string' },
      seed: { type: 'string' },
      node: { type: 'string' },
      json: { type: 'string' },
      keep: { type: 'string' },
      concurrency: { type: 'string', default: '1' },
      only: { type: 'string' },
      replay: { type: 'string' },
      'one-snapshot': { type: 'boolean', default: false },
      kinds: { type: 'string' },
      'max-heap': { type: 'string' },
      'max-interval': { type: 'string' },
      fault: { type: 'string' },
      'no-shapes': { type: 'boolean', default: false },
      sample: { type: 'boolean', default: false },
      'truth-check': { type: 'boolean', default: false },
    },
  }));
} catch (err) {
  fail(err.message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const intOf = (name, text, lo, hi) => {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < lo || n > hi) fail(`--${name} must be an integer from ${lo} to ${hi}, got "${text}"`);
  return n;
};
const concurrency = intOf('concurrency', values.concurrency, 1, 2);
const only = intOf('only', values.only, 0, 1e6);
const maxHeap = intOf('max-heap', values['max-heap'], 20, 500);
const maxInterval = intOf('max-interval', values['max-interval'], 2000, 5000);
// Only programs of one fault kind (draw.ts DrawOptions.fault): LangGraph programs and each shape
// (draw-shapes.ts) are a small share otherwise.
const FAULTS_ONLY = ['langgraph', 'chain', 'race', 'growing'];
const faultOnly = values.fault;
if (faultOnly !== undefined && !FAULTS_ONLY.includes(faultOnly)) fail(`--fault ${faultOnly}: one of ${FAULTS_ONLY.join(', ')}`);
// --no-shapes: every index draws what the generator drew before the shapes (the sample's draw, draw.ts).
const noShapes = values['no-shapes'];
if (noShapes && faultOnly !== undefined) fail('--no-shapes goes without --fault');
if (faultOnly !== undefined && (values.sample || values['one-snapshot'] || values.replay !== undefined)) fail('--fault draws series programs only');
if (values.sample && (values.seed || values.programs || values['max-heap'] || values['max-interval'] || values['one-snapshot'] || values.replay)) fail('--sample has its own seed, programs and draw');
if (values.replay !== undefined && (values['one-snapshot'] || values.keep || values.seed || values.programs)) fail('--replay takes the seed and programs from the kept directory');
const kinds = values.kinds?.split(',');
if (kinds !== undefined && !values['one-snapshot']) fail('--kinds goes with --one-snapshot');
if (values.keep !== undefined && existsSync(values.keep) && readdirSync(values.keep).length > 0 && only === undefined) fail(`--keep ${values.keep} is not empty`);

const { evaluatePrograms, jsonReport, renderReport, replayCommand, replayKept } = await import('../dist/test/helpers/eval/evaluate.js');
const { summarize } = await import('../dist/test/helpers/eval/judge.js');
const { describeProgram, drawOneSnapshotProgram, drawProgram, foundInOneSnapshot, keptInOneSnapshot, ONE_SNAPSHOT_BUCKETS, ONE_SNAPSHOT_KINDS, oneSnapshotKind, sampleIndexes, truthOf } = await import('../dist/test/helpers/eval/draw.js');
if (kinds?.some((k) => !ONE_SNAPSHOT_KINDS.includes(k))) fail(`--kinds takes ${ONE_SNAPSHOT_KINDS.join(', ')}`);
const { runOneSnapshot, stopAllPrograms } = await import('../dist/test/helpers/eval/run-program.js');
const { nodeBinaryInfo } = await import('../dist/test/helpers/node-binaries.js');
const { SAMPLE } = await import('../dist/test/helpers/eval/sample.js');
const { checkTruth } = await import('../dist/test/helpers/eval/truth-check.js');

function nodeOf(spec) {
  if (spec === undefined) return process.execPath;
  if (/^\d+$/.test(spec)) {
    if (!['20', '22', '24'].includes(spec)) fail(`--node ${spec}: 20, 22, 24 or a path`);
    const info = nodeBinaryInfo(Number(spec));
    if (!info.path) fail(`no Node ${spec} binary: ${info.reason}`);
    return info.path;
  }
  if (!existsSync(spec)) fail(`--node ${spec}: no such file`);
  return resolve(spec);
}
const nodeVersion = (path) => execFileSync(path, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
const commit = () => {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
};
const progress = (r, done, total) => {
  const mark = r.judgement === 'right' ? 'right' : r.judgement.toUpperCase();
  process.stderr.write(`eval: ${done}/${total} #${r.params.index} truth ${r.truth} → ${r.verdict ?? 'no answer'} ${mark} (${(r.durationMs / 1000).toFixed(0)} s)${r.reasons.length ? ` — ${r.reasons.join('; ')}` : ''}\n`);
};
const started = Date.now();
// Interrupted: the programs get their SIGTERM; each attach then sees its target gone and ends.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    process.stderr.write(`eval: ${signal}: stopping the programs still running\n`);
    void stopAllPrograms().finally(() => process.exit(130));
  });
}

if (values.replay !== undefined) {
  const dir = values.replay;
  const runFile = join(dir, 'run.json');
  if (!existsSync(runFile)) fail(`${runFile} is missing: not a directory written by --keep`);
  const run = JSON.parse(readFileSync(runFile, 'utf8'));
  console.log(`replaying ${dir}: seed ${run.seed}, captured at ${run.commit} on ${run.nodeVersion}; diagnosed by ${commit()}`);
  const results = await replayKept(dir, concurrency, progress, only);
  if (results.length === 0) fail(`${dir} holds no kept program${only === undefined ? '' : ` #${only}`}`);
  const summary = summarize(results);
  console.log(renderReport(run.seed, results, summary, (k) => `npm run eval -- --replay ${dir} --only ${k}`).join('\n'));
  console.log('\n(replayed: exit codes are not judged; report exits 0 whatever the verdict)');
  if (values.json) writeFileSync(values.json, `${JSON.stringify(jsonReport(run.seed, results, summary, { replayOf: dir, capturedAt: run.commit, diagnosedBy: commit() }), null, 2)}\n`);
  process.exit(0);
}

const seed = values.sample ? SAMPLE.seed : values.seed !== undefined ? intOf('seed', values.seed, 0, 2 ** 32 - 1) : randomInt(2 ** 31);
const node = nodeOf(values.node);
const version = nodeVersion(node);
const draw = values.sample ? SAMPLE.draw : { ...(maxHeap === undefined ? {} : { maxHeapMB: maxHeap }), ...(maxInterval === undefined ? {} : { maxIntervalMs: maxInterval }), ...(faultOnly === undefined ? {} : { fault: faultOnly }), ...(noShapes ? { shapes: false } : {}) };
const programs = intOf('programs', values.programs, 1, 100000) ?? (values['one-snapshot'] ? 20 : 200);
console.log(`eval: seed ${seed} · node ${version} · leakhunt ${commit()}`);

if (values.keep !== undefined) {
  mkdirSync(values.keep, { recursive: true, mode: 0o700 });
  const runFile = join(values.keep, 'run.json');
  if (!existsSync(runFile)) {
    writeFileSync(runFile, `${JSON.stringify({ seed, programs, oneSnapshot: values['one-snapshot'], draw, nodeVersion: version, commit: commit(), startedAt: new Date(started).toISOString(), argv: process.argv.slice(2) }, null, 2)}\n`);
  }
}

if (values['truth-check']) {
  // Measured without leakhunt: memory after a full GC once an interval, growth a interval by least squares.
  const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
  console.log('index  truth     drawn kept/interval  heap/interval  arrayBuffers/interval  rss/interval');
  const indexes = only !== undefined ? [only] : Array.from({ length: programs }, (_, k) => k);
  const rows = [];
  for (const k of indexes) {
    const p = drawProgram(seed, k, draw);
    const c = await checkTruth(p, node);
    rows.push({ params: p, truth: truthOf(p), ...c });
    console.log(`${`#${k}`.padEnd(6)} ${truthOf(p).padEnd(9)} ${kib(c.expectedBytes).padStart(20)} ${kib(c.heapPerInterval).padStart(14)} ${kib(c.arrayBuffersPerInterval).padStart(22)} ${kib(c.rssPerInterval).padStart(13)}${c.problem ? `  (${c.problem})` : ''}`);
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ seed, nodeVersion: version, mode: 'truth-check', programs: rows }, null, 2)}\n`);
  process.exit(0);
}

if (values['one-snapshot']) {
  // --programs counts healthy programs here, drawn in index order; the programs drawn to carry a fault
  // (draw.ts drawOneSnapshotProgram) come along between them. --kinds draws only programs of those kinds;
  // when it names no healthy kind, --programs counts all.
  const countsAll = kinds !== undefined && !kinds.some((k) => k.startsWith('healthy'));
  const drawn = [];
  let counted = 0;
  for (let k = 0; counted < programs && k < programs * 50; k++) {
    if (only !== undefined && k !== only) continue;
    const p = drawOneSnapshotProgram(seed, k, draw);
    if (kinds !== undefined && !kinds.includes(oneSnapshotKind(p))) continue;
    drawn.push(p);
    if (countsAll || truthOf(p) === 'none') counted++;
  }
  let done = 0;
  const runs = [];
  const keptText = (p) => {
    const kept = keptInOneSnapshot(p);
    return kept === undefined ? oneSnapshotKind(p) : `${kept.count} ${kept.what === 'stores' ? 'stores captured' : `${p.fault.clientClass} kept`}`;
  };
  for (const p of drawn) {
    const r = await runOneSnapshot(p, node, values.keep === undefined ? undefined : join(values.keep, String(p.index)));
    runs.push({ params: p, truth: truthOf(p), ...r });
    process.stderr.write(`eval: ${++done}/${drawn.length} #${p.index} ${keptText(p)}, one snapshot → ${r.verdict ?? 'no answer'}${r.suspects.length ? ` (${r.suspects.map((s) => `${s.count} ${s.className}`).join(', ')})` : ''}${r.problems.length ? ` — ${r.problems.join('; ')}` : ''}\n`);
  }
  const answered = runs.filter((r) => r.verdict !== undefined);
  const healthy = answered.filter((r) => r.truth === 'none');
  const withSuspect = healthy.filter((r) => r.suspects.length > 0);
  const rate = healthy.length ? withSuspect.length / healthy.length : null;
  console.log(`one snapshot of ${healthy.length} healthy programs (seed ${seed}): ${withSuspect.length} with a suspect finding = ${rate === null ? 'n/a' : `${(100 * rate).toFixed(1)}%`} (target ≤ 5%)`);
  for (const r of withSuspect) {
    console.log(`  #${r.params.index}: ${r.suspects.map((s) => `${s.count} ${s.className}: ${s.evidence}`).join(' | ')}`);
    console.log(`    ${describeProgram(r.params)}`);
    console.log(`    replay: npm run eval -- --one-snapshot --seed ${seed} --only ${r.params.index}`);
  }
  // Programs that keep something beyond their turns: found (draw.ts foundInOneSnapshot) by how much they keep.
  const byKept = {};
  for (const [what, text] of [['stores', 'whose stores were captured by never-cleared timers'], ['copies', 'that keep copies of a framework client']]) {
    const faulty = answered.filter((r) => keptInOneSnapshot(r.params)?.what === what);
    if (faulty.length === 0) continue;
    byKept[what] = ONE_SNAPSHOT_BUCKETS.map(([lo, hi]) => {
      const inBucket = faulty.filter((r) => keptInOneSnapshot(r.params).count >= lo && keptInOneSnapshot(r.params).count <= hi);
      return { [what]: `${lo}–${hi}`, programs: inBucket.length, found: inBucket.filter((r) => foundInOneSnapshot(r.params, r.suspects)).length };
    });
    console.log(`one snapshot of ${faulty.length} programs ${text}: found (a suspect) by ${what} kept`);
    for (const b of byKept[what]) console.log(`  ${b[what].padEnd(8)} ${b.found} of ${b.programs}`);
  }
  for (const r of runs.filter((x) => x.verdict === undefined)) console.log(`  #${r.params.index}: no answer — ${r.problems.join('; ')}`);
  if (values.json) {
    writeFileSync(values.json, `${JSON.stringify({ seed, nodeVersion: version, commit: commit(), mode: 'one-snapshot', kinds: kinds ?? null, suspectRate: rate, foundByStores: byKept.stores ?? [], foundByCopies: byKept.copies ?? [], programs: runs.map((r) => ({ params: r.params, truth: r.truth, verdict: r.verdict ?? null, right: r.verdict !== undefined && (r.truth === 'none' ? r.suspects.length === 0 : foundInOneSnapshot(r.params, r.suspects)), suspects: r.suspects, problems: r.problems, durationMs: r.durationMs })) }, null, 2)}\n`);
  }
  console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(0);
}

const indexes = only !== undefined ? [only] : values.sample ? sampleIndexes(seed, draw) : Array.from({ length: programs }, (_, k) => k);
const results = await evaluatePrograms({ seed, indexes, node, concurrency: values.sample ? SAMPLE.concurrency : concurrency, draw, ...(values.keep === undefined ? {} : { keepDir: values.keep }), onResult: progress });
const summary = summarize(results);
const extra = `${values.node ? ` --node ${values.node}` : ''}${values.sample ? SAMPLE.replayFlags : `${maxHeap ? ` --max-heap ${maxHeap}` : ''}${maxInterval ? ` --max-interval ${maxInterval}` : ''}${faultOnly ? ` --fault ${faultOnly}` : ''}${noShapes ? ' --no-shapes' : ''}`}`;
console.log('');
console.log(renderReport(seed, results, summary, (k) => replayCommand(seed, k, extra)).join('\n'));
console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s on ${version}, concurrency ${concurrency}${values.keep ? `; captures kept in ${values.keep} (npm run eval -- --replay ${values.keep})` : ''}`);
if (values.json) writeFileSync(values.json, `${JSON.stringify(jsonReport(seed, results, summary, { nodeVersion: version, commit: commit(), command: `npm run eval -- ${process.argv.slice(2).join(' ')}` }), null, 2)}\n`);
