// Runs a test runner (vitest, jest, node --test) as a user would, in a child process from the
// repository root, on the small files under test/runners/, and reads its JSON report. The runner
// files import `leakhunt/test`, which resolves through package.json's exports to the built dist/.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers/take-snapshot.js';

export interface RunnerRun {
  readonly code: number | null;
  readonly output: string;
  /** The jest-style JSON report (vitest's json reporter writes the same shape). */
  readonly report: JsonReport | undefined;
  readonly ms: number;
}

export interface JsonReport {
  readonly numPassedTests: number;
  readonly numFailedTests: number;
  readonly testResults: readonly { readonly name: string; readonly assertionResults: readonly { readonly title: string; readonly status: string; readonly failureMessages: readonly string[] }[] }[];
}

/** The runner's entry script under node_modules, or why there is none. */
export function runnerScript(pkg: 'vitest' | 'jest'): { path?: string; reason?: string } {
  const path = join(repoRoot(), 'node_modules', pkg, pkg === 'vitest' ? 'vitest.mjs' : 'bin/jest.js');
  return existsSync(path) ? { path } : { reason: `${pkg} is not installed (npm ci installs it from devDependencies)` };
}

export function runRunner(
  nodeArgs: readonly string[],
  env: NodeJS.ProcessEnv,
  reportFlag: (file: string) => string[],
  timeoutMs = 300_000,
  node = process.execPath,
): Promise<RunnerRun> {
  const dir = mkdtempSync(join(tmpdir(), 'leakhunt-runner-'));
  const reportFile = join(dir, 'report.json');
  const started = Date.now();
  return new Promise((resolve, reject) => {
    // NODE_TEST_CONTEXT would make a child `node --test` think it runs inside this test file.
    const { NODE_TEST_CONTEXT: _inherited, ...parentEnv } = process.env;
    const child = spawn(node, [...nodeArgs, ...reportFlag(reportFile)], {
      cwd: repoRoot(),
      env: { ...parentEnv, NODE_OPTIONS: '', NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (d: string): void => {
      output = (output + d).slice(-64_000);
    };
    child.stdout.setEncoding('utf8').on('data', keep);
    child.stderr.setEncoding('utf8').on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      let report: JsonReport | undefined;
      try {
        report = JSON.parse(readFileSync(reportFile, 'utf8')) as JsonReport;
      } catch {
        report = undefined;
      }
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, output, report, ms: Date.now() - started });
    });
  });
}

/** Every test of the report by title: status and failure messages. */
export function resultsByTitle(report: JsonReport): Map<string, { status: string; failure: string }> {
  const out = new Map<string, { status: string; failure: string }>();
  for (const file of report.testResults) {
    for (const a of file.assertionResults) out.set(a.title, { status: a.status, failure: a.failureMessages.join('\n') });
  }
  return out;
}

/**
 * What every runner's run must show (test/runners/*.test.*): the report exists, the tests ran in the
 * expected kind of thread, the clean function passed and the leak failed. Returns the leak's failure text.
 */
export function assertCleanPassesLeakFails(run: RunnerRun, thread: string): string {
  assert.ok(run.report, `no JSON report; exit ${run.code}:\n${run.output}`);
  const results = resultsByTitle(run.report);
  assert.equal(results.get('runs in the expected kind of thread')?.status, 'passed', `not in a ${thread} thread:\n${run.output}`);
  assert.equal(results.get('a clean function passes')?.status, 'passed', results.get('a clean function passes')?.failure);
  const leak = results.get('a leak fails the test (expected to fail)');
  assert.equal(leak?.status, 'failed');
  return leak.failure;
}
