// The inspector-related flags a Node process was started with, from its argv and NODE_OPTIONS: whether
// it opened its inspector at start (`--inspect`, `--inspect-brk`, `--inspect-wait`), the host and port
// SIGUSR1 will use (`--inspect-port`, default 127.0.0.1:9229), and `--disable-sigusr1`.

export interface InspectorFlags {
  /** Started with --inspect / --inspect-brk / --inspect-wait: the inspector should already listen. */
  readonly inspectAtStart: boolean;
  /** Where the inspector listens or will listen (port 0: a random port). */
  readonly host: string;
  readonly port: number;
  readonly disableSigusr1: boolean;
}

export const DEFAULT_INSPECTOR_HOST = '127.0.0.1';
export const DEFAULT_INSPECTOR_PORT = 9229;

/** Node options that take their value as the next argument (so that value is not the script). */
const TAKES_VALUE = new Set([
  '-r', '--require', '--import', '--loader', '--experimental-loader', '--inspect-port', '--debug-port',
  '--title', '--conditions', '-C', '--env-file', '--input-type', '--stack-size',
]);
/** Options after which there is no script: the rest is code and its arguments. */
const ENDS_OPTIONS = new Set(['-e', '--eval', '-p', '--print', '--']);

/** `9230`, `0.0.0.0:9230`, `[::1]:9230`, `localhost:0` → host and port (host defaults to 127.0.0.1). */
export function parseHostPort(value: string): { host: string; port: number } | undefined {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(value) ?? /^()()(\d+)$/.exec(value);
  if (!m) return undefined;
  const host = m[1] || m[2] || DEFAULT_INSPECTOR_HOST;
  const port = Number(m[3]);
  return port <= 65535 ? { host, port } : undefined;
}

/** The node options of an argv: everything between the executable and the script. */
export function nodeOptionsOf(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) break;
    out.push(arg);
    if (ENDS_OPTIONS.has(arg)) break;
    if (TAKES_VALUE.has(arg) && i + 1 < argv.length) out.push(argv[++i]!);
  }
  return out;
}

/** Reads the inspector flags from node options (argv's first, then NODE_OPTIONS, which Node applies first). */
export function parseInspectorFlags(argv: readonly string[], nodeOptionsEnv?: string): InspectorFlags {
  const options = [...(nodeOptionsEnv?.split(/\s+/).filter(Boolean) ?? []), ...nodeOptionsOf(argv)];
  let inspectAtStart = false;
  let disableSigusr1 = false;
  let host = DEFAULT_INSPECTOR_HOST;
  let port = DEFAULT_INSPECTOR_PORT;
  const setAddress = (value: string | undefined): void => {
    const hp = value === undefined ? undefined : parseHostPort(value);
    if (hp) ({ host, port } = hp);
  };
  for (let i = 0; i < options.length; i++) {
    const opt = options[i]!;
    const eq = opt.indexOf('=');
    const name = eq < 0 ? opt : opt.slice(0, eq);
    const value = eq < 0 ? undefined : opt.slice(eq + 1);
    switch (name) {
      case '--inspect':
      case '--inspect-brk':
      case '--inspect-wait':
        inspectAtStart = true;
        setAddress(value);
        break;
      case '--inspect-port':
      case '--debug-port':
        setAddress(value ?? options[++i]);
        break;
      case '--disable-sigusr1':
        disableSigusr1 = true;
        break;
    }
  }
  return { inspectAtStart, host, port, disableSigusr1 };
}
