// Which Chromium the HTML report tests drive: $LEAKHUNT_CHROMIUM, else a system Chromium, else the one
// the @sparticuz/chromium dev dependency ships (brotli-compressed in the package, unpacked once to the
// temp directory). So `npm ci && npm test` needs no apt step and no root.
//
// The package unpacks straight to $TMPDIR/chromium and trusts any file already there, so a run killed
// mid-unpack would leave a broken browser for every later run, and two test files unpacking at once
// would each see the other's half-written file. Hence one unpack at a time under a lock directory, and
// a marker written only after the unpacked browser is complete; no marker means unpack again.
//
// The packaged binary is built for AWS Lambda and takes NSS, NSPR and expat from the system, which a
// machine with Node and npm only does not have (Debian's slim images, for one); this machine has them
// only because unrelated packages pulled them in. The package ships those libraries too
// (bin/al2023.tar.br) but unpacks them only when it believes it runs on Amazon Linux 2023. So the binary
// is started once (`--version`); when the loader cannot load a library, the package's libraries are
// unpacked beside it (same lock, own marker) and put on LD_LIBRARY_PATH for the browser alone.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync } from 'node:zlib';

const SYSTEM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export interface FoundChromium {
  readonly executablePath: string;
  /** Environment for the browser: the packaged one brings its fonts when the system has none. */
  readonly env: Record<string, string | undefined>;
  readonly source: 'env' | 'system' | 'package';
}

export async function findChromium(): Promise<FoundChromium> {
  const fromEnv = process.env.LEAKHUNT_CHROMIUM;
  if (fromEnv !== undefined) {
    if (!existsSync(fromEnv)) throw new Error(`LEAKHUNT_CHROMIUM=${fromEnv} does not exist`);
    return { executablePath: fromEnv, env: process.env, source: 'env' };
  }
  const system = SYSTEM.find((p) => existsSync(p));
  if (system) return { executablePath: system, env: process.env, source: 'system' };
  return findPackagedChromium();
}

/** The binary @sparticuz/chromium ships, whatever else the machine has (findChromium's last resort). */
export async function findPackagedChromium(): Promise<FoundChromium> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`@sparticuz/chromium ships a linux-x64 Chromium only; on ${process.platform}-${process.arch} install Chromium or set LEAKHUNT_CHROMIUM`);
  }
  const executablePath = await unpackPackaged();
  const fonts = join(tmpdir(), 'fonts');
  let env: Record<string, string | undefined> = existsSync('/etc/fonts/fonts.conf') ? process.env : { ...process.env, FONTCONFIG_PATH: fonts };
  if (loaderError(executablePath, env) !== undefined) {
    const libs = await unpackPackagedLibraries();
    env = { ...env, LD_LIBRARY_PATH: [libs, env['LD_LIBRARY_PATH']].filter(Boolean).join(':') };
    const still = loaderError(executablePath, env);
    if (still !== undefined) throw new Error(`the packaged Chromium cannot start: ${still} (also with the package's own libraries, ${libs}, on LD_LIBRARY_PATH)`);
  }
  return { executablePath, env, source: 'package' };
}

/** The dynamic loader's complaint when the binary cannot start for a missing (or broken) library. */
function loaderError(executablePath: string, env: Record<string, string | undefined>): string | undefined {
  const r = spawnSync(executablePath, ['--version'], { env, encoding: 'utf8', timeout: 30_000 });
  return /error while loading shared libraries: .*/.exec(r.stderr ?? '')?.[0];
}

/** The package exports no package.json: walk up from its entry point to its own. */
function packageDir(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium'));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === '@sparticuz/chromium') return dir;
    if (dirname(dir) === dir) throw new Error('@sparticuz/chromium has no package.json');
    dir = dirname(dir);
  }
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageDir(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** bin/al2023.tar.br unpacked to $TMPDIR/al2023 (where the package itself would put it); its lib/ directory. */
async function unpackPackagedLibraries(): Promise<string> {
  const version = packageVersion();
  const dir = join(tmpdir(), 'al2023');
  const marker = join(tmpdir(), 'al2023.leakhunt-unpacked');
  const done = (): boolean => existsSync(marker) && readFileSync(marker, 'utf8') === version;
  if (done()) return join(dir, 'lib');
  const lock = join(tmpdir(), 'chromium.leakhunt-lock');
  await takeLock(lock);
  try {
    if (done()) return join(dir, 'lib');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const tar = brotliDecompressSync(readFileSync(join(packageDir(), 'bin', 'al2023.tar.br')));
    const r = spawnSync('tar', ['-xf', '-', '-C', dir], { input: tar, encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`tar could not unpack @sparticuz/chromium's al2023.tar.br into ${dir}: ${r.stderr || r.error?.message}`);
    writeFileSync(marker, version);
    return join(dir, 'lib');
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function unpackPackaged(): Promise<string> {
  const version = packageVersion();
  const marker = join(tmpdir(), 'chromium.leakhunt-unpacked');
  const binary = join(tmpdir(), 'chromium');
  const done = (): boolean => existsSync(binary) && existsSync(marker) && readFileSync(marker, 'utf8') === `${version} ${statSync(binary).size}`;
  if (done()) return binary;
  const lock = join(tmpdir(), 'chromium.leakhunt-lock');
  await takeLock(lock);
  try {
    if (done()) return binary;
    // Whatever is there was not finished by us (or is another version): the package would trust it.
    for (const name of ['chromium', 'fonts', 'libGLESv2.so', 'libEGL.so', 'libvk_swiftshader.so', 'vk_swiftshader_icd.json']) {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
    const { default: Chromium } = await import('@sparticuz/chromium');
    const path = await Chromium.executablePath();
    writeFileSync(marker, `${version} ${statSync(path).size}`);
    return path;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** mkdir is atomic: the one that creates the directory holds the lock; a dead holder's lock is taken over. */
async function takeLock(lock: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (!holderAlive(lock)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`${lock} held for 2 minutes by another unpack of Chromium`);
    await sleep(200);
  }
}

function holderAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    // Created but the pid not written yet: give the holder a moment before calling it dead.
    try {
      return Date.now() - statSync(lock).mtimeMs < 5_000;
    } catch {
      return true;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
