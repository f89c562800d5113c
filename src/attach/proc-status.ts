// Facts about a process read from /proc/PID without touching it: does it exist, who owns it, what
// binary and arguments it runs, its resident memory, its signal masks and its pid in nested pid
// namespaces. Every reader takes the /proc root so that tests can point it at a fake tree.

import { readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';

export const PROC_ROOT = '/proc';

/** Bit of SIGUSR1 (signal 10) in the SigCgt / SigBlk / SigIgn masks of /proc/PID/status. */
export const SIGUSR1_MASK = 0x200n;

export interface ProcStatus {
  /** The thread name of the main thread (`comm`): `node`, or `MainThread` on Node 24. Not a proof of anything. */
  readonly name: string;
  /** Real, effective, saved and filesystem uid. */
  readonly uids: readonly number[];
  /** Resident set size in bytes (VmRSS); 0 for kernel threads and zombies. */
  readonly rssBytes: number;
  /** Peak resident set size in bytes (VmHWM). */
  readonly peakRssBytes: number;
  readonly sigCgt: bigint;
  readonly sigBlk: bigint;
  readonly sigIgn: bigint;
  /** The pid as seen from each pid namespace, outermost first (NSpid); [pid] when not nested. */
  readonly nsPids: readonly number[];
  /** Zombie or dead: the process is gone but not yet reaped. */
  readonly exited: boolean;
}

/** Parses the text of /proc/PID/status (or /proc/PID/task/TID/status). */
export function parseProcStatus(text: string): ProcStatus {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  const kb = (key: string): number => {
    const m = /^(\d+)\s*kB$/.exec(fields.get(key) ?? '');
    return m ? Number(m[1]) * 1024 : 0;
  };
  const mask = (key: string): bigint => {
    const v = fields.get(key);
    return v && /^[0-9a-f]+$/i.test(v) ? BigInt(`0x${v}`) : 0n;
  };
  const ints = (key: string): number[] => (fields.get(key) ?? '').split(/\s+/).filter(Boolean).map(Number);
  const state = fields.get('State') ?? '';
  return {
    name: fields.get('Name') ?? '',
    uids: ints('Uid'),
    rssBytes: kb('VmRSS'),
    peakRssBytes: kb('VmHWM'),
    sigCgt: mask('SigCgt'),
    sigBlk: mask('SigBlk'),
    sigIgn: mask('SigIgn'),
    nsPids: ints('NSpid'),
    exited: /^[ZX]/.test(state),
  };
}

export function readProcStatus(pid: number | 'self', procRoot = PROC_ROOT): ProcStatus {
  return parseProcStatus(readFileSync(`${procRoot}/${pid}/status`, 'utf8'));
}

/** True while /proc/PID exists and the process is not a zombie. */
export function processAlive(pid: number, procRoot = PROC_ROOT): boolean {
  try {
    return !readProcStatus(pid, procRoot).exited;
  } catch {
    return false;
  }
}

/** The status of every thread of the process (for the per-thread SigBlk). */
export function readThreadStatuses(pid: number, procRoot = PROC_ROOT): ProcStatus[] {
  const out: ProcStatus[] = [];
  let tids: string[] = [];
  try {
    tids = readdirSync(`${procRoot}/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      out.push(parseProcStatus(readFileSync(`${procRoot}/${pid}/task/${tid}/status`, 'utf8')));
    } catch {
      // the thread ended while we looked
    }
  }
  return out;
}

/** argv of the process (NUL-separated /proc/PID/cmdline); empty when unreadable. */
export function readCmdline(pid: number, procRoot = PROC_ROOT): string[] {
  try {
    const args = readFileSync(`${procRoot}/${pid}/cmdline`, 'utf8').split('\0');
    if (args[args.length - 1] === '') args.pop();
    return args;
  } catch {
    return [];
  }
}

/** The executable's path (/proc/PID/exe), or undefined when it cannot be read (other user, kernel thread). */
export function readExe(pid: number, procRoot = PROC_ROOT): string | undefined {
  try {
    return readlinkSync(`${procRoot}/${pid}/exe`).replace(/ \(deleted\)$/, '');
  } catch {
    return undefined;
  }
}

/** One variable of the process's initial environment (/proc/PID/environ), e.g. NODE_OPTIONS. */
export function readEnvironVar(pid: number, name: string, procRoot = PROC_ROOT): string | undefined {
  try {
    const prefix = `${name}=`;
    const entry = readFileSync(`${procRoot}/${pid}/environ`, 'utf8').split('\0').find((e) => e.startsWith(prefix));
    return entry?.slice(prefix.length);
  } catch {
    return undefined;
  }
}

/** The network namespace of a process (`net:[4026531833]`), or undefined when unreadable. */
export function readNetNamespace(pid: number | 'self', procRoot = PROC_ROOT): string | undefined {
  try {
    return readlinkSync(`${procRoot}/${pid}/ns/net`);
  } catch {
    return undefined;
  }
}

/**
 * Whether the executable is Node: the exe's base name, else argv[0]'s. Node 24 names its main thread
 * `MainThread`, so `comm` (the Name field) cannot tell; `node`, `nodejs` and versioned names
 * (`node20`, `node-22`) count.
 */
export function looksLikeNode(exe: string | undefined, argv: readonly string[]): boolean {
  const base = (p: string | undefined): string => (p ?? '').split('/').pop() ?? '';
  const isNode = (name: string): boolean => /^(node|nodejs)([-_.]?\d[\w.]*)?$/.test(name);
  return isNode(base(exe)) || (exe === undefined && isNode(base(argv[0])));
}

/**
 * Resets this process's peak RSS (VmHWM) by writing 5 to /proc/self/clear_refs (Linux ≥ 4.0), so the
 * peak of a later phase can be read on its own. False when the kernel or a sandbox refuses.
 */
export function resetPeakRss(procRoot = PROC_ROOT): boolean {
  try {
    writeFileSync(`${procRoot}/self/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the process is gone within `timeoutMs`. A dying process closes its sockets a moment before it
 * becomes a zombie, so a dropped inspector connection is followed by this short wait before deciding
 * between "the target exited" and "only the connection was lost".
 */
export async function exitsWithin(pid: number, timeoutMs: number, procRoot = PROC_ROOT): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (processAlive(pid, procRoot)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}
