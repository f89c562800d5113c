// The import rules of STYLE.md, checked on the source: cli → attach | snapshot | analysis | diagnose |
// report; diagnose → analysis → snapshot; report reads result types only; snapshot and attach import
// nothing of ours but errors; only src/cli touches the terminal (console, chalk, cli-table3, exit).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : name.endsWith('.ts') ? [p] : [];
  });
}

/** Which top-level module each module may import (besides itself, errors.ts and units.ts). */
const ALLOWED: Record<string, string[]> = {
  cli: ['attach', 'snapshot', 'analysis', 'diagnose', 'report', 'index.ts', 'testing'],
  attach: [],
  snapshot: [],
  analysis: ['snapshot'],
  diagnose: ['analysis', 'snapshot'],
  report: ['analysis', 'diagnose', 'snapshot', 'attach'],
  // attach for the flags held off while allocations are tracked (one rule for a target and this process).
  testing: ['snapshot', 'analysis', 'diagnose', 'report', 'attach'],
  'index.ts': ['snapshot', 'analysis', 'diagnose', 'report', 'attach'],
  'errors.ts': [],
  'units.ts': [],
};

const TERMINAL = /\bconsole\.|process\.exit|from 'chalk'|from 'cli-table3'|process\.argv/;

for (const file of sourceFiles(SRC)) {
  const rel = relative(SRC, file);
  const top = rel.includes('/') ? rel.split('/')[0]! : rel;
  test(`imports of src/${rel} follow the layering`, () => {
    const text = readFileSync(file, 'utf8');
    const allowed = ALLOWED[top];
    assert.ok(allowed, `src/${top} is not a known module; add it to the layering table`);
    for (const m of text.matchAll(/from '(\.[^']+)'/g)) {
      const target = relative(SRC, join(file, '..', m[1]!)).replace(/\.js$/, '.ts');
      const targetTop = target.includes('/') ? target.split('/')[0]! : target;
      if (targetTop === top || targetTop === 'errors.ts' || targetTop === 'units.ts') continue;
      assert.ok(allowed.includes(targetTop), `src/${rel} imports ${target}: ${top} may not import ${targetTop}`);
    }
    // Report may only import types from the engine, never run it.
    if (top === 'report') {
      for (const m of text.matchAll(/^(?:import|export) (?!type )[^;]*from '(\.\.\/[^']+)'/gm)) {
        if (m[1] === '../units.js') continue; // a leaf of formatting, not the engine
        assert.fail(`src/${rel} imports a value from ${m[1]}; report reads result types only`);
      }
    }
    if (top !== 'cli') assert.doesNotMatch(text, TERMINAL, `only src/cli may print, exit or colour (src/${rel})`);
  });
}
