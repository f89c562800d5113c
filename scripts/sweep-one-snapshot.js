#!/usr/bin/env node
// One snapshot's suspects swept (docs/diagnosis-model.md, "One snapshot's parameters"): kept `npm run
// eval -- --one-snapshot --keep <dir>` runs (healthy programs, and programs whose turns' stores are kept
// by never-cleared timers; one heap snapshot each) re-analysed in process with one ModelParams field
// varied. Prints, per value, the healthy programs that got a suspect (false alarms) and the captured ones
// that did (found), by stores kept. Each snapshot is parsed and analysed once; only the suspects' search
// runs per value.
//   npm run sweep:one-snapshot -- <kept dir>... --param minSuspects=1,10,25,50 [--param inFlightMaxMs=0,1000,600000]
// A sweep is a training step: its seeds become the development set; a fresh seed measures the rate.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url);
const { parseSnapshotFile } = await import(new URL('src/snapshot/parse.js', dist).href);
const { HeapAnalysis } = await import(new URL('src/analysis/heap-analysis.js', dist).href);
const { findCapturedStores, findSuspects } = await import(new URL('src/diagnose/suspects.js', dist).href);
const { DEFAULT_MODEL } = await import(new URL('src/diagnose/model-params.js', dist).href);

const USAGE = 'usage: npm run sweep:one-snapshot -- <kept dir>... --param <minSuspects|inFlightMaxMs>=v1,v2,...';
const SWEPT = new Set(['minSuspects', 'minCopies', 'inFlightMaxMs']);
const args = process.argv.slice(2);
const dirs = [];
const sweeps = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--param') {
    const [name, list] = (args[++i] ?? '').split('=');
    const values = (list ?? '').split(',').map(Number);
    if (!SWEPT.has(name) || values.length === 0 || values.some((v) => !Number.isFinite(v) || v < 0)) {
      console.error(`sweep-one-snapshot: --param takes minSuspects, minCopies or inFlightMaxMs with non-negative numbers\n${USAGE}`);
      process.exit(2);
    }
    sweeps.push({ name, values });
  } else dirs.push(args[i]);
}
if (dirs.length === 0 || sweeps.length === 0) {
  console.error(USAGE);
  process.exit(2);
}

const files = [];
for (const dir of dirs) {
  const run = join(dir, 'run.json');
  if (!existsSync(run) || JSON.parse(readFileSync(run, 'utf8')).oneSnapshot !== true) {
    console.error(`sweep-one-snapshot: ${dir} is not a directory written by eval --one-snapshot --keep`);
    process.exit(2);
  }
  for (const name of readdirSync(dir)) {
    const file = join(dir, name, 'one.heapsnapshot');
    const params = join(dir, name, 'params.json');
    if (!existsSync(file) || !existsSync(params)) continue;
    const fault = JSON.parse(readFileSync(params, 'utf8')).fault;
    files.push({ dir, index: name, file, stores: fault.kind === 'context-capture' ? fault.stores : 0 });
  }
}

// Per value of each parameter (the defaults first): the healthy programs with a suspect, and the
// captured programs found, by stores kept.
const BUCKETS = [[1, 9], [10, 24], [25, 49], [50, 200]];
const keys = [`defaults (minSuspects ${DEFAULT_MODEL.minSuspects}, inFlightMaxMs ${DEFAULT_MODEL.inFlightMaxMs})`, ...sweeps.flatMap(({ name, values }) => values.map((v) => `${name}=${v}`))];
const paramsOf = (key) => {
  if (!key.includes('=')) return DEFAULT_MODEL;
  const [name, v] = key.split('=');
  return { ...DEFAULT_MODEL, [name]: Number(v) };
};
const rows = new Map(keys.map((key) => [key, { falseAlarms: [], found: BUCKETS.map(() => 0) }]));
for (const [k, { dir, index, file, stores }] of files.entries()) {
  const analysis = new HeapAnalysis(await parseSnapshotFile(file));
  const captured = findCapturedStores(analysis);
  for (const key of keys) {
    const found = findSuspects(analysis, undefined, captured, paramsOf(key)).findings;
    const row = rows.get(key);
    if (stores === 0 && found.length > 0) row.falseAlarms.push(`${dir}#${index} (${found.map((f) => `${f.count} ${f.className}`).join(', ')})`);
    if (stores > 0 && found.length > 0) row.found[BUCKETS.findIndex(([lo, hi]) => stores >= lo && stores <= hi)]++;
  }
  if (process.stderr.isTTY) process.stderr.write(`\r${k + 1}/${files.length}`);
}
if (process.stderr.isTTY) process.stderr.write('\n');
const healthy = files.filter((f) => f.stores === 0).length;
const inBucket = BUCKETS.map(([lo, hi]) => files.filter((f) => f.stores >= lo && f.stores <= hi).length);
console.log(`${healthy} healthy programs and ${files.length - healthy} with captured stores, one snapshot each`);
console.log(`value | healthy with a suspect | captured found, stores ${BUCKETS.map(([lo, hi], i) => `${lo}–${hi} (${inBucket[i]})`).join(', ')}`);
for (const [key, row] of rows) {
  console.log(`${key} | ${row.falseAlarms.length} of ${healthy} | ${row.found.join(', ')}${row.falseAlarms.length ? `\n    ${row.falseAlarms.join('; ')}` : ''}`);
}
