#!/usr/bin/env node
// A healthy service compared young against old, as a user compares two pods (issue 23): two instances of
// fixtures/lazy-routes.mjs (route modules loaded on first use with `import()`; nothing kept per request),
// `leakhunt snapshot` of one at --young-ms and of the other at --old-ms after start, `leakhunt diff young
// old --across-processes --json`; --pairs times. Prints the verdict counts and each finding on stdout,
// progress on stderr. The verdict must never be `leak`. Uses the compiled harness (dist/test/helpers/zoo.js,
// runZooCaseAcross): run `npm run build` first.
//   node scripts/healthy-across.js [--pairs 10] [--young-ms 8000] [--old-ms 35000] [--node 20]
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '10' },
    'young-ms': { type: 'string', default: '8000' },
    'old-ms': { type: 'string', default: '35000' },
    node: { type: 'string', default: '20' },
  },
});
const pairs = Number(values.pairs), young = Number(values['young-ms']), old = Number(values['old-ms']);
if (!(pairs >= 1) || !(young >= 0) || !(old > young)) {
  console.error('usage: node scripts/healthy-across.js [--pairs 10] [--young-ms 8000] [--old-ms 35000] [--node 20|22|24]');
  process.exit(2);
}
const { describeAnswer, healthyLazyRoutes, runZooCaseAcross } = await import('../dist/test/helpers/zoo.js');
const verdicts = new Map();
for (let k = 1; k <= pairs; k++) {
  const run = await runZooCaseAcross(healthyLazyRoutes, Number(values.node), young, old - young);
  const verdict = run.out?.verdict ?? `error: ${run.problems.join('; ')}`;
  verdicts.set(verdict, (verdicts.get(verdict) ?? 0) + 1);
  console.error(`healthy-across: pair ${k}/${pairs} on ${run.nodeVersion}: ${verdict} (${(run.durationMs / 1000).toFixed(0)} s)`);
  if (run.out) console.log(`pair ${k}: ${describeAnswer(run.out)}`);
}
console.log(`\n${pairs} pairs, young ${young} ms / old ${old} ms after start, Node ${values.node}: ` +
  [...verdicts].map(([v, n]) => `${v} ${n}`).join(', '));
