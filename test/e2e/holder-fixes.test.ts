// The fix follows from where the objects accumulate, on real snapshots: a metrics counter labelled by
// the raw URL (fixtures/metrics-labels.cjs, prom-client's shape) and LangGraph's MemorySaver keeping
// every thread (fixtures/agents/memory-saver-threads.cjs). Both chains pass the module's context and a
// handler closure above the lasting holder; the advice must come from the holder (the hashMap, the
// saver's storage), never "a function … closes over per-request data".

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { removeSnapshots, takeSnapshotSeries } from '../helpers/take-snapshot.js';
import { runCli } from '../helpers/cli.js';

interface Hop { node: { id: number; className: string }; edge: { type: string; name: string } | null }
interface DiffJson { verdict: string; findings: { kind: string; className: string; fix: string; chain: Hop[] }[] }

async function diffFixture(fixture: string, requests: number): Promise<DiffJson> {
  const files = await takeSnapshotSeries(fixture, 3, { requests, requestsBetween: requests });
  try {
    const r = await runCli(['diff', ...files, '--json']);
    assert.ok(r.code === 0 || r.code === 1, `diff ran (exit ${r.code}); stderr: ${r.stderr}`);
    return JSON.parse(r.stdout) as DiffJson;
  } finally {
    removeSnapshots(files);
  }
}

const render = (chain: readonly Hop[]): string => chain.map((h) => `${h.node.className}${h.edge ? `.${h.edge.name}` : ''}`).join(' ← ');

test('a metrics hashMap keyed by the request URL: label cardinality (the route template), not a closure', async () => {
  const out = await diffFixture('metrics-labels', 200);
  assert.equal(out.verdict, 'leak');
  const top = out.findings[0]!;
  const counter = top.chain.find((h) => h.node.className === 'Counter');
  assert.ok(counter && top.chain.some((h) => h.edge?.name === 'hashMap'), `held by the counter's hashMap: ${render(top.chain)}`);
  assert.ok(top.chain.some((h) => h.node.className === 'system / Context'), `the chain passes the module's context: ${render(top.chain)}`);
  assert.match(top.fix, new RegExp(`metric series added to Counter @${counter.node.id} "hashMap".*route template`), top.fix);
  assert.doesNotMatch(top.fix, /closes over/);
});

test('MemorySaver keeping every thread: delete finished threads or use a durable saver, not a closure or an array', async () => {
  const out = await diffFixture('agents/memory-saver-threads', 60);
  assert.equal(out.verdict, 'leak');
  for (const f of out.findings.filter((x) => x.kind === 'leak')) {
    assert.ok(f.chain.some((h) => h.node.className === 'MemorySaver'), `held by the saver: ${render(f.chain)}`);
    assert.match(f.fix, /checkpointer's storage \(MemorySaver @\d+ "(storage|writes)", keyed by thread\).*deleteThread.*durable saver/, `${f.className}: ${f.fix}`);
    assert.doesNotMatch(f.fix, /closes over|pushed into the array/);
  }
});
