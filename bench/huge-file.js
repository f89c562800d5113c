#!/usr/bin/env node
// Files over 2 GiB: takes a real snapshot and writes a copy padded with whitespace inside the
// `strings` array (legal JSON), so the file passes 2 GiB and every string — the long ones the parser
// leaves on disk and reads back included — sits beyond byte 2^31. Then runs `leakhunt analyze --json`
// on both and checks the two summaries are identical.
//   node bench/huge-file.js [bench/out/agent-50mb.heapsnapshot] [padding GiB, default 2.1]
import { openSync, writeSync, closeSync, readFileSync, statSync, unlinkSync, chmodSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseSnapshotFile } from '../dist/src/snapshot/parse.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = process.argv[2] ?? `${root}bench/out/agent-50mb.heapsnapshot`;
const padBytes = Math.round(Number(process.argv[3] ?? 2.1) * 2 ** 30);
const target = `${source}.huge`;
const bytes = readFileSync(source);
const at = bytes.indexOf('"strings":[') + '"strings":['.length;
if (at < 20) throw new Error(`${source}: no strings section`);

console.error(`writing ${target}: ${(bytes.length + padBytes) / 2 ** 30} GiB…`);
const fd = openSync(target, 'w', 0o600);
writeSync(fd, bytes, 0, at);
const pad = Buffer.alloc(64 << 20, 0x20);
for (let left = padBytes; left > 0; left -= pad.length) writeSync(fd, pad, 0, Math.min(left, pad.length));
writeSync(fd, bytes, at, bytes.length - at);
closeSync(fd);
chmodSync(target, 0o600);

const run = (file) => {
  const t0 = Date.now();
  const out = execFileSync(process.execPath, [`${root}bin/leakhunt.js`, 'analyze', file, '--json', '--top', '50'], { maxBuffer: 1 << 28 });
  return { json: JSON.parse(out.toString()), seconds: (Date.now() - t0) / 1000 };
};
try {
  const plain = run(source);
  const huge = run(target);
  const same = JSON.stringify(plain.json) === JSON.stringify(huge.json);
  // Long strings stay on disk and are read back by offset: compare every one of them past 2^31.
  const [a, b] = [await parseSnapshotFile(source), await parseSnapshotFile(target)];
  let longStrings = 0, longMismatches = 0;
  for (let i = 0; i < a.strings.count; i++) {
    if (!b.strings.isLong(i)) continue;
    longStrings++;
    if (a.strings.get(i) !== b.strings.get(i)) longMismatches++;
  }
  console.log(JSON.stringify({
    source, sourceBytes: bytes.length, hugeBytes: statSync(target).size,
    identicalSummary: same, longStringsReadBack: longStrings, longMismatches, secondsPlain: plain.seconds, secondsHuge: huge.seconds,
  }, null, 2));
  if (!same || longMismatches > 0 || longStrings === 0) process.exitCode = 1;
} finally {
  unlinkSync(target);
}
