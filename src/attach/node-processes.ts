// The Node.js processes on this host that leakhunt could look at, from /proc only (no signal, nothing
// sent): for the MCP server's list_node_processes. Each with what the preflight reads: its command, RSS,
// the cgroup limit it lives under, whether SIGUSR1 would open its inspector, and whether an inspector
// already listens (started with --inspect, or a listening socket on its inspector port).

import { readdirSync } from 'node:fs';
import { runPreflight } from './preflight.js';
import { looksLikeNode, PROC_ROOT, readCmdline, readExe } from './proc-status.js';

export interface NodeProcess {
  readonly pid: number;
  readonly command: string;
  readonly uid: number;
  readonly rssBytes: number;
  /** The binding cgroup memory limit; null when none. */
  readonly cgroupLimitBytes: number | null;
  /** SigCgt has SIGUSR1: the signal opens the inspector rather than killing the process. */
  readonly sigusr1Caught: boolean;
  /** Why leakhunt would not send SIGUSR1 (absent: it would). */
  readonly signalRefusal?: string;
  readonly inspectorOpen: boolean;
  readonly inspectorPort?: number;
}

export function listNodeProcesses(procRoot = PROC_ROOT): NodeProcess[] {
  const pids = readdirSync(procRoot).filter((n) => /^\d+$/.test(n)).map(Number).filter((p) => p !== process.pid);
  const found: NodeProcess[] = [];
  for (const pid of pids.sort((a, b) => a - b)) {
    try {
      const argv = readCmdline(pid, procRoot);
      if (!looksLikeNode(readExe(pid, procRoot), argv)) continue;
      const p = runPreflight(pid, { observeOnly: true, procRoot });
      const listeningOnPort = p.flags.port !== 0 && p.listening.some((s) => s.port === p.flags.port);
      const inspectorOpen = listeningOnPort || (p.flags.inspectAtStart && p.listening.length > 0);
      found.push({
        pid,
        command: argv.join(' ').slice(0, 200),
        uid: p.uid.target,
        rssBytes: p.rssBytes,
        cgroupLimitBytes: p.memory.cgroup?.limitBytes ?? null,
        sigusr1Caught: p.signal.caught,
        ...(p.signal.refusal ? { signalRefusal: p.signal.refusal } : {}),
        inspectorOpen,
        ...(inspectorOpen && p.flags.port !== 0 ? { inspectorPort: p.flags.port } : {}),
      });
    } catch {
      // Gone between the listing and the read, or not ours to read: not a candidate.
    }
  }
  return found;
}
