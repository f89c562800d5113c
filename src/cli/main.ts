// The command line: commander wiring, and the one place errors become exit codes and one-line messages.

import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { describeSystemError, isPlaceRefusal, systemErrorOf } from '../attach/system-error.js';
import { ExitCode, LeakhuntError } from '../errors.js';
import { ExitStatus, type GlobalOptions } from './global-options.js';

type Register = (program: Command, globals: () => GlobalOptions, status: ExitStatus) => void;

/**
 * Each command's module, loaded on demand: a run loads the command it runs (attach's inspector client
 * and analyze's engine are ~0.1 s of module loading each); help and unknown commands load them all.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  analyze: async () => (await import('./commands/analyze.js')).registerAnalyze,
  diff: async () => (await import('./commands/diff.js')).registerDiff,
  retainers: async () => (await import('./commands/retainers.js')).registerRetainers,
  attach: async () => (await import('./commands/attach.js')).registerAttach,
  snapshot: async () => (await import('./commands/snapshot.js')).registerSnapshot,
  watch: async () => (await import('./commands/watch.js')).registerWatch,
  profile: async () => (await import('./commands/profile.js')).registerProfile,
  report: async () => (await import('./commands/report.js')).registerReport,
  mcp: async () => (await import('./commands/mcp.js')).registerMcp,
};

/** The commands `argv` needs registered: the one it names, or all of them (help, typos, no command). */
function commandsFor(argv: readonly string[]): string[] {
  const named = argv.slice(2).find((a) => !a.startsWith('-'));
  return named !== undefined && named in COMMANDS && !argv.includes('help') ? [named] : Object.keys(COMMANDS);
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export async function buildProgram(status: ExitStatus, argv: readonly string[] = []): Promise<Command> {
  const program = new Command('leakhunt');
  const globals = (): GlobalOptions => {
    const o = program.opts<{ debug?: boolean; color?: boolean }>();
    return { debug: o.debug === true, noColor: o.color === false };
  };
  program
    .description('Find what grows in a Node.js process, what keeps it alive, and what to change.')
    .version(packageVersion(), '-V, --version')
    .option('--debug', 'print stack traces for errors')
    .option('--no-color', 'no colours (also: NO_COLOR=1, or when stdout is not a terminal; FORCE_COLOR=1 forces them)')
    .exitOverride()
    .configureOutput({
      outputError: (text, write) => write(`leakhunt: ${text.replace(/^error: /, '').trimEnd()} (see --help)\n`),
    });
  const registers = await Promise.all(commandsFor(argv).map((name) => COMMANDS[name]!()));
  for (const register of registers) register(program, globals, status);
  forbidFormatPairs(program);
  program.addHelpText('after', `
Examples:
  $ leakhunt attach 4242                          preflight, memory timeline, 3 snapshots a minute apart, what grows
  $ leakhunt watch 4242 --heap --every 1m         a memory line a minute; slope, time to the limit, what grows
  $ leakhunt profile 4242 --interval 30s          which lines allocate what grows (sampling; no heap snapshot)
  $ leakhunt snapshot 4242 -o now.heapsnapshot    one snapshot of a running process, inspector closed again
  $ leakhunt analyze prod.heapsnapshot            top classes and largest objects of one snapshot
  $ leakhunt diff s1.heapsnapshot s2.heapsnapshot s3.heapsnapshot --max-growth 1MB
                                                  what grew, what survived and what holds it; exit 1 over 1 MB
  $ leakhunt retainers prod.heapsnapshot --class CompiledStateGraph
                                                  the chains that keep every CompiledStateGraph alive

Exit codes: 0 clean, 1 leak found or threshold crossed, 2 usage (also: an output path that cannot take the
file: missing or read-only directory, an existing file without --force, a full disk), 3 bad snapshot,
4 cannot attach, 70 bug.`);
  return program;
}

/** Output formats a command cannot print at once: commander refuses the pair before the action runs (exit 2). */
const EXCLUSIVE_FORMATS = [['--json', '--markdown']] as const;

/** Every command that has both options of a pair gets them as commander conflicts: no command file declares them. */
function forbidFormatPairs(program: Command): void {
  for (const command of program.commands) {
    for (const [a, b] of EXCLUSIVE_FORMATS) {
      const first = command.options.find((o) => o.long === a);
      const second = command.options.find((o) => o.long === b);
      if (first && second) first.conflicts(second.attributeName());
    }
  }
}

export async function main(argv: readonly string[]): Promise<number> {
  const status = new ExitStatus();
  try {
    const program = await buildProgram(status, argv);
    await program.parseAsync([...argv]);
    return status.code;
  } catch (e) {
    return exitCodeFor(e, argv.includes('--debug'));
  }
}

function exitCodeFor(e: unknown, debug: boolean): number {
  if (e instanceof CommanderError) {
    // Commander says 0 for help or the version asked for (--help, `help`, --version); anything else it
    // refused, help shown for a bare `leakhunt` (on stderr) included, is a usage error. It printed the
    // reason already.
    return e.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  if (e instanceof LeakhuntError) {
    process.stderr.write(`leakhunt: ${e.message}\n`);
    if (debug && e.stack) process.stderr.write(`${e.stack}\n`);
    return e.exitCode;
  }
  // A write the file system refused that no command turned into an OutputError: still not a bug of ours
  // (a full disk, a read-only mount): exit 2 with the path, like an OutputError.
  const facts = systemErrorOf(e);
  if (facts && isPlaceRefusal(facts)) {
    process.stderr.write(`leakhunt: cannot ${facts.syscall ?? 'write'}${facts.path ? ` ${facts.path}` : ''}: ${describeSystemError(facts)}\n`);
    if (debug && e instanceof Error && e.stack) process.stderr.write(`${e.stack}\n`);
    return ExitCode.usage;
  }
  const err = e instanceof Error ? e : new Error(String(e));
  process.stderr.write(`leakhunt: internal error: ${err.message}${debug ? '' : ' (run with --debug for the stack trace)'}\n`);
  if (debug && err.stack) process.stderr.write(`${err.stack}\n`);
  return ExitCode.internal;
}
