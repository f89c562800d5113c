// The TCP ports a process itself listens on: the socket inodes among its open files (/proc/PID/fd)
// intersected with the LISTEN entries of its network namespace (/proc/PID/net/tcp and tcp6). This is
// how a port opened by SIGUSR1 is told apart from 127.0.0.1:9229 held by some other process.

import { endianness } from 'node:os';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { PROC_ROOT, readCmdline } from './proc-status.js';

export interface ListeningSocket {
  /** Address as printed (`127.0.0.1`, `::1`, `0.0.0.0`, `::`). */
  readonly address: string;
  readonly port: number;
  readonly inode: string;
  readonly family: 4 | 6;
}

const TCP_LISTEN = '0A';

/** The socket inodes a process has open (`socket:[12345]` links in /proc/PID/fd). */
export function socketInodes(pid: number, procRoot = PROC_ROOT): Set<string> {
  const inodes = new Set<string>();
  let fds: string[];
  try {
    fds = readdirSync(`${procRoot}/${pid}/fd`);
  } catch {
    return inodes;
  }
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`${procRoot}/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed while we looked
    }
  }
  return inodes;
}

/** Hex bytes of /proc/net/tcp: each 32-bit word is printed in host byte order. */
function wordBytes(hex: string, littleEndian: boolean): number[] {
  const bytes: number[] = [];
  for (let w = 0; w < hex.length; w += 8) {
    const word = [0, 2, 4, 6].map((k) => parseInt(hex.slice(w + k, w + k + 2), 16));
    bytes.push(...(littleEndian ? word.reverse() : word));
  }
  return bytes;
}

function formatIpv6(bytes: readonly number[]): string {
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return `::ffff:${bytes.slice(12).join('.')}`;
  }
  const groups = [0, 1, 2, 3, 4, 5, 6, 7].map((g) => ((bytes[2 * g]! << 8) | bytes[2 * g + 1]!).toString(16));
  // Compress the longest run of zero groups (RFC 5952).
  let best = -1, bestLen = 0;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen && j - i > 1) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

/** LISTEN entries of the text of /proc/PID/net/tcp (family 4) or tcp6 (family 6). */
export function parseListenTable(text: string, family: 4 | 6, littleEndian = endianness() === 'LE'): ListeningSocket[] {
  const out: ListeningSocket[] = [];
  for (const line of text.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 10 || cols[3] !== TCP_LISTEN) continue;
    const [addrHex, portHex] = cols[1]!.split(':');
    if (!addrHex || !portHex) continue;
    const bytes = wordBytes(addrHex, littleEndian);
    out.push({
      address: family === 4 ? bytes.join('.') : formatIpv6(bytes),
      port: parseInt(portHex, 16),
      inode: cols[9]!,
      family,
    });
  }
  return out;
}

/** Every LISTEN socket of the network namespace `pid` lives in. */
export function listenTable(pid: number, procRoot = PROC_ROOT): ListeningSocket[] {
  const out: ListeningSocket[] = [];
  for (const family of [4, 6] as const) {
    try {
      out.push(...parseListenTable(readFileSync(`${procRoot}/${pid}/net/${family === 4 ? 'tcp' : 'tcp6'}`, 'utf8'), family));
    } catch {
      // no IPv6 in this namespace
    }
  }
  return out;
}

/** The TCP sockets `pid` itself listens on. */
export function listeningSocketsOf(pid: number, procRoot = PROC_ROOT): ListeningSocket[] {
  const mine = socketInodes(pid, procRoot);
  return listenTable(pid, procRoot).filter((s) => mine.has(s.inode));
}

export interface PortHolder {
  readonly pid: number;
  readonly argv: readonly string[];
}

/**
 * Which processes hold a listening socket on `port` in the network namespace of `namespacePid`
 * (for error messages: "127.0.0.1:9229 is held by pid 812 (node --inspect server.js)"). Scans
 * /proc/*\/fd, so it is only used on the error path; processes we cannot read are skipped.
 */
export function portHolders(port: number, namespacePid: number, procRoot = PROC_ROOT): PortHolder[] {
  const inodes = new Set(listenTable(namespacePid, procRoot).filter((s) => s.port === port).map((s) => s.inode));
  if (inodes.size === 0) return [];
  const holders: PortHolder[] = [];
  for (const name of readdirSync(procRoot)) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const open = socketInodes(pid, procRoot);
    if ([...inodes].some((i) => open.has(i))) holders.push({ pid, argv: readCmdline(pid, procRoot) });
  }
  return holders;
}

/** Where to connect to reach a socket bound to `address` (the wildcard addresses mean loopback). */
export function connectAddress(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '::1';
  if (address.startsWith('::ffff:')) return address.slice(7);
  return address;
}
