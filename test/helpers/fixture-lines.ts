// Lines of a fixture's source, found in its text at run time (never hard-coded): the line an allocation
// site should name. Used by test/e2e/attach-trace-allocations.test.ts and scripts/bench-sites.js.

import { readFileSync } from 'node:fs';

/** 1-based line of the first line of `file` that matches `pattern`. */
export function lineOf(file: string, pattern: RegExp): number {
  const lines = readFileSync(file, 'utf8').split('\n');
  const at = lines.findIndex((l) => pattern.test(l));
  if (at < 0) throw new Error(`${pattern} is not in ${file}`);
  return at + 1;
}

/** 1-based line of the function declaration that encloses line `line` (the nearest `function` above it). */
export function enclosingFunctionLine(file: string, line: number): number {
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = line - 1; i >= 0; i--) if (/^\s*(async\s+)?function\s/.test(lines[i]!)) return i + 1;
  throw new Error(`no function encloses line ${line} of ${file}`);
}
