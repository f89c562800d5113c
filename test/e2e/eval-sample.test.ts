// A fixed-seed sample of the evaluation (docs/evaluation.md): 20 programs drawn by test/helpers/eval/draw.ts
// (small heaps, short intervals; quotas per truth), each run as a real process and diagnosed from outside
// with `leakhunt attach <pid> --json`, two at a time. Fails on any wrong answer — a verdict that is not the
// program's truth, an exit code that does not match the verdict, or an `inconclusive` far from the
// detection limit — and prints each failing program's params and the command that replays it.
// `npm run eval` runs the full evaluation on fresh seeds; this sample only keeps the rules honest in CI.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sampleIndexes, SAMPLE_QUOTAS, truthOf, drawProgram, type DrawOptions } from '../helpers/eval/draw.js';
import { evaluatePrograms, renderReport } from '../helpers/eval/evaluate.js';
import { summarize } from '../helpers/eval/judge.js';

const SEED = 21;
const DRAW: DrawOptions = { maxHeapMB: 40, maxIntervalMs: 2500 };
const REPLAY_FLAGS = ' --max-heap 40 --max-interval 2500';

test('the sample covers every truth in its quota', () => {
  const indexes = sampleIndexes(SEED, DRAW);
  const truths = indexes.map((k) => truthOf(drawProgram(SEED, k, DRAW)));
  for (const [truth, n] of Object.entries(SAMPLE_QUOTAS)) assert.equal(truths.filter((t) => t === truth).length, n, truth);
});

test('the diagnosis answers a fixed-seed sample of drawn programs right', { timeout: 420_000 }, async (t) => {
  const indexes = sampleIndexes(SEED, DRAW);
  const started = Date.now();
  const results = await evaluatePrograms({
    seed: SEED,
    indexes,
    node: process.execPath,
    concurrency: 2,
    draw: DRAW,
    onResult: (r) => t.diagnostic(`#${r.params.index} truth ${r.truth} → ${r.verdict ?? 'no answer'} ${r.judgement} (${(r.durationMs / 1000).toFixed(0)} s)`),
  });
  const summary = summarize(results);
  const report = renderReport(SEED, results, summary, REPLAY_FLAGS);
  t.diagnostic(`${indexes.length} programs in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const wrong = results.filter((r) => r.judgement === 'wrong');
  assert.equal(wrong.length, 0, `${wrong.length} of ${results.length} programs answered wrong:\n${report.join('\n')}`);
});
