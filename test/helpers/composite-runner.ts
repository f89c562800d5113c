// A small local runner of a composite action's `runs:` block (action.yml), as GitHub's runner runs it
// for a workflow step `uses: ./`: inputs with their defaults, `${{ inputs.* }}`, `${{ github.* }}`,
// `${{ steps.<id>.outputs.* }}` and `${{ runner.temp }}` substituted; each `run:` step in
// `bash --noprofile --norc -eo pipefail` with its env and working-directory, GITHUB_ENV / GITHUB_OUTPUT
// / GITHUB_STEP_SUMMARY / GITHUB_ACTION_PATH / GITHUB_WORKSPACE set and carried between steps as the
// runner does; `if:` with always(), success(), failure(), `&&`, `||`, `!` and `==` / `!=` comparisons.
// `uses:` steps (actions/upload-artifact) are RECORDED, NOT EXECUTED: the test checks what they would
// upload (the paths exist), not the upload itself.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { parse } from 'yaml';

interface Step {
  name?: string;
  id?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
  'working-directory'?: string;
}

interface Action {
  inputs?: Record<string, { required?: boolean; default?: string }>;
  outputs?: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

export interface StepRecord {
  readonly name: string;
  readonly outcome: 'success' | 'failure' | 'skipped' | 'recorded';
  readonly exitCode?: number;
  readonly stdout?: string;
  readonly stderr?: string;
  /** A `uses:` step: what it was given (recorded, not executed). */
  readonly uses?: string;
  readonly with?: Record<string, string>;
}

export interface CompositeRun {
  /** The job would fail: a step failed. */
  readonly failed: boolean;
  readonly steps: readonly StepRecord[];
  /** What the steps appended to $GITHUB_STEP_SUMMARY. */
  readonly summary: string;
  readonly outputs: Record<string, string>;
}

export interface RunOptions {
  readonly actionPath: string;
  /** The workflow's workspace (cwd of the steps). */
  readonly workspace: string;
  readonly inputs: Record<string, string>;
  readonly env?: Record<string, string>;
  /** Per `run:` step. */
  readonly stepTimeoutMs?: number;
}

function keyValueFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      out[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
      continue;
    }
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

export function runComposite(o: RunOptions): CompositeRun {
  const action = parse(readFileSync(join(o.actionPath, 'action.yml'), 'utf8')) as Action;
  if (action.runs.using !== 'composite') throw new Error(`not a composite action: ${action.runs.using}`);
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs ?? {})) {
    const given = o.inputs[name];
    if (given === undefined && spec.required) throw new Error(`input ${name} is required`);
    inputs[name] = given ?? spec.default ?? '';
  }
  for (const name of Object.keys(o.inputs)) if (!(name in inputs)) throw new Error(`unknown input ${name}`);
  const temp = mkdtempSync(join(tmpdir(), 'leakhunt-runner-'));
  const summaryFile = join(temp, 'summary.md');
  writeFileSync(summaryFile, '');
  const stepOutputs: Record<string, Record<string, string>> = {};
  const carried: Record<string, string> = {};
  const records: StepRecord[] = [];
  let failed = false;

  const value = (expr: string): string => {
    const e = expr.trim();
    let m: RegExpExecArray | null;
    if ((m = /^inputs\.([\w-]+)$/.exec(e))) return inputs[m[1]!] ?? '';
    if ((m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(e))) return stepOutputs[m[1]!]?.[m[2]!] ?? '';
    if (e === 'github.action_path') return o.actionPath;
    if (e === 'github.workspace') return o.workspace;
    if (e === 'runner.temp') return temp;
    if ((m = /^'(.*)'$/.exec(e))) return m[1]!;
    throw new Error(`expression not supported by this runner: ${e}`);
  };
  const substitute = (text: string): string => text.replace(/\$\{\{(.*?)\}\}/g, (_, e: string) => value(e));
  const condition = (text: string | undefined): boolean => {
    const e = (text ?? 'success()').replace(/^\$\{\{(.*)\}\}$/s, '$1').trim();
    return e.split('||').some((any) => any.split('&&').every((term) => {
      const t = term.trim();
      if (t === 'always()') return true;
      if (t === 'success()') return !failed;
      if (t === 'failure()') return failed;
      const cmp = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(t);
      if (cmp) return (value(cmp[1]!) === value(cmp[3]!)) === (cmp[2] === '==');
      if (t.startsWith('!')) return !value(t.slice(1));
      return value(t) !== '';
    }));
  };

  try {
    for (const step of action.runs.steps) {
      const name = step.name ?? step.id ?? step.uses ?? 'step';
      if (!condition(step.if)) {
        records.push({ name, outcome: 'skipped' });
        continue;
      }
      if (step.uses !== undefined) {
        const given = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v))]));
        records.push({ name, outcome: 'recorded', uses: step.uses, with: given });
        continue;
      }
      if (step.shell !== 'bash') throw new Error(`${name}: only shell: bash is run here (got ${step.shell})`);
      const envFile = join(temp, 'env');
      const outputFile = join(temp, 'output');
      writeFileSync(envFile, '');
      writeFileSync(outputFile, '');
      const script = join(temp, 'step.sh');
      writeFileSync(script, substitute(step.run ?? ''));
      const wd = step['working-directory'] === undefined ? o.workspace : substitute(step['working-directory']);
      const env = {
        ...process.env, ...o.env, ...carried,
        ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v))])),
        GITHUB_ACTION_PATH: o.actionPath, GITHUB_WORKSPACE: o.workspace, GITHUB_ENV: envFile, GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile, RUNNER_TEMP: temp, CI: 'true', GITHUB_ACTIONS: 'true',
      };
      const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
        cwd: isAbsolute(wd) ? wd : join(o.workspace, wd), env, encoding: 'utf8', timeout: o.stepTimeoutMs ?? 180_000,
      });
      Object.assign(carried, keyValueFile(readFileSync(envFile, 'utf8')));
      if (step.id) stepOutputs[step.id] = keyValueFile(readFileSync(outputFile, 'utf8'));
      const ok = r.status === 0;
      if (!ok) failed = true;
      records.push({ name, outcome: ok ? 'success' : 'failure', exitCode: r.status ?? -1, stdout: r.stdout, stderr: r.stderr });
    }
    const outputs = Object.fromEntries(Object.entries(action.outputs ?? {}).map(([k, v]) => [k, substitute(v.value)]));
    return { failed, steps: records, summary: readFileSync(summaryFile, 'utf8'), outputs };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

