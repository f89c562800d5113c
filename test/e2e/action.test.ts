// The CI action (action.yml) run as a workflow would run it, by a local runner of its composite steps
// (test/helpers/composite-runner.ts; the upload-artifact steps are recorded, not executed): on a leaking
// zoo program the job fails and the summary holds the report; on a healthy one the job passes. The zoo
// programs make their own load (fixtures/lib/serve.cjs, LEAKHUNT_FIXTURE_RATE); the `load` input here
// is a stand-in process whose start and stop the test checks. Snapshots are paced by the programs'
// request counter, so each run takes seconds.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runComposite, type CompositeRun } from '../helpers/composite-runner.js';
import { processRunning } from '../helpers/live-target.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function runAction(program: string, workspace: string, more: Record<string, string> = {}): CompositeRun {
  return runComposite({
    actionPath: ROOT.replace(/\/$/, ''),
    workspace,
    inputs: {
      start: `LEAKHUNT_FIXTURE_RATE=100 exec node ${join(ROOT, 'fixtures/zoo', `${program}.cjs`)}`,
      load: 'echo $$ > load.pid; exec sleep 300',
      ready: 'sleep 1', // bounded-lru fills its cache in its first second (its .expect.json: warmupMs 1000)
      snapshots: '3',
      counter: 'globalThis.__leakhuntRequests',
      every: '100',
      interval: '2m',
      ...more,
    },
  });
}

const outcome = (run: CompositeRun, name: string): string | undefined => run.steps.find((s) => s.name === name)?.outcome;
const explain = (run: CompositeRun): string => run.steps.map((s) => `${s.name}: ${s.outcome}${s.exitCode ? ` (${s.exitCode})\n${s.stdout}\n${s.stderr}` : ''}`).join('\n');

test('action: a leaking zoo program fails the job, the summary holds the report, the HTML report is uploaded, the service stopped', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'leakhunt-action-'));
  try {
    const run = runAction('map-cache', workspace, { 'upload-snapshots': 'true' });
    assert.equal(run.failed, true, explain(run));
    assert.equal(outcome(run, 'Capture and diagnose'), 'success', explain(run));
    assert.equal(outcome(run, 'Gates'), 'failure', explain(run));
    assert.match(run.steps.find((s) => s.name === 'Gates')!.stdout!, /::error::leakhunt: verdict leak: .*CachedResponse/);
    assert.match(run.summary, /LEAK/);
    assert.match(run.summary, /CachedResponse/);
    const upload = run.steps.find((s) => s.name === 'Upload the HTML report')!;
    assert.equal(upload.outcome, 'recorded');
    assert.equal(upload.uses, 'actions/upload-artifact@v4');
    assert.ok(existsSync(join(workspace, upload.with!['path']!)), `the report it would upload exists: ${upload.with!['path']}`);
    const snapshots = run.steps.find((s) => s.name === 'Upload the snapshots')!;
    assert.equal(snapshots.outcome, 'recorded', 'upload-snapshots: true uploads them');
    assert.equal(run.outputs['verdict'], 'leak');
    const loadPid = Number(readFileSync(join(workspace, 'load.pid'), 'utf8'));
    assert.ok(loadPid > 0 && !processRunning(loadPid), 'the load was started and is stopped');
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
});

// The healthy run also sets working-directory: the service and the load run in it, while
// upload-artifact resolves its path against the workspace, so output-dir must be the workspace's too.
test('action: a healthy zoo program passes; snapshots are not uploaded unless asked; output-dir is the workspace\'s with a working-directory', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'leakhunt-action-'));
  try {
    mkdirSync(join(workspace, 'service'));
    const run = runAction('bounded-lru', workspace, { 'working-directory': 'service' });
    assert.equal(run.failed, false, explain(run));
    assert.equal(outcome(run, 'Gates'), 'success');
    assert.equal(run.outputs['verdict'], 'none', run.summary);
    assert.match(run.summary, /verdict/i);
    assert.equal(outcome(run, 'Upload the snapshots'), 'skipped');
    const upload = run.steps.find((s) => s.name === 'Upload the HTML report')!;
    assert.equal(upload.outcome, 'recorded');
    assert.ok(existsSync(join(workspace, upload.with!['path']!)), `the report it would upload exists under the workspace: ${upload.with!['path']}`);
    assert.equal(run.outputs['report'], join(workspace, 'leakhunt-out', 'report.html'));
    assert.ok(existsSync(join(workspace, 'service', 'load.pid')), 'the load ran in the working directory');
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
});
