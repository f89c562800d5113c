// `npm run demo` as a user sees it (issue 14's target): the real demo — story A, a LangGraph agent that
// leaks a gRPC client per turn, attached over the inspector it opens with SIGUSR1 — run through npm, its
// stdout and stderr on one stream as a terminal shows them, npm's header included, at 100 columns. Twice:
// piped (a log: one line per snapshot) and under a pseudo-terminal (`script`: a live line rewritten in
// place, which a terminal shows once). Each: at most 60 lines, none wider than 100 columns, the verdict
// (LEAK) and the first finding in lines 1–20, the finding naming the class story A leaks (RunTree, the
// AsyncLocalStorage store a grpc-js timer captured; the same class the run's result.json leads with), and
// the HTML report's path printed, the file there. Runs alone: the demo writes demo-out/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { runProcess } from '../helpers/cli.js';
import { displayWidth } from '../../src/cli/render-table.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const COLUMNS = 100;
/** Story A's leaked object: the store the timers captured (fixtures/agents/context-capture.cjs header). */
const STORY_A_CLASS = 'RunTree';
const ENV = { COLUMNS: String(COLUMNS), npm_config_update_notifier: 'false', npm_config_fund: 'false' };

/**
 * The lines a terminal ends up showing for `output`: `\r` returns to the line's start, `ESC[K` clears to
 * its end, other escape sequences draw nothing; a line rewritten in place is one line.
 */
export function screenLines(output: string): string[] {
  const lines: string[] = [];
  let line: string[] = [];
  let col = 0;
  for (let i = 0; i < output.length; i++) {
    const c = output[i]!;
    if (c === '\n') {
      lines.push(line.join(''));
      line = [];
      col = 0;
    } else if (c === '\r') {
      col = 0;
    } else if (c === '\x1b') {
      const m = /^\x1b\[[0-9;?]*([A-Za-z])/.exec(output.slice(i, i + 16));
      if (m?.[1] === 'K') line = line.slice(0, col);
      i += m ? m[0].length - 1 : 0;
    } else {
      const code = output.codePointAt(i)!;
      const ch = String.fromCodePoint(code);
      if (code > 0xffff) i++;
      line[col++] = ch;
    }
  }
  if (line.length > 0) lines.push(line.join(''));
  return lines;
}

interface DemoRun {
  readonly code: number | null;
  readonly lines: string[];
}

async function runDemo(tty: boolean): Promise<DemoRun> {
  const started = Date.now();
  // script(1) gives npm a pseudo-terminal of 100 columns; -e passes the demo's exit code on.
  const r = tty
    ? await runProcess('script', ['-qec', `stty cols ${COLUMNS} rows 60; npm run demo`, '/dev/null'], { cwd: ROOT, env: ENV, timeoutMs: 180_000 })
    : await runProcess('sh', ['-c', 'npm run demo 2>&1'], { cwd: ROOT, env: ENV, timeoutMs: 180_000 });
  const lines = screenLines(r.stdout + r.stderr);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop(); // the prompt comes back here
  process.stderr.write(`# demo (${tty ? 'terminal' : 'piped'}): ${lines.length} lines in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  return { code: r.code, lines };
}

function assertOneScreen(run: DemoRun, how: string): void {
  const shown = run.lines.map((l, i) => `${String(i + 1).padStart(2)} ${l}`).join('\n');
  assert.equal(run.code, 0, `${how}: the demo ends well (a leak found, as expected):\n${shown}`);
  assert.ok(run.lines.length <= 60, `${how}: at most 60 lines, got ${run.lines.length}:\n${shown}`);
  run.lines.forEach((l, i) => assert.ok(displayWidth(l) <= COLUMNS, `${how}: line ${i + 1} is ${displayWidth(l)} columns wide:\n${l}`));
  assert.match(run.lines.slice(0, 4).join('\n'), /^\n> leakhunt@[\d.]+ demo\n> node scripts\/demo\.js\n$/, `${how}: npm's header is counted:\n${shown}`);

  const verdict = run.lines.findIndex((l) => /^Verdict: /.test(l));
  assert.ok(verdict >= 0 && verdict < 20, `${how}: the verdict in lines 1–20 (line ${verdict + 1}):\n${shown}`);
  assert.match(run.lines[verdict]!, /^Verdict: LEAK\b/, `${how}: the verdict is LEAK`);
  const finding = run.lines.findIndex((l) => /^1\. \[\w+\] /.test(l));
  assert.ok(finding > verdict && finding < 20, `${how}: the first finding in lines 1–20 (line ${finding + 1}):\n${shown}`);
  const className = /^1\. \[leak\] (\S+) × /.exec(run.lines[finding]!)?.[1];
  assert.equal(className, STORY_A_CLASS, `${how}: the first finding names what story A leaks:\n${run.lines[finding]}`);
  // its chain names the store and the timer that captured it, its fix the cure, each in the finding's few lines
  const block = run.lines.slice(finding, run.lines.indexOf('', finding)).join('\n').replace(/\n {4,}/g, ' '); // continuations joined
  assert.match(block, /chain: RunTree @\d+ \(AsyncLocalStorage store\)/, `${how}: the chain starts at the store:\n${block}`);
  assert.match(block, /Timeout @\d+ \(captured the store/, `${how}: and names the timer that captured it:\n${block}`);
  assert.match(block, /fix: .*at process scope/, `${how}: the fix:\n${block}`);

  // the same answer as the run's own record
  const result = JSON.parse(readFileSync(join(ROOT, 'demo-out/attach/result.json'), 'utf8')) as { verdict: string; findings: { className: string }[] };
  assert.equal(result.verdict, 'leak');
  assert.equal(result.findings[0]?.className, className, `${how}: the text's first finding is the result's`);

  // where the HTML report is, and that it is there
  const html = run.lines.map((l) => /HTML report: (\S+)$/.exec(l)?.[1]).find((p) => p !== undefined);
  assert.ok(html, `${how}: the HTML report's path is printed:\n${shown}`);
  const file = html.startsWith('/') ? html : join(ROOT, html);
  assert.ok(existsSync(file) && statSync(file).size > 10_000, `${how}: ${file} exists`);
  assert.match(readFileSync(file, 'utf8'), /<section class="verdict leak" id="verdict">/, `${how}: the report says LEAK`);
  assert.ok(run.lines.some((l) => /snapshot.* → demo-out\/attach\b/.test(l)), `${how}: where the snapshots are:\n${shown}`);
}

test('screenLines: a line rewritten in place is one line; escape sequences draw nothing', () => {
  assert.deepEqual(screenLines('a\r\n\r\x1b[Kx 10%\r\x1b[Kx 100%\r\x1b[Kdone\r\nnext\n'), ['a', 'done', 'next']);
  assert.deepEqual(screenLines('long line\rab\n'), ['abng line']);
});

test('npm run demo, piped: at most 60 lines at 100 columns, the LEAK verdict and the first finding in the first 20', { timeout: 200_000 }, async () => {
  assertOneScreen(await runDemo(false), 'piped');
});

test('npm run demo on a terminal (script(1)): the same, the live progress line counted once', { timeout: 200_000 }, async () => {
  assert.ok(existsSync('/usr/bin/script'), 'script(1) from util-linux is needed for a pseudo-terminal');
  const run = await runDemo(true);
  assertOneScreen(run, 'terminal');
  assert.ok(run.lines.some((l) => /^leakhunt: 3 of 3–6 snapshots \(/.test(l)), `one line for the capture on a terminal:\n${run.lines.join('\n')}`);
});
