// A fixed-seed sample of the evaluation (docs/evaluation.md): 20 programs drawn by test/helpers/eval/draw.ts
// (small heaps, short intervals; quotas per truth), each run as a real process and diagnosed from outside
// with `leakhunt attach <pid> --json`, two at a time. Fails on any wrong answer — a verdict that is not the
// program's truth, an exit code that does not match the verdict, or an `inconclusive` far from the
// detection limit — and prints each failing program's params and the command that replays it.
// `npm run eval -- --sample` prints the same report; `npm run eval` runs the full evaluation on fresh seeds.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawProgram, sampleIndexes, SAMPLE_QUOTAS, truthOf } from '../helpers/eval/draw.js';
import { evaluatePrograms, renderReport, replayCommand } from '../helpers/eval/evaluate.js';
import { summarize } from '../helpers/eval/judge.js';
import { SAMPLE } from '../helpers/eval/sample.js';

test('the sample covers every truth in its quota', () => {
  const truths = sampleIndexes(SAMPLE.seed, SAMPLE.draw).map((k) => truthOf(drawProgram(SAMPLE.seed, k, SAMPLE.draw)));
  for (const [truth, n] of Object.entries(SAMPLE_QUOTAS)) assert.equal(truths.filter((t) => t === truth).length, n, truth);
});

test('the diagnosis answers a fixed-seed sample of drawn programs right', { timeout: 420_000 }, async (t) => {
  const indexes = sampleIndexes(SAMPLE.seed, SAMPLE.draw);
  const started = Date.now();
  const results = await evaluatePrograms({
    seed: SAMPLE.seed,
    indexes,
    node: process.execPath,
    concurrency: SAMPLE.concurrency,
    draw: SAMPLE.draw,
    onResult: (r) => t.diagnostic(`#${r.params.index} truth ${r.truth} → ${r.verdict ?? 'no answer'} ${r.judgement} (${(r.durationMs / 1000).toFixed(0)} s)`),
  });
  t.diagnostic(`${indexes.length} programs in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const wrong = results.filter((r) => r.judgement === 'wrong');
  const report = renderReport(SAMPLE.seed, results, summarize(results), (k) => replayCommand(SAMPLE.seed, k, SAMPLE.replayFlags));
  assert.equal(wrong.length, 0, `${wrong.length} of ${results.length} programs answered wrong:\n${report.join('\n')}`);
});
