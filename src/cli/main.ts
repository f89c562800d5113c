// The command line: commander wiring, and the one place errors become exit codes and one-line messages.

import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { ExitCode, LeakhuntError } from '../errors.js';
import { registerAnalyze } from './commands/analyze.js';
import { registerAttach } from './commands/attach.js';
import { registerDiff } from './commands/diff.js';
import { registerRetainers } from './commands/retainers.js';
import { registerSnapshot } from './commands/snapshot.js';
import { registerWatch } from './commands/watch.js';
import { ExitStatus, type GlobalOptions } from './global-options.js';

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export function buildProgram(status: ExitStatus): Command {
  const program = new Command('leakhunt');
  const globals = (): GlobalOptions => {
    const o = program.opts<{ debug?: boolean; color?: boolean }>();
    return { debug: o.debug === true, noColor: o.color === false };
  };
  program
    .description('Find what grows in a Node.js process, what keeps it alive, and what to change.')
    .version(packageVersion(), '-V, --version')
    .option('--debug', 'print stack traces for errors')
    .option('--no-color', 'no colours (also: NO_COLOR=1, or when stdout is not a terminal)')
    .exitOverride()
    .configureOutput({
      outputError: (text, write) => write(`leakhunt: ${text.replace(/^error: /, '').trimEnd()} (see --help)\n`),
    });
  registerAnalyze(program, globals);
  registerDiff(program, globals, status);
  registerRetainers(program, globals);
  registerAttach(program, globals, status);
  registerSnapshot(program, globals, status);
  registerWatch(program, globals);
  program.addHelpText('after', `
Examples:
  $ leakhunt attach 4242                          preflight, memory timeline, 3 snapshots a minute apart, what grows
  $ leakhunt watch 4242 --heap --every 1m         a memory line a minute; slope, time to the limit, what grows
  $ leakhunt snapshot 4242 -o now.heapsnapshot    one snapshot of a running process, inspector closed again
  $ leakhunt analyze prod.heapsnapshot            top classes and largest objects of one snapshot
  $ leakhunt diff s1.heapsnapshot s2.heapsnapshot s3.heapsnapshot --max-growth 1MB
                                                  what grew, what survived and what holds it; exit 1 over 1 MB
  $ leakhunt retainers prod.heapsnapshot --class CompiledStateGraph
                                                  the chains that keep every CompiledStateGraph alive

Exit codes: 0 clean, 1 leak found or threshold crossed, 2 usage, 3 bad snapshot, 4 cannot attach, 70 bug.`);
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  const status = new ExitStatus();
  const program = buildProgram(status);
  try {
    await program.parseAsync([...argv]);
    return status.code;
  } catch (e) {
    return exitCodeFor(e, argv.includes('--debug'));
  }
}

function exitCodeFor(e: unknown, debug: boolean): number {
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') {
      return ExitCode.ok;
    }
    return ExitCode.usage; // commander already printed the one-line reason
  }
  if (e instanceof LeakhuntError) {
    process.stderr.write(`leakhunt: ${e.message}\n`);
    if (debug && e.stack) process.stderr.write(`${e.stack}\n`);
    return e.exitCode;
  }
  const err = e instanceof Error ? e : new Error(String(e));
  process.stderr.write(`leakhunt: internal error: ${err.message}${debug ? '' : ' (run with --debug for the stack trace)'}\n`);
  if (debug && err.stack) process.stderr.write(`${err.stack}\n`);
  return ExitCode.internal;
}
