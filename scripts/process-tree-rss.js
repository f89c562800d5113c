// Resident memory of a process together with every process it started, sampled from /proc. GNU time's
// "Maximum resident set size" and VmHWM are one process's peak: a CLI that relaunches itself (see
// src/cli/relaunch.ts; on Node without process.execve the parent waits beside its child) would be
// under-counted by the parent's RSS. Used by scripts/bench.js and scripts/bench-attach.js.
import { readFileSync, readdirSync } from 'node:fs';

function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function rssKiBOf(pid) {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0; // exited meanwhile
  }
}

/** `root` and its descendants (children, their children…), live now. */
export function processTree(root) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const ppid = parentOf(name);
    if (ppid === undefined) continue;
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(name));
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/** Summed VmRSS (KiB) of the tree under `root`; `includeRoot: false` for a wrapper such as GNU time. */
export function treeRssKiB(root, { includeRoot = true } = {}) {
  const pids = processTree(root).filter((p) => includeRoot || p !== root);
  return { kiB: pids.reduce((sum, p) => sum + rssKiBOf(p), 0), processes: pids.length };
}

/** Samples the tree every `everyMs` until stop(); stop() returns the peak sum and the most processes seen. */
export function sampleTreeRss(root, { everyMs = 50, includeRoot = true } = {}) {
  let peakKiB = 0;
  let maxProcesses = 0;
  const tick = () => {
    const { kiB, processes } = treeRssKiB(root, { includeRoot });
    peakKiB = Math.max(peakKiB, kiB);
    maxProcesses = Math.max(maxProcesses, processes);
  };
  tick();
  const timer = setInterval(tick, everyMs);
  return {
    peek: () => ({ peakKiB, maxProcesses }),
    stop() {
      clearInterval(timer);
      return { peakKiB, maxProcesses };
    },
  };
}
