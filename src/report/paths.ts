// Paths as a person reads them: relative to the current directory, `node_modules/<package>/…` for a
// dependency wherever it is installed, `node:internal/…` as Node names its own modules. Applied to the
// text of reports (labels name the file a timer's callback is defined in); JSON keeps what the heap said.

import { relative, sep } from 'node:path';

/** One path: absolute (or a file:// URL) in, the shortest readable form out. */
export function readablePath(path: string, cwd: string = process.cwd()): string {
  const plain = path.startsWith('file://') ? decodeURIComponent(path.slice('file://'.length)) : path;
  const modules = plain.lastIndexOf(`${sep}node_modules${sep}`);
  if (modules >= 0) return plain.slice(modules + 1);
  if (!plain.startsWith(sep)) return plain;
  const rel = relative(cwd, plain);
  return rel.startsWith(`..${sep}..${sep}`) || rel === '' ? plain : rel;
}

/** Absolute paths (and file:// URLs) inside a line of text, each made readable; the rest unchanged. */
const ABSOLUTE = /(?<![\w.])(?:file:\/\/)?\/(?:[\w@.+-]+\/)*[\w@.+-]+/g;

export function readablePaths(text: string, cwd: string = process.cwd()): string {
  return text.includes('/') ? text.replace(ABSOLUTE, (p) => readablePath(p, cwd)) : text;
}

/** A package's inner directories, between `node_modules/<package>/` and the file: `build/src/` of grpc-js. */
const PACKAGE_INNER = /(node_modules\/(?:@[\w.-]+\/)?[\w.-]+\/)(?:[\w@.+-]+\/)+(?=[\w@.+-]+(?::\d+)*)/g;

/**
 * Paths made readable, then shortened for a line that names many things (a folded chain): a dependency's
 * file as `node_modules/@grpc/grpc-js/…/internal-channel.js:326:45` (the package and the file, with `…`
 * where its directories were). The full path stays in --verbose, retainers and --html.
 */
export function briefPaths(text: string, cwd: string = process.cwd()): string {
  return readablePaths(text, cwd).replace(PACKAGE_INNER, '$1…/');
}
