// Progress on stderr for anything that takes over a second: percent of bytes while parsing, and the
// analysis phase names with --verbose. On a TTY one line is rewritten in place; otherwise one line per
// file read (its label), nothing else — phases too with --verbose. Silent unless enabled (the CLI turns
// it off for --json unless --progress is given).

export interface Progress {
  bytes(label: string, read: number, total: number): void;
  phase(name: string): void;
  done(): void;
}

const SHOW_AFTER_MS = 1000;

export function createProgress(enabled: boolean, stream: NodeJS.WriteStream = process.stderr, verbose = false): Progress {
  if (!enabled) return { bytes() {}, phase() {}, done() {} };
  const start = Date.now();
  const tty = stream.isTTY === true;
  let shown = false;
  let lastLine = '';
  let lastPercentLogged = -1;
  let lastLabel = '';
  const write = (line: string, force: boolean): void => {
    if (Date.now() - start < SHOW_AFTER_MS && !force) {
      lastLine = line;
      return;
    }
    shown = true;
    lastLine = line;
    if (tty) stream.write(`\r\x1b[K${line}`);
    else stream.write(`${line}\n`);
  };
  return {
    bytes(label, read, total) {
      const percent = total > 0 ? Math.floor((100 * read) / total) : 100;
      if (!tty) {
        // A line per file in a log (a quarter of each with --verbose).
        const quarter = Math.floor(percent / 25) * 25;
        if (verbose ? quarter === lastPercentLogged && label === lastLabel : label === lastLabel) return;
        if (Date.now() - start < SHOW_AFTER_MS) return;
        lastPercentLogged = quarter;
        lastLabel = label;
        write(verbose ? `leakhunt: ${label} ${quarter}%` : `leakhunt: ${label}`, false);
        return;
      }
      if (percent === lastPercentLogged && label === lastLabel) return; // reads are 1 MiB: most change nothing on the line
      lastPercentLogged = percent;
      lastLabel = label;
      write(`leakhunt: ${label} ${percent}% (${(read / 1048576).toFixed(0)} of ${(total / 1048576).toFixed(0)} MiB)`, false);
    },
    phase(name) {
      if (verbose) write(`leakhunt: ${name} (${((Date.now() - start) / 1000).toFixed(1)} s)`, false);
      else if (tty && lastLabel) write(`leakhunt: ${lastLabel}: analysing (${((Date.now() - start) / 1000).toFixed(1)} s)`, false);
    },
    done() {
      if (shown && tty) stream.write('\r\x1b[K');
      void lastLine;
    },
  };
}

/**
 * Whether a command shows progress: `--progress` / `--no-progress` when given, else only for text
 * output (JSON and Markdown go to files and pipes, where progress lines are noise).
 */
export function wantsProgress(command: { getOptionValueSource(key: string): string | undefined }, flag: boolean | undefined, textOutput: boolean): boolean {
  return command.getOptionValueSource('progress') === 'cli' ? flag === true : textOutput;
}
