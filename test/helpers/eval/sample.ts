// The fixed-seed sample of the evaluation, in one place: test/e2e/eval-sample.test.ts (npm test) and
// `npm run eval -- --sample` run it (docs/evaluation.md, "The sample").

import type { DrawOptions } from './draw.js';

export const SAMPLE = {
  seed: 21,
  // Without the shapes (draw.ts DrawOptions.shapes): the programs the sample ran before they came.
  draw: { maxHeapMB: 40, maxIntervalMs: 2500, shapes: false } satisfies DrawOptions,
  concurrency: 2,
  /** What a replay command of a sample program adds to `--seed S --only K`. */
  replayFlags: ' --max-heap 40 --max-interval 2500 --no-shapes',
} as const;
