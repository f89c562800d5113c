// `leakhunt profile`'s engine on hand-made profiles: the flattening of V8's sampling profile tree into
// stacks (src/attach/sampling-profile.ts) and the leak-site rules (src/diagnose/profile-growth.ts) — a site
// that grows with the work in every interval is found, folded to the user's frame and the library frame
// it called; a level site, a warm-up, a site with too few samples or below the floor are not.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AllocationFrame } from '../../src/analysis/allocation-site.js';
import { flattenProfile } from '../../src/attach/sampling-profile.js';
import { diagnoseProfile, type ProfilePoint } from '../../src/diagnose/profile-growth.js';

const KIB = 1024;
const user = (line: number, fn = 'handler'): AllocationFrame => ({ function: fn, url: '/srv/app/agent.js', line, column: 5 });
const lib = (fn: string): AllocationFrame => ({ function: fn, url: '/srv/app/node_modules/grpc/client.js', line: 10, column: 3 });
const node = (fn: string): AllocationFrame => ({ function: fn, url: 'node:internal/timers', line: 1, column: 1 });

/** A stack, innermost first: `inner` frames inside the user's frame, then the user frame, then callers. */
const CLIENT_STACK = [lib('Channel'), lib('Client'), user(64, 'searchClient'), user(12, 'turn')];
const CACHE_STACK = [node('Map'), user(30, 'remember'), user(12, 'turn')];

interface SiteSpec {
  readonly stack: readonly AllocationFrame[];
  /** Live sampled objects at each reading, each `size` bytes. */
  readonly samples: readonly number[];
  readonly size?: number;
}

/** Readings every 10 s, the counter advancing 100 a reading; a 30 MiB heap. */
function points(sites: readonly SiteSpec[], counters: readonly number[] = [100, 200, 300, 400, 500, 600]): ProfilePoint[] {
  return counters.map((counter, k) => ({
    elapsedMs: 10_000 * (k + 1),
    counter,
    heapUsed: 30 * KIB * KIB,
    stacks: sites.map((s) => ({ frames: s.stack, bytes: s.samples[k]! * (s.size ?? 32 * KIB), samples: s.samples[k]! })),
  }));
}

const diagnose = (p: ProfilePoint[], counter?: string) =>
  diagnoseProfile({ points: p, samplingInterval: 32 * KIB, target: '4242', ...(counter === undefined ? {} : { counter }) });

test('flattening: one stack per node with live bytes, innermost first, root left out, 1-based lines, samples counted per node', () => {
  const frame = (functionName: string, lineNumber: number) => ({ functionName, url: '/srv/app/agent.js', lineNumber, columnNumber: 4, scriptId: '1' });
  const profile = flattenProfile({
    head: {
      callFrame: { functionName: '(root)', url: '', lineNumber: -1, columnNumber: -1 }, selfSize: 0, id: 1,
      children: [{
        callFrame: frame('turn', 11), selfSize: 100, id: 2,
        children: [{ callFrame: frame('searchClient', 63), selfSize: 65536, id: 3, children: [] }],
      }],
    },
    samples: [{ size: 32768, nodeId: 3, ordinal: 1 }, { size: 32768, nodeId: 3, ordinal: 2 }, { size: 100, nodeId: 2, ordinal: 3 }],
  });
  assert.equal(profile.stacks.length, 2);
  const deep = profile.stacks.find((s) => s.frames.length === 2)!;
  assert.deepEqual(deep.frames.map((f) => [f.function, f.line, f.column]), [['searchClient', 64, 5], ['turn', 12, 5]]);
  assert.equal(deep.bytes, 65536);
  assert.equal(deep.samples, 2);
  assert.equal(profile.totalBytes, 65636);
  assert.equal(profile.totalSamples, 3);
});

test('a site that grows with every unit of work is a leak site, folded to the user\'s line and the library frame it called', () => {
  const p = points([
    { stack: CLIENT_STACK, samples: [20, 40, 60, 80, 100, 120] },
    { stack: CACHE_STACK, samples: [30, 31, 29, 30, 31, 30] }, // level: a bounded cache
  ]);
  const d = diagnose(p, 'globalThis.turns');
  assert.equal(d.verdict, 'leak');
  assert.equal(d.findings.length, 1);
  const f = d.findings[0]!;
  assert.deepEqual(f.allocation.frames, [user(64, 'searchClient'), lib('Client')]);
  assert.equal(f.inUserCode, true);
  assert.equal(f.perUnit, (100 * 32 * KIB) / 500);
  assert.equal(f.perMinute, (100 * 32 * KIB) / 50_000 * 60_000);
  assert.ok(f.allocation.share > 0.95 && f.allocation.share <= 1, `share ${f.allocation.share}`);
  assert.match(f.fix, /agent\.js:64/);
  // The verdict says it comes from sampling and names the attach command that gets the chain.
  assert.match(d.evidence.join('\n'), /sampling/);
  assert.equal(d.attachCommand, 'leakhunt attach 4242 --counter globalThis.turns --every 100');
  assert.ok(d.evidence.some((e) => e.includes(d.attachCommand)));
});

