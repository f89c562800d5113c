// How much memory a process may still use: the tightest cgroup memory limit on its path (cgroup v2
// `memory.max` / `memory.current`, or v1 `memory.limit_in_bytes` / `memory.usage_in_bytes`, each
// ancestor counts) and the machine's MemAvailable. Used for the snapshot headroom check and for
// `watch`'s time-to-limit.

import { existsSync, readFileSync } from 'node:fs';
import { PROC_ROOT } from './proc-status.js';

export const CGROUP_ROOT = '/sys/fs/cgroup';

/** v1 reports "no limit" as a huge page-aligned number; anything above 2^60 is no limit. */
const NO_LIMIT = 2 ** 60;

export interface CgroupLimit {
  /** The cgroup directory whose limit binds (the least headroom on the path). */
  readonly path: string;
  readonly version: 1 | 2;
  readonly limitBytes: number;
  readonly usageBytes: number;
}

export interface MemoryRoom {
  /** The binding cgroup limit, when any level of the process's cgroup has one. */
  readonly cgroup?: CgroupLimit;
  /** MemAvailable and MemTotal of /proc/meminfo, in bytes. */
  readonly memAvailableBytes?: number;
  readonly memTotalBytes?: number;
  /** The least of the cgroup headroom and MemAvailable; undefined when neither is known. */
  readonly headroomBytes?: number;
  /** The limit `watch` projects towards: the cgroup limit, else the machine's memory. */
  readonly limitBytes?: number;
}

function readNumber(path: string): number | undefined {
  try {
    const text = readFileSync(path, 'utf8').trim();
    if (text === 'max') return Infinity;
    const n = Number(text);
    return Number.isFinite(n) ? (n >= NO_LIMIT ? Infinity : n) : undefined;
  } catch {
    return undefined;
  }
}

/** The memory cgroup of a process from the text of /proc/PID/cgroup: v2 (`0::/a/b`) or v1 (`4:memory:/a/b`). */
export function parseCgroupFile(text: string): { version: 1 | 2; path: string } | undefined {
  let v2: string | undefined;
  for (const line of text.split('\n')) {
    const [, controllers, path] = /^\d+:([^:]*):(.*)$/.exec(line.trim()) ?? [];
    if (path === undefined) continue;
    if (controllers!.split(',').includes('memory')) return { version: 1, path };
    if (controllers === '') v2 = path;
  }
  return v2 === undefined ? undefined : { version: 2, path: v2 };
}

/** The directories from the process's cgroup up to the mount root, innermost first. */
function cgroupLevels(mount: string, path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  const levels: string[] = [];
  for (let k = parts.length; k >= 0; k--) levels.push([mount, ...parts.slice(0, k)].join('/'));
  // In a cgroup namespace the path may be relative to a root we cannot see: keep the existing levels.
  return levels.filter((dir) => existsSync(dir));
}

export function readCgroupLimit(pid: number, procRoot = PROC_ROOT, cgroupRoot = CGROUP_ROOT): CgroupLimit | undefined {
  let info: ReturnType<typeof parseCgroupFile>;
  try {
    info = parseCgroupFile(readFileSync(`${procRoot}/${pid}/cgroup`, 'utf8'));
  } catch {
    return undefined;
  }
  if (!info) return undefined;
  const mount = info.version === 1
    ? `${cgroupRoot}/memory`
    : existsSync(`${cgroupRoot}/cgroup.controllers`) ? cgroupRoot : `${cgroupRoot}/unified`;
  const [limitFile, usageFile] = info.version === 1
    ? ['memory.limit_in_bytes', 'memory.usage_in_bytes']
    : ['memory.max', 'memory.current'];
  let best: CgroupLimit | undefined;
  for (const dir of cgroupLevels(mount, info.path)) {
    const limit = readNumber(`${dir}/${limitFile}`);
    const usage = readNumber(`${dir}/${usageFile}`);
    if (limit === undefined || usage === undefined || !Number.isFinite(limit)) continue;
    if (!best || limit - usage < best.limitBytes - best.usageBytes) {
      best = { path: dir, version: info.version, limitBytes: limit, usageBytes: usage };
    }
  }
  return best;
}

export function readMeminfo(procRoot = PROC_ROOT): { memAvailableBytes?: number; memTotalBytes?: number } {
  try {
    const text = readFileSync(`${procRoot}/meminfo`, 'utf8');
    const kb = (key: string): number | undefined => {
      const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
      return m ? Number(m[1]) * 1024 : undefined;
    };
    const available = kb('MemAvailable'), total = kb('MemTotal');
    return { ...(available === undefined ? {} : { memAvailableBytes: available }), ...(total === undefined ? {} : { memTotalBytes: total }) };
  } catch {
    return {};
  }
}

export function readMemoryRoom(pid: number, procRoot = PROC_ROOT, cgroupRoot = CGROUP_ROOT): MemoryRoom {
  const cgroup = readCgroupLimit(pid, procRoot, cgroupRoot);
  const meminfo = readMeminfo(procRoot);
  const candidates = [
    ...(cgroup ? [Math.max(0, cgroup.limitBytes - cgroup.usageBytes)] : []),
    ...(meminfo.memAvailableBytes === undefined ? [] : [meminfo.memAvailableBytes]),
  ];
  const limitBytes = cgroup?.limitBytes ?? meminfo.memTotalBytes;
  return {
    ...(cgroup ? { cgroup } : {}),
    ...meminfo,
    ...(candidates.length > 0 ? { headroomBytes: Math.min(...candidates) } : {}),
    ...(limitBytes === undefined ? {} : { limitBytes }),
  };
}
