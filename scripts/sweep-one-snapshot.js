#!/usr/bin/env node
// One snapshot's suspects swept (docs/diagnosis-model.md, "One snapshot's parameters"): kept `npm run
// eval -- --one-snapshot --keep <dir>` runs (healthy programs, programs whose turns' stores are kept by
// never-cleared timers, programs that keep copies of a framework client; one heap snapshot each)
// re-analysed in process with one ModelParams field varied. Prints, per value, the healthy programs that
// got a suspect (false alarms) and the faulty ones found (draw.ts foundInOneSnapshot), by stores or copies
// kept. Each snapshot is parsed and analysed once; only the suspects' search runs per value.
//   npm run sweep:one-snapshot -- <kept dir>... --param minSuspects=1,10,25,50 [--param minCopies=1,5,25]
//                                 [--param inFlightMaxMs=0,1000,600000]
// A sweep is a training step: its seeds become the development set; a fresh seed measures the rate.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url);
const { parseSnapshotFile } = await import(new URL('src/snapshot/parse.js', dist).href);
const { HeapAnalysis } = await import(new URL('src/analysis/heap-analysis.js', dist).href);
const { findCapturedStores, findSuspects } = await import(new URL('src/diagnose/suspects.js', dist).href);
const { DEFAULT_MODEL } = await import(new URL('src/diagnose/model-params.js', dist).href);
const { foundInOneSnapshot, keptInOneSnapshot, ONE_SNAPSHOT_BUCKETS } = await import(new URL('test/helpers/eval/draw.js', dist).href);

const USAGE = 'usage: npm run sweep:one-snapshot -- <kept dir>... --param <minSuspects|minCopies|inFlightMaxMs>=v1,v2,...';
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
    const p = JSON.parse(readFileSync(params, 'utf8'));
    files.push({ dir, index: name, file, p, kept: keptInOneSnapshot(p) });
  }
}

// Per value of each parameter (the defaults first): the healthy programs with a suspect, and the faulty
// programs found, by stores or copies kept.
const WHATS = ['stores', 'copies'];
const bucketOf = (kept) => WHATS.indexOf(kept.what) * ONE_SNAPSHOT_BUCKETS.length + ONE_SNAPSHOT_BUCKETS.findIndex(([lo, hi]) => kept.count >= lo && kept.count <= hi);
const keys = [`defaults (minSuspects ${DEFAULT_MODEL.minSuspects}, minCopies ${DEFAULT_MODEL.minCopies}, inFlightMaxMs ${DEFAULT_MODEL.inFlightMaxMs})`, ...sweeps.flatMap(({ name, values }) => values.map((v) => `${name}=${v}`))];
const paramsOf = (key) => {
  if (!key.includes('=')) return DEFAULT_MODEL;
  const [name, v] = key.split('=');
  return { ...DEFAULT_MODEL, [name]: Number(v) };
};
const rows = new Map(keys.map((key) => [key, { falseAlarms: [], found: WHATS.flatMap(() => ONE_SNAPSHOT_BUCKETS.map(() => 0)) }]));
for (const [k, { dir, index, file, p, kept }] of files.entries()) {
  const analysis = new HeapAnalysis(await parseSnapshotFile(file));
  const captured = findCapturedStores(analysis);
  for (const key of keys) {
    const found = findSuspects(analysis, undefined, captured, paramsOf(key)).findings;
    const row = rows.get(key);
    if (kept === undefined && found.length > 0) row.falseAlarms.push(`${dir}#${index} (${found.map((f) => `${f.count} ${f.className}`).join(', ')})`);
    if (kept !== undefined && foundInOneSnapshot(p, found)) row.found[bucketOf(kept)]++;
  }
  if (process.stderr.isTTY) process.stderr.write(`\r${k + 1}/${files.length}`);
}
if (process.stderr.isTTY) process.stderr.write('\n');
const healthy = files.filter((f) => f.kept === undefined).length;
const inBucket = WHATS.flatMap((what) => ONE_SNAPSHOT_BUCKETS.map(([lo, hi]) => files.filter((f) => f.kept?.what === what && f.kept.count >= lo && f.kept.count <= hi).length));
const shown = WHATS.filter((_, w) => inBucket.slice(w * ONE_SNAPSHOT_BUCKETS.length, (w + 1) * ONE_SNAPSHOT_BUCKETS.length).some((n) => n > 0));
const columns = (values) => shown.map((what) => {
  const w = WHATS.indexOf(what) * ONE_SNAPSHOT_BUCKETS.length;
  return values.slice(w, w + ONE_SNAPSHOT_BUCKETS.length).join(', ');
}).join(' | ');
const withKept = (what) => files.filter((f) => f.kept?.what === what).length;
console.log(`${healthy} healthy programs, ${withKept('stores')} with captured stores, ${withKept('copies')} that keep client copies; one snapshot each`);
console.log(`value | healthy with a suspect | ${shown.map((what) => `${what === 'stores' ? 'captured' : 'copies'} found, ${what} ${ONE_SNAPSHOT_BUCKETS.map(([lo, hi], i) => `${lo}–${hi} (${inBucket[WHATS.indexOf(what) * ONE_SNAPSHOT_BUCKETS.length + i]})`).join(', ')}`).join(' | ')}`);
for (const [key, row] of rows) {
  console.log(`${key} | ${row.falseAlarms.length} of ${healthy} | ${columns(row.found)}${row.falseAlarms.length ? `\n    ${row.falseAlarms.join('; ')}` : ''}`);
}
