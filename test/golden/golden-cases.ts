// The golden cases: which CLI runs on which hand-built snapshots, the exit code each must give, and how
// their output is normalised. Shared by golden.test.ts (which only reads test/golden/expected/) and
// scripts/update-golden.js (the only writer of those files).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.js';
import { buildSampleGraph, buildSeriesGraphs } from '../helpers/sample-graphs.js';

/** The checked-in expected outputs (the source tree, not dist/). */
export const GOLDEN_DIR = fileURLToPath(new URL('../../../test/golden/expected/', import.meta.url));

export interface GoldenCase {
  /** File name under GOLDEN_DIR. */
  readonly name: string;
  readonly args: readonly string[];
  readonly code: number;
}

export interface GoldenInputs {
  readonly dir: string;
  readonly cases: readonly GoldenCase[];
  /** Replaces the temp dir in an output so it compares across runs. */
  normalise(text: string): string;
  /** The arguments with the temp dir replaced, for a test name. */
  describe(args: readonly string[]): string;
  remove(): void;
}

/** Writes the sample and series snapshots to a fresh temp dir and lists the cases over them. */
export function prepareGoldenInputs(): GoldenInputs {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-golden-'));
  const sample = join(dir, 'sample.heapsnapshot');
  buildSampleGraph().writeFile(sample);
  const series = buildSeriesGraphs().map((b, i) => {
    const path = join(dir, `series-${i + 1}.heapsnapshot`);
    b.writeFile(path);
    return path;
  });
  const cases: GoldenCase[] = [
    { name: 'analyze.txt', args: ['analyze', sample], code: 0 },
    { name: 'analyze.json', args: ['analyze', sample, '--json'], code: 0 },
    { name: 'analyze.md', args: ['analyze', sample, '--markdown'], code: 0 },
    { name: 'diff.txt', args: ['diff', ...series, '--max-growth', '100B'], code: 1 },
    { name: 'diff.json', args: ['diff', ...series, '--json'], code: 0 },
    { name: 'diff.md', args: ['diff', ...series, '--markdown'], code: 0 },
    { name: 'retainers-class.txt', args: ['retainers', series[2]!, '--class', 'Session'], code: 0 },
    { name: 'retainers-id.json', args: ['retainers', series[2]!, '--id', '2131', '--json'], code: 0 },
  ];
  return {
    dir,
    cases,
    normalise: (text) => text.split(dir).join('<dir>'),
    describe: (args) => args.map((a) => a.split(dir).join('<dir>')).join(' '),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs one case with the built CLI; the exit code must be the case's. Returns the normalised stdout. */
export async function runGoldenCase(inputs: GoldenInputs, c: GoldenCase): Promise<{ output: string; code: number | null; stderr: string }> {
  const r = await runCli(c.args);
  return { output: inputs.normalise(r.stdout), code: r.code, stderr: r.stderr };
}
