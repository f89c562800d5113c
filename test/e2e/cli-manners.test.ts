// The CLI's small manners through the built binary: a bare `leakhunt` is a usage error with the help on
// stderr; --json with --markdown is refused on every command that has both; FORCE_COLOR forces colour
// into a pipe and FORCE_COLOR=0 keeps it out; and a bad option value is refused before any snapshot is
// read (file commands) or any signal is sent (attach, snapshot, watch --heap) — checked on a live Node
// target, whose inspector a SIGUSR1 would open.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startTarget } from '../helpers/live-target.js';
import { buildSampleGraph } from '../helpers/sample-graphs.js';

const dir = mkdtempSync(join(tmpdir(), 'leakhunt-manners-'));
const good = join(dir, 'good.heapsnapshot');
buildSampleGraph().writeFile(good);
/** A snapshot path that does not exist: a command that read it before checking its options would say so. */
const missing = join(dir, 'never-written.heapsnapshot');

test.after(() => rmSync(dir, { recursive: true, force: true }));

const ESC = '\u001b[';
const NO_PID = String(2 ** 22 + 1);

/** The command names listed under "Commands:" in `leakhunt --help`. */
function commandsOf(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]!).filter((name) => name !== 'help');
}

test('bare leakhunt prints the help on stderr and exits 2; --help and `help` print it on stdout and exit 0', async () => {
  const bare = await runCli([]);
  assert.equal(bare.code, 2, bare.stderr);
  assert.equal(bare.stdout, '', 'nothing on stdout');
  assert.match(bare.stderr, /^Usage: leakhunt /);
  assert.deepEqual(commandsOf(bare.stderr).sort(), ['analyze', 'attach', 'diff', 'mcp', 'profile', 'report', 'retainers', 'snapshot', 'watch']);
  assert.match(bare.stderr, /Exit codes:/, 'the whole help, examples and exit codes included');

  const globalsOnly = await runCli(['--no-color']);
  assert.equal(globalsOnly.code, 2, 'global options without a command are still no command');
  assert.match(globalsOnly.stderr, /^Usage: leakhunt /);

  for (const args of [['--help'], ['help']]) {
    const r = await runCli(args);
    assert.equal(r.code, 0, `leakhunt ${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, bare.stderr, `leakhunt ${args.join(' ')} prints the same help on stdout`);
    assert.equal(r.stderr, '');
  }
});

test('--json with --markdown is a usage error (exit 2) on every command that has both, before any work', async () => {
  const help = await runCli(['--help']);
  const names = commandsOf(help.stdout);
  const helps = await Promise.all(names.map((name) => runCli([name, '--help'])));
  const both = names.filter((_, i) => {
    const h = helps[i]!;
    assert.equal(h.code, 0, h.stderr);
    return /^ {2}--json\b/m.test(h.stdout) && /^ {2}--markdown\b/m.test(h.stdout);
  });
  assert.deepEqual(both.sort(), ['analyze', 'attach', 'diff', 'profile', 'retainers'], 'the commands that print JSON and Markdown');
  // Positional arguments a command would act on: a missing file, a pid above Linux's largest (2^22), so
  // a refusal that came after looking at them would name them.
  const operands: Record<string, string[]> = { analyze: [missing], diff: [missing, missing], retainers: [missing, '--id', '1'], attach: [NO_PID], profile: [NO_PID] };
  const runs = both.flatMap((name) => [['--json', '--markdown'], ['--markdown', '--json']].map((order) => [name, ...operands[name]!, ...order]));
  const results = await Promise.all(runs.map((args) => runCli(args)));
  runs.forEach((args, i) => {
    const r = results[i]!;
    const line = `leakhunt ${args.join(' ')}`;
    assert.equal(r.code, 2, `${line}: ${r.stderr}`);
    assert.equal(r.stdout, '', line);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, `${line}: one line: ${r.stderr}`);
    assert.match(r.stderr, /^leakhunt: .*'--json'.*'--markdown'|^leakhunt: .*'--markdown'.*'--json'/, line);
    assert.ok(!r.stderr.includes('never-written') && !r.stderr.includes(NO_PID), `${line}: refused before the file or the pid is looked at`);
  });
});

test('colour: FORCE_COLOR=1 forces it into a pipe, FORCE_COLOR=0, NO_COLOR and --no-color keep it out', async () => {
  const run = (env: NodeJS.ProcessEnv, extra: string[] = []) =>
    runCli([...extra, 'analyze', good, '--top', '3'], { env: { NO_COLOR: undefined, FORCE_COLOR: undefined, ...env } });
  const plain = await run({});
  assert.equal(plain.code, 0, plain.stderr);
  assert.ok(!plain.stdout.includes(ESC), 'a pipe gets no colour by default');

  const forced = await run({ FORCE_COLOR: '1' });
  assert.equal(forced.code, 0, forced.stderr);
  assert.ok(forced.stdout.includes(ESC), 'FORCE_COLOR=1 colours a pipe');
  assert.equal(forced.stdout.replace(/\u001b\[[0-9;]*m/g, ''), plain.stdout, 'the same text, only coloured');

  for (const [what, env, extra] of [
    ['FORCE_COLOR=0', { FORCE_COLOR: '0' }, []],
    ['FORCE_COLOR=1 with NO_COLOR=1', { FORCE_COLOR: '1', NO_COLOR: '1' }, []],
    ['FORCE_COLOR=1 with --no-color', { FORCE_COLOR: '1' }, ['--no-color']],
  ] as const) {
    const r = await run(env, [...extra]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, plain.stdout, `${what}: no colour`);
  }
});

test('bad option values of the file commands are refused before the snapshot is read', async () => {
  const cases: [flag: string, args: string[]][] = [
    ['--top', ['analyze', missing, '--top', '0']],
    ['--sort', ['analyze', missing, '--sort', 'size']],
    ['--paths', ['retainers', missing, '--class', 'Foo', '--paths', 'x']],
    ['--depth', ['retainers', missing, '--class', 'Foo', '--depth', '0']],
    ['--class', ['retainers', missing]],
    ['--top', ['diff', missing, missing, '--top', '-1']],
    ['--groups', ['diff', missing, missing, '--groups', 'some']],
    ['--max-growth', ['diff', missing, missing, '--max-growth', '1XB']],
    ['--max-class-growth', ['diff', missing, missing, '--max-class-growth', 'RunTree']],
    ['--max-survivor-size', ['diff', missing, missing, '--max-survivor-size', 'big']],
    ['--unit-count', ['diff', missing, missing, '--unit-count', '0']],
  ];
  const results = await Promise.all(cases.map(([, args]) => runCli(args)));
  cases.forEach(([flag, args], i) => {
    const r = results[i]!;
    const line = `leakhunt ${args.join(' ')}`;
    assert.equal(r.code, 2, `${line}: ${r.stderr}`);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, `${line}: one line on stderr: ${r.stderr}`);
    assert.ok(r.stderr.includes(flag), `${line}: names ${flag}: ${r.stderr}`);
    assert.ok(!r.stderr.includes('never-written'), `${line}: refused before the file is opened: ${r.stderr}`);
  });
});

test('bad option values of attach, snapshot and watch --heap are refused before any signal reaches the target', { timeout: 120_000 }, async () => {
  const target = await startTarget({ code: 'setInterval(() => {}, 1000)', nodeArgs: ['--inspect-port=0'] });
  const out = join(dir, 'control.heapsnapshot');
  try {
    const pid = String(target.pid);
    const cases: [flag: string, args: string[]][] = [
      ['--snapshots', ['attach', pid, '--snapshots', '1']],
      ['--interval', ['attach', pid, '--interval', 'soon']],
      ['--sample-every', ['attach', pid, '--sample-every', 'x']],
      ['--top', ['attach', pid, '--top', '0']],
      ['--groups', ['attach', pid, '--groups', 'x']],
      ['--findings', ['attach', pid, '--findings', '0']],
      ['--findings', ['attach', pid, '--findings', '-1']],
      ['--findings', ['attach', pid, '--findings', '1.5']],
      ['--max-growth', ['attach', pid, '--max-growth', '1XB']],
      ['--max-class-growth', ['attach', pid, '--max-class-growth', 'RunTree']],
      ['--max-survivor-size', ['attach', pid, '--max-survivor-size', 'big']],
      ['--unit-count', ['attach', pid, '--unit-count', '0']],
      ['--every', ['attach', pid, '--every', '5']],
      ['--counter', ['attach', pid, '--counter', ' ']],
      ['--connect-timeout', ['attach', pid, '--connect-timeout', 'x']],
      ['--json', ['attach', pid, '--json', '--markdown']],
      ['--connect-timeout', ['snapshot', pid, '-o', out, '--connect-timeout', 'x']],
      ['--port', ['snapshot', '--port', '0', '-o', out]],
      ['--every', ['watch', pid, '--heap', '--every', '10ms']],
      ['--for', ['watch', pid, '--heap', '--for', 'x']],
      ['--connect-timeout', ['watch', pid, '--heap', '--connect-timeout', 'x']],
    ];
    // attach gets --out in the test's directory: a case that wrongly went ahead must not write into the checkout.
    const withOut = (args: string[]): string[] => (args[0] === 'attach' ? [...args, '--out', join(dir, 'attach-out')] : args);
    const results = await Promise.all(cases.map(([, args]) => runCli(withOut(args), { timeoutMs: 30_000 })));
    cases.forEach(([flag, args], i) => {
      const r = results[i]!;
      const line = `leakhunt ${args.join(' ')}`;
      assert.equal(r.code, 2, `${line}: ${r.stderr}`);
      assert.ok(r.stderr.includes(flag), `${line}: names ${flag}: ${r.stderr}`);
    });
    assert.ok(target.alive(), 'the target runs on');
    assert.doesNotMatch(target.stderr(), /Debugger listening/, 'no SIGUSR1 reached the target: its inspector never opened');
    assert.deepEqual(target.listeningPorts(), []);

    // The control: with good values the same target does get the signal (so the check above can fail).
    const control = await runCli(['snapshot', pid, '-o', out, '--connect-timeout', '10s'], { timeoutMs: 60_000 });
    assert.equal(control.code, 0, control.stderr);
    assert.match(target.stderr(), /Debugger listening/, 'a good snapshot run opens the inspector with SIGUSR1');
  } finally {
    await target.stop();
  }
});
