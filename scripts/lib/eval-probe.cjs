// The evaluation's truth check (docs/evaluation.md): runs one generator program in this process (params in
// LEAKHUNT_EVAL_PARAMS, as the eval passes them) and, from its "serving" moment on, prints one JSON line of
// process.memoryUsage() after a full GC every LEAKHUNT_EVAL_PROBE_MS: what the program really keeps,
// measured without leakhunt. Needs --expose-gc. Started by `npm run eval -- --truth-check`, which names the
// program's template in LEAKHUNT_EVAL_PROGRAM (run-program.ts templateOf).
'use strict';

const everyMs = Number(process.env.LEAKHUNT_EVAL_PROBE_MS) || 2000;
const samples = Number(process.env.LEAKHUNT_EVAL_PROBE_SAMPLES) || 5;
const write = process.stderr.write.bind(process.stderr);
let taken = 0;
process.stderr.write = (chunk, ...rest) => {
  // the program's one line says it is warm: the probe starts there
  if (String(chunk).startsWith('eval-program: serving') && taken === 0) setTimeout(probe, 0);
  return write(chunk, ...rest);
};
function probe() {
  globalThis.gc();
  const m = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ t: Date.now(), turns: globalThis.__evalTurns, rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers })}\n`);
  if (++taken < samples) setTimeout(probe, everyMs);
  else process.exit(0);
}
require(process.env.LEAKHUNT_EVAL_PROGRAM || '../../fixtures/generator/program.cjs');
