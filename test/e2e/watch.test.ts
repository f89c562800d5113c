// `leakhunt watch` on real processes: with --heap against a target whose Buffers grow (external) and
// one whose objects grow (heap), the summary names the right part; without --heap against a process
// that is not node at all (only /proc is read, nothing is sent). Targets open their inspector on a
// random port (--inspect-port=0), so the two --heap watches run side by side.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { sleep, startTarget } from '../helpers/live-target.js';

interface SampleLine {
  type: 'memory_sample';
  t: number;
  rss: number;
  limit: number | null;
  heapUsed?: number;
  external?: number;
  arrayBuffers?: number;
}

interface SummaryLine {
  type: 'memory_summary';
  samples: number;
  rssBytesPerHour: number;
  parts?: Record<'heap' | 'external' | 'native', { bytesPerHour: number; growing: boolean }>;
  growing: string[];
  timeToLimitMs: number | null;
}

function parseLines(stdout: string): { samples: SampleLine[]; summary: SummaryLine } {
  const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as SampleLine | SummaryLine);
  const summary = lines[lines.length - 1] as SummaryLine;
  assert.equal(summary.type, 'memory_summary');
  const samples = lines.slice(0, -1) as SampleLine[];
  assert.ok(samples.every((s) => s.type === 'memory_sample'), 'only memory_sample lines before the summary');
  return { samples, summary };
}

/** Objects that accumulate fast (~20 k small objects a second) and nothing else. */
const OBJECT_GROWTH = `
const kept = [];
setInterval(() => { for (let i = 0; i < 200; i++) kept.push({ i, label: 'object-' + kept.length }); }, 10);
`;

describe('watch --heap tells which part grows', { concurrency: 2 }, () => {
  test('Buffers kept by closures (closure-buffer): external grows, the heap does not', async () => {
    const target = await startTarget({ fixture: 'closure-buffer', rate: 100, nodeArgs: ['--inspect-port=0'], warmupMs: 500 });
    try {
      const r = await runCli(['watch', String(target.pid), '--heap', '--every', '250ms', '--for', '4s', '--json']);
      assert.equal(r.code, 0, r.stderr);
      const { samples, summary } = parseLines(r.stdout);
      assert.ok(samples.length >= 6, `${samples.length} samples`);
      assert.ok(samples.every((s) => s.rss > 0 && 'limit' in s && s.heapUsed !== undefined && s.external !== undefined && s.arrayBuffers !== undefined));
      assert.equal(summary.growing[0], 'external', JSON.stringify(summary));
      assert.ok(!summary.growing.includes('heap'), `the heap is not called growing: ${JSON.stringify(summary.parts)}`);
      assert.ok(summary.rssBytesPerHour > 0 && summary.timeToLimitMs !== null);
      assert.deepEqual(target.listeningPorts(), [], 'the inspector is closed again');
      await sleep(300);
      assert.ok(target.alive());
    } finally {
      await target.stop();
    }
  });

  test('objects kept in an array: the heap grows, external does not', async () => {
    const target = await startTarget({ code: OBJECT_GROWTH, nodeArgs: ['--inspect-port=0'], warmupMs: 500 });
    try {
      const r = await runCli(['watch', String(target.pid), '--heap', '--every', '250ms', '--for', '4s', '--json']);
      assert.equal(r.code, 0, r.stderr);
      const { summary } = parseLines(r.stdout);
      assert.equal(summary.growing[0], 'heap', JSON.stringify(summary));
      assert.ok(!summary.growing.includes('external'), JSON.stringify(summary.parts));
      assert.deepEqual(target.listeningPorts(), []);
      await sleep(300);
      assert.ok(target.alive());
    } finally {
      await target.stop();
    }
  });
});

test('watch without --heap reads /proc only: any process, no signal, a text line per sample and a summary', async () => {
  const sleeper = await startTarget({ command: ['sleep', '60'] });
  try {
    const r = await runCli(['watch', String(sleeper.pid), '--every', '200ms', '--for', '1s']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n').filter((l) => /^\d\d:\d\d:\d\d {2}rss /.test(l));
    assert.ok(lines.length >= 4, r.stdout);
    assert.match(r.stdout, /^Watched pid \d+ for/m);
    assert.match(r.stdout, /nothing grows beyond the noise/);
    assert.ok(sleeper.alive(), 'sleep was not signalled');
  } finally {
    await sleeper.stop();
  }
});
