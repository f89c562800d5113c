// The package a user installs: `npm pack` of this checkout's build, installed into an empty directory
// with npm, then `npx leakhunt --help` and `analyze --json` on a snapshot taken now. Also what the
// tarball holds: LICENSE, README, package.json, the bin and dist/src only, every file package.json
// points at, no source map without its source, no stale build output.
//
// Offline: the app directory gets a lockfile made from the checkout's package-lock.json (its runtime
// packages, same versions and integrity), so npm takes every dependency from its cache by integrity
// and never asks the registry (`npm ci` fills that cache; .ci/run runs it first). `npm pack` runs with
// --ignore-scripts: the build it would run (prepare) is the one `npm test` just did.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../helpers/cli.js';
import { removeSnapshots, takeSnapshot } from '../helpers/take-snapshot.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  license: string;
  bin: Record<string, string>;
  exports: Record<string, Record<string, string>>;
  dependencies: Record<string, string>;
  engines: Record<string, string>;
};

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

async function run(command: string, args: readonly string[], cwd: string, timeoutMs = 60_000): Promise<Run> {
  const start = Date.now();
  const r = await runProcess(command, args, { cwd, timeoutMs });
  return { ...r, ms: Date.now() - start };
}

/** Files under `dir`, as paths relative to it with `/`. */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name), base) : [relative(base, join(dir, e.name))]);
}

/**
 * The app's lockfile: leakhunt from the tarball, and the checkout's runtime packages (not dev-only) at
 * the paths, versions and integrity of its package-lock.json.
 */
function appLockfile(tarballSpec: string): object {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; devOptional?: boolean }> };
  const packages: Record<string, unknown> = {
    '': { name: 'app', dependencies: { [pkg.name]: tarballSpec } },
    [`node_modules/${pkg.name}`]: {
      version: pkg.version, resolved: tarballSpec, license: pkg.license, dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path !== '' && !entry.dev && !entry.devOptional) packages[path] = entry;
  }
  return { name: 'app', lockfileVersion: 3, requires: true, packages };
}

test('the packed tarball installs offline into an empty directory and runs', { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-package-'));
  const started = Date.now();
  const snapshotTaken = takeSnapshot('control', { requests: 20 });
  let snapshot: string | undefined;
  try {
    // Pack.
    const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT);
    assert.equal(pack.code, 0, pack.stderr);
    const [packed] = JSON.parse(pack.stdout) as [{ filename: string; size: number; files: { path: string }[] }];
    const files = packed.files.map((f) => f.path).sort();
    t.diagnostic(`npm pack: ${pack.ms} ms, ${files.length} files, ${packed.size} bytes packed`);

    // What the tarball holds.
    const top = new Set(['LICENSE', 'README.md', 'package.json']);
    const bins = Object.values(pkg.bin).map((p) => p.replace(/^\.\//, ''));
    const strays = files.filter((f) => !top.has(f) && !bins.includes(f) && !f.startsWith('dist/src/'));
    assert.deepEqual(strays, [], 'only LICENSE, README.md, package.json, the bin and dist/src');
    for (const f of [...top, ...bins]) assert.ok(files.includes(f), `${f} is in the tarball`);
    const exported = Object.values(pkg.exports).flatMap((e) => Object.values(e)).map((p) => p.replace(/^\.\//, ''));
    for (const f of exported) assert.ok(files.includes(f), `${f} (package.json exports) is in the tarball`);
    const built = files.filter((f) => f.startsWith('dist/src/') && /\.(d\.ts|js)$/.test(f));
    const stale = built.filter((f) => !existsSync(join(ROOT, f.replace(/^dist\//, '').replace(/\.(d\.ts|js)$/, '.ts'))));
    assert.deepEqual(stale, [], 'no build output without its source in src/ (a stale dist: rm -rf dist && npm run build)');
    const sources = walk(join(ROOT, 'src')).filter((f) => f.endsWith('.ts'));
    const missing = sources.filter((f) => !files.includes(`dist/src/${f.replace(/\.ts$/, '.js')}`));
    assert.deepEqual(missing, [], 'every source file is in the package, built');

    // Install into an empty directory, dependencies from the npm cache only.
    const app = join(dir, 'app');
    mkdirSync(app);
    const spec = `file:../${packed.filename}`;
    writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'app', private: true, dependencies: { [pkg.name]: spec } }, null, 2)}\n`);
    writeFileSync(join(app, 'package-lock.json'), `${JSON.stringify(appLockfile(spec), null, 2)}\n`);
    const install = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, packed.filename)], app);
    assert.equal(install.code, 0, `npm install --offline (an ENOTCACHED: run npm ci first, it fills the cache): ${install.stderr}`);
    t.diagnostic(`npm install --offline: ${install.ms} ms`);
    const installed = join(app, 'node_modules', pkg.name);
    assert.ok(lstatSync(installed).isDirectory() && !lstatSync(installed).isSymbolicLink(), 'a copy from the tarball, not a link to the checkout');
    const installedFiles = walk(installed).sort();
    assert.deepEqual(installedFiles, files, 'the installed package is the tarball');

    // What the user got resolves: LICENSE, and no source map or map reference that points nowhere.
    assert.equal(pkg.license, 'MIT');
    const license = readFileSync(join(installed, 'LICENSE'), 'utf8');
    assert.match(license, /^MIT License\n/);
    assert.match(license, /Copyright \(c\) \d{4} leakhunt contributors/);
    for (const f of installedFiles) {
      const where = join(installed, f);
      if (f.endsWith('.map')) {
        const map = JSON.parse(readFileSync(where, 'utf8')) as { sources: string[]; sourcesContent?: string[] };
        for (const s of map.sources) {
          const resolved = join(where, '..', s);
          assert.ok(map.sourcesContent !== undefined || existsSync(resolved), `${f}: its source ${s} is not in the package`);
        }
      } else if (f.endsWith('.js')) {
        const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(where, 'utf8'))?.[1];
        if (url !== undefined && !url.startsWith('data:')) assert.ok(existsSync(join(where, '..', url)), `${f}: its map ${url} is not in the package`);
      }
    }

    // Run it as a user would.
    const help = await run('npx', ['--no', '--offline', 'leakhunt', '--help'], app);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: leakhunt /);
    snapshot = await snapshotTaken;
    const analyze = await run('npx', ['--no', '--offline', 'leakhunt', 'analyze', snapshot, '--json'], app);
    assert.equal(analyze.code, 0, analyze.stderr);
    const summary = JSON.parse(analyze.stdout) as { schemaVersion: number; snapshot: { nodeCount: number }; classes: { name: string }[] };
    assert.equal(summary.schemaVersion, 1);
    assert.ok(summary.snapshot.nodeCount > 1000, `a real heap: ${summary.snapshot.nodeCount} nodes`);
    assert.ok(summary.classes.length > 0);
    t.diagnostic(`npx leakhunt --help: ${help.ms} ms; analyze --json: ${analyze.ms} ms; whole test: ${Date.now() - started} ms`);
  } finally {
    snapshot ??= await snapshotTaken.catch(() => undefined);
    if (snapshot) removeSnapshots([snapshot]);
    rmSync(dir, { recursive: true, force: true });
  }
});
