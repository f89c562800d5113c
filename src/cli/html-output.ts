// `--html FILE`: where the HTML report goes is checked when the options are read (before any snapshot
// is read or any signal sent), and the page is written whole (a .partial file renamed, owner-only like
// the snapshots it describes); its path is said on stderr.

import { renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { checkOutputFile } from '../attach/output-place.js';

/**
 * Refuses (exit 2) a path whose directory is missing or read-only, or that is a directory. `pendingDir`
 * is a directory the command creates itself (attach --out): a report inside it is not checked now.
 */
export function checkHtmlPath(path: string | undefined, pendingDir?: string): void {
  if (path === undefined) return;
  if (pendingDir !== undefined && dirname(resolve(path)) === resolve(pendingDir)) return;
  checkOutputFile(path, [], '--html');
}

export function writeHtmlReport(path: string, html: string): string {
  const full = resolve(path);
  const partial = `${full}.partial`;
  writeFileSync(partial, html, { mode: 0o600 });
  renameSync(partial, full);
  process.stderr.write(`leakhunt: HTML report: ${full}\n`);
  return full;
}