test('growth is measured against the work: uneven work with growth in proportion is a leak site; the same bytes judged by time are not', () => {
  // Turns per interval 50, 500, 50, 500, 50; the site adds 0.1 sampled objects a turn.
  const counters = [100, 150, 650, 700, 1200, 1250];
  const samples = [10, 15, 65, 70, 120, 125];
  const byWork = diagnose(points([{ stack: CLIENT_STACK, samples }], counters));
  assert.equal(byWork.verdict, 'leak', byWork.evidence.join('\n'));
  assert.equal(byWork.model?.workUnit, 'unit');
  const byTime = diagnoseProfile({ points: points([{ stack: CLIENT_STACK, samples }], counters).map(({ counter: _c, ...p }) => p), samplingInterval: 32 * KIB, target: '4242' });
  assert.equal(byTime.verdict, 'none');
  assert.equal(byTime.model?.workUnit, 'ms');
});

test('warm-up (growth in the first intervals only), a level site and a site that grows in one interval are not leak sites', () => {
  const d = diagnose(points([
    { stack: CACHE_STACK, samples: [60, 80, 85, 86, 86, 87] },
    { stack: [lib('Pool'), user(80, 'connect')], samples: [10, 10, 10, 50, 50, 50] },
    { stack: [lib('Parser'), user(90, 'parse')], samples: [40, 38, 44, 41, 39, 42] },
  ]));
  assert.equal(d.verdict, 'none', d.findings.map((f) => f.site).join('\n'));
  assert.equal(d.findings.length, 0);
  assert.ok(d.topSites.every((s) => !(s.checks.growsWithWork && s.checks.enoughSamples && s.checks.matters)));
});

test('too few samples: large objects that grow every interval but are a handful of samples are not a leak site', () => {
  // 1 MiB objects: the bytes clear every floor, but 1 → 6 sampled objects cannot tell growth from luck.
  const d = diagnose(points([{ stack: CLIENT_STACK, samples: [1, 2, 3, 4, 5, 6], size: KIB * KIB }]));
  assert.equal(d.verdict, 'none');
  assert.equal(d.topSites[0]!.checks.growsWithWork, true);
  assert.equal(d.topSites[0]!.checks.enoughSamples, false);
  assert.ok(d.model!.zNeeded > 2, 'the leak level is above two standard deviations of sampling noise');
});

test('below the floor: a steady site whose growth is under 0.2% of the heap is not a leak site', () => {
  // 16 + sampled objects of 64 bytes each: ~1 KiB of growth on a 30 MiB heap.
  const d = diagnose(points([{ stack: CLIENT_STACK, samples: [20, 40, 60, 80, 100, 120], size: 64 }]));
  assert.equal(d.verdict, 'none');
  assert.equal(d.topSites[0]!.checks.matters, false);
});

test('fewer than three readings: no verdict of growth, and the attach command paced by time', () => {
  const d = diagnose(points([{ stack: CLIENT_STACK, samples: [20, 40] }], [100, 200]));
  assert.equal(d.verdict, 'none');
  assert.match(d.evidence[0]!, /at least 3/);
  const timed = diagnoseProfile({ points: points([{ stack: CLIENT_STACK, samples: [1, 2, 3] }], [1, 2, 3]).map(({ counter: _c, ...p }) => p), samplingInterval: 32 * KIB, target: '--port 9229' });
  assert.equal(timed.attachCommand, 'leakhunt attach --port 9229 --interval 10s');
});

test('a counter expression with spaces or quotes is quoted for the shell in the suggested command', () => {
  const d = diagnose(points([{ stack: CLIENT_STACK, samples: [20, 40, 60, 80, 100, 120] }]), "app.stats['turns']");
  assert.equal(d.attachCommand, `leakhunt attach 4242 --counter 'app.stats['\\''turns'\\'']' --every 100`);
});
