#!/usr/bin/env node
// One snapshot's suspects swept (docs/diagnosis-model.md, "The sweep"): kept `npm run eval --
// --one-snapshot --keep <dir>` runs (healthy programs, one heap snapshot each) re-analysed in process
// with one ModelParams field varied; prints, per value, how many programs got a suspect finding. Each
// snapshot is parsed and analysed once; only the suspects' search runs per value.
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
const SWEPT = new Set(['minSuspects', 'inFlightMaxMs']);
const args = process.argv.slice(2);
const dirs = [];
const sweeps = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--param') {
    const [name, list] = (args[++i] ?? '').split('=');
    const values = (list ?? '').split(',').map(Number);
    if (!SWEPT.has(name) || values.length === 0 || values.some((v) => !Number.isFinite(v) || v < 0)) {
      console.error(`sweep-one-snapshot: --param takes minSuspects or inFlightMaxMs with non-negative numbers\n${USAGE}`);
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
    if (existsSync(file)) files.push({ dir, index: name, file });
  }
}

// Per value of each parameter: the programs that got a suspect.
const hits = new Map(sweeps.flatMap(({ name, values }) => values.map((v) => [`${name}=${v}`, []])));
const atDefault = [];
for (const [k, { dir, index, file }] of files.entries()) {
  const analysis = new HeapAnalysis(await parseSnapshotFile(file));
  const stores = findCapturedStores(analysis);
  const suspectsWith = (params) => findSuspects(analysis, undefined, stores, params).findings;
  if (suspectsWith(DEFAULT_MODEL).length > 0) atDefault.push(`${dir}#${index}`);
  for (const { name, values } of sweeps) {
    for (const v of values) {
      const found = suspectsWith({ ...DEFAULT_MODEL, [name]: v });
      if (found.length > 0) hits.get(`${name}=${v}`).push(`${dir}#${index} (${found.map((f) => `${f.count} ${f.className}`).join(', ')})`);
    }
  }
  if (process.stderr.isTTY) process.stderr.write(`\r${k + 1}/${files.length}`);
}
if (process.stderr.isTTY) process.stderr.write('\n');
console.log(`${files.length} healthy programs, one snapshot each; at the defaults (minSuspects ${DEFAULT_MODEL.minSuspects}, inFlightMaxMs ${DEFAULT_MODEL.inFlightMaxMs}): ${atDefault.length} with a suspect`);
for (const [key, list] of hits) {
  console.log(`  ${key.padEnd(24)} ${String(list.length).padStart(3)} of ${files.length} with a suspect${list.length ? `: ${list.join('; ')}` : ''}`);
}
