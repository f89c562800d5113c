// When a process started, as the kernel records it: field 22 of /proc/PID/stat (`starttime`, clock ticks
// since boot) and the boot it belongs to (/proc/sys/kernel/random/boot_id). With the pid, this names one
// process for good: a pid is reused, a (pid, start ticks, boot id) triple is not. Written into the JSON
// beside each snapshot (capture.ts) so that `leakhunt diff` can tell one process across inspector
// sessions, whose V8 object ids start over, from two processes (src/analysis/diff/snapshot-origin.ts).

import { readFileSync } from 'node:fs';
import { PROC_ROOT } from './proc-status.js';

export interface ProcessStart {
  /** `starttime` of /proc/PID/stat: clock ticks (USER_HZ, 100 on Linux) after boot. */
  readonly startTicks: number;
  /** The kernel's random id of this boot (a UUID); ticks after boot compare only within one boot. */
  readonly bootId: string;
}

/**
 * `starttime` from the text of /proc/PID/stat. The command name (field 2) is in parentheses and may hold
 * spaces and parentheses itself, so fields are counted after the LAST `)`: field 3 is the first there.
 */
export function parseStartTicks(statText: string): number | undefined {
  const close = statText.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = statText.slice(close + 1).trim().split(/\s+/);
  const value = fields[22 - 3];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** The start of `pid` in this boot, or undefined when /proc cannot tell (gone, not Linux, no access). */
export function readProcessStart(pid: number, procRoot = PROC_ROOT): ProcessStart | undefined {
  try {
    const startTicks = parseStartTicks(readFileSync(`${procRoot}/${pid}/stat`, 'utf8'));
    const bootId = readFileSync(`${procRoot}/sys/kernel/random/boot_id`, 'utf8').trim();
    return startTicks === undefined || bootId === '' ? undefined : { startTicks, bootId };
  } catch {
    return undefined;
  }
}
