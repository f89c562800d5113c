// `leakhunt diff` and `leakhunt retainers` on real snapshots of the fixture programs (real V8, taken
// at test time from one process each): the growing class, its count delta, the path signature and
// the key hops; the control passes a --max-growth gate.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { takeSnapshotSeries, removeSnapshots } from '../helpers/take-snapshot.js';
import { runCli } from '../helpers/cli.js';

interface DiffJson {
  verdict: string;
  findings: { kind: string; className: string; count: number; fix: string; alsoHeld?: string[]; chain: { node: { className: string }; label?: { kind: string; text: string } }[] }[];
  sameProcess: boolean;
  warnings: string[];
  growth: number;
  classes: { name: string; counts: number[]; countDelta: number; newCount: number; grewEveryInterval: boolean | null }[];
  survivors: { count: number; size: number; groups: { signature: string; className: string; count: number; retainedSize: number; counts: number[]; chain: { node: { id: number; className: string }; edge: { type: string; name: string } | null }[] }[] };
  gates: { gate: string; passed: boolean }[];
}

const REQUESTS = 100;

async function diffFixture(fixture: string, extra: string[] = []): Promise<{ out: DiffJson; code: number | null; files: string[]; stderr: string }> {
  const files = await takeSnapshotSeries(fixture, 3, { requests: REQUESTS, requestsBetween: REQUESTS });
  const r = await runCli(['diff', ...files, '--json', ...extra]);
  assert.ok(r.code === 0 || r.code === 1, `diff exited ${r.code}: ${r.stderr}`);
  return { out: JSON.parse(r.stdout) as DiffJson, code: r.code, files, stderr: r.stderr };
}

function classRow(out: DiffJson, name: string) {
  const row = out.classes.find((c) => c.name === name);
  assert.ok(row, `class ${name} is in the diff`);
  return row;
}

function groupOf(out: DiffJson, className: string) {
  const group = out.survivors.groups.find((g) => g.className === className);
  assert.ok(group, `a survivor group of ${className}; groups: ${out.survivors.groups.map((g) => g.signature).join(' | ')}`);
  return group;
}

const leaks: [fixture: string, className: string, perRequest: number, signature: RegExp][] = [
  ['map-cache', 'CacheEntry', 1, /^CacheEntry ← \(array\)\[\] ← Map\.table ← system \/ Context\.responseCache/],
  ['client-array', 'ApiClient', 1, /^ApiClient ← Array\[\] ← system \/ Context\.clients/],
  ['listener', 'Session', 1, /^Session ← system \/ Context\.\w+ ← onConfigChange\(\)\.context/],
  ['als-timer', 'RequestContext', 1, /^RequestContext ← Timeout\["<symbol kResourceStore>"\] ← TimersList \(list\) ← Object\[\] ← system \/ Context\.timerListMap/],
];

for (const [fixture, className, perRequest, signature] of leaks) {
  test(`diff finds the ${fixture} leak: ${className} grows ${perRequest} per request, one path`, async () => {
    const { out, files } = await diffFixture(fixture);
    try {
      assert.equal(out.sameProcess, true);
      const row = classRow(out, className);
      assert.equal(row.countDelta, 2 * REQUESTS * perRequest, `${className} count delta`);
      assert.equal(row.newCount, 2 * REQUESTS * perRequest);
      assert.equal(row.grewEveryInterval, true);
      assert.equal(out.verdict, 'leak');
      const finding = out.findings[0]!;
      assert.equal(finding.kind, 'leak');
      assert.ok(
        finding.className === className || finding.alsoHeld?.some((h) => h.endsWith(`× ${className}`)),
        `the top finding is ${className} or holds it: ${finding.className} / ${finding.alsoHeld?.join(', ')}`,
      );
      if (fixture === 'als-timer') {
        assert.ok(finding.chain.some((hop) => hop.label?.kind === 'async-context'), 'the ALS store hop is labelled');
        assert.ok(finding.chain.some((hop) => hop.label?.kind === 'async-resource' && hop.node.className === 'Timeout'), 'the capturing Timeout is named');
        assert.match(finding.fix, /AsyncLocalStorage context/);
      }
      const group = groupOf(out, className);
      assert.equal(group.count, 2 * REQUESTS * perRequest, 'all survivors of the class share one path');
      assert.deepEqual(group.counts, [0, REQUESTS * perRequest, 2 * REQUESTS * perRequest]);
      assert.match(group.signature, signature);
      assert.equal(group.chain[0]!.node.className, className);
      assert.equal(group.chain[group.chain.length - 1]!.node.className, '(root)', 'the chain ends at the root');
      assert.ok(group.chain.slice(0, -1).every((hop) => hop.edge !== null && hop.edge.type !== 'weak'), 'no weak edge in a chain');
      const r = await runCli(['retainers', files[2]!, '--class', className, '--json']);
      assert.equal(r.code, 0, r.stderr);
      const retainers = JSON.parse(r.stdout);
      assert.ok(retainers.target.count >= 3 * REQUESTS * perRequest);
      assert.match(retainers.paths[0].signature, signature);
      assert.equal(retainers.paths[0].chain[0].node.className, className);
    } finally {
      removeSnapshots(files);
    }
  });
}

test('the control passes --max-growth and no class grows per request', async () => {
  const { out, code, files, stderr } = await diffFixture('control', ['--max-growth', '1MB']);
  try {
    assert.equal(code, 0, stderr);
    assert.deepEqual(out.gates.map((g) => [g.gate, g.passed]), [['max-growth', true]]);
    assert.ok(out.verdict === 'none' || out.verdict === 'warm-up', `control verdict: ${out.verdict} ${JSON.stringify(out.findings.map((f) => f.className))}`);
    for (const c of out.classes) {
      assert.ok(!(c.grewEveryInterval && c.countDelta >= REQUESTS), `${c.name} grew by ${c.countDelta} in every interval`);
    }
  } finally {
    removeSnapshots(files);
  }
});

test('a leaking fixture fails --max-growth with exit 1 and a one-line reason naming the top group', async () => {
  const { code, files, stderr } = await diffFixture('client-array', ['--max-growth', '1KB']);
  try {
    assert.equal(code, 1);
    assert.match(stderr, /^leakhunt: FAIL max-growth: live heap grew by [\d.]+ (?:B|KiB|MiB), over the 1000 B allowed; top survivor group: \d+ × \S+/m);
  } finally {
    removeSnapshots(files);
  }
});

test('snapshots in the wrong order are put in order with a warning; snapshots of two processes fall back to classes', async () => {
  const a = await takeSnapshotSeries('map-cache', 2, { requests: 50 });
  const b = await takeSnapshotSeries('map-cache', 1, { requests: 80 });
  try {
    const reversed = await runCli(['diff', a[1]!, a[0]!, '--json']);
    assert.equal(reversed.code, 0, reversed.stderr);
    assert.match(reversed.stderr, /warning: the snapshots were not given oldest first/);
    const r = JSON.parse(reversed.stdout) as DiffJson;
    assert.equal(classRow(r, 'CacheEntry').countDelta, 50);
    const mixed = await runCli(['diff', a[0]!, b[0]!, '--json']);
    assert.equal(mixed.code, 0, mixed.stderr);
    assert.match(mixed.stderr, /do not come from one process/);
    const m = JSON.parse(mixed.stdout) as DiffJson;
    assert.equal(m.sameProcess, false);
    assert.equal(m.survivors, null);
    assert.equal(classRow(m, 'CacheEntry').countDelta, 30);
  } finally {
    removeSnapshots([...a, ...b]);
  }
});
