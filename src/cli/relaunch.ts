// Running under transparent huge pages. Fresh memory is the main cost of reading a big snapshot on
// machines that fault pages in slowly (measured on a 2-core VM: 512 MiB touched in 4.4 s with 4 KiB
// pages, 0.4–3 s with huge pages), and glibc only uses huge pages for malloc when
// GLIBC_TUNABLES=glibc.malloc.hugetlb=1 is set before the process starts. So on Linux the CLI starts
// itself once more with the tunable, forwards signals to the child and exits with its code.
// LEAKHUNT_NO_RELAUNCH=1 turns this off.

import { spawn } from 'node:child_process';

const TUNABLE = 'glibc.malloc.hugetlb=1';

export function shouldRelaunch(env: NodeJS.ProcessEnv = process.env): boolean {
  if (process.platform !== 'linux' || env['LEAKHUNT_NO_RELAUNCH'] === '1') return false;
  return !(env['GLIBC_TUNABLES'] ?? '').includes('glibc.malloc.hugetlb');
}

/** Runs this CLI again with the tunable set; resolves with the exit code to use. */
export function relaunch(): Promise<number> {
  const tunables = process.env['GLIBC_TUNABLES'];
  const env = { ...process.env, GLIBC_TUNABLES: tunables ? `${tunables}:${TUNABLE}` : TUNABLE };
  // Its own process group: a terminal's Ctrl-C reaches the child once, through the parent, not twice.
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env, detached: true });
  const forward = (signal: NodeJS.Signals) => () => {
    if (child.exitCode === null) child.kill(signal);
  };
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((s) => [s, forward(s)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  return new Promise((resolve) => {
    child.on('error', () => resolve(70));
    child.on('exit', (code, signal) => {
      for (const [s, handler] of handlers) process.off(s, handler);
      resolve(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 70));
    });
  });
}
