// Every message template rendered with sample data and checked for grammar basics: the fixes
// (diagnose/fixes.ts, each branch), the verdict lines and finding layout (report/diagnosis-report.ts),
// the memory-timeline sentence (diagnose/memory-trend.ts), the evidence diagnose() writes for each
// verdict, the folded chain (report/chain-lines.ts). No "1 snapshots", no double spaces, no "a an",
// sentence starts not lower-case after a full stop, no dangling undefined / NaN / [object Object].
// Also: the terminal never prints a line wider than its width; attach --findings N shows N findings in
// full and one line for each of the others.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChainHop, HopLabel } from '../../src/analysis/chain-description.js';
import type { ClassDiffRow, DiffResult, SurvivorGroup } from '../../src/analysis/diff/diff-series.js';
import { backlogFix, fixFields, fixText, suggestFix, type Fix } from '../../src/diagnose/fixes.js';
import { diagnose } from '../../src/diagnose/diagnose.js';
import type { Diagnosis, Finding } from '../../src/diagnose/finding.js';
import { describeTrend, summarizeTrend, type MemorySample } from '../../src/diagnose/memory-trend.js';
import { article } from '../../src/diagnose/chain-labels.js';
import { diagnosisBlocks, VERDICT_TEXT } from '../../src/report/diagnosis-report.js';
import { foldedChainText } from '../../src/report/chain-lines.js';
import { readablePath } from '../../src/report/paths.js';
import { terminalLines } from '../../src/cli/render-terminal.js';
import { Chalk } from 'chalk';
import { displayWidth } from '../../src/cli/render-table.js';

/** Grammar basics every message must pass; returns the problems found. */
function problems(text: string): string[] {
  const out: string[] = [];
  if (/\b1 [a-z]+s\b(?! ago)/.test(text.replace(/\b1 (of|hops? …|class)\b/g, ''))) {
    const m = /\b1 ([a-z]+s)\b/.exec(text);
    if (m && !/^(is|was|has|process|class|bytes?|ms|s)$/.test(m[1]!)) out.push(`singular count with a plural noun: "${m[0]}"`);
  }
  if (/\S {2,}\S/.test(text.trimStart())) out.push('double space');
  if (/\ba an?\b|\ban a\b/i.test(text)) out.push('"a an" / "an a"');
  if (/\ba [aeiou]\w/i.test(text.replace(/\ba (one|use|unit|u[bcfhjkqrstn][aeiou])/gi, ''))) out.push(`"a" before a vowel: ${/\ba [aeiou]\w*/i.exec(text)?.[0]}`);
  if (/\ban [bcdfgjklmnpqrstvwxyz]/i.test(text.replace(/\ban (HTTP|hour)/g, ''))) out.push('"an" before a consonant');
  if (/\b(undefined|NaN|null)\b|\[object Object\]/.test(text)) out.push('a dangling undefined / NaN / null / [object Object]');
  if (/[.!?] [a-z]/.test(text.replace(/\b(e\.g|i\.e|etc|vs)\. /g, '').replace(/\d\.\d/g, ''))) out.push('a sentence starting lower-case');
  if (/ [,;:.]/.test(text.replace(/ \.\w|\.\.\.| …| :\d/g, ''))) out.push('a space before punctuation');
  return out;
}

function check(what: string, text: string): void {
  assert.deepEqual(problems(text), [], `${what}: ${text}`);
}

test('the grammar check catches what it must', () => {
  assert.notDeepEqual(problems('1 snapshots were taken'), []);
  assert.notDeepEqual(problems('two  spaces'), []);
  assert.notDeepEqual(problems('a an apple'), []);
  assert.notDeepEqual(problems('captured by a AsyncResource'), []);
  assert.notDeepEqual(problems('retains undefined'), []);
  assert.notDeepEqual(problems('+NaN per minute'), []);
  assert.notDeepEqual(problems('done. then more'), []);
  assert.deepEqual(problems('1 snapshot of 3 was taken; an AsyncResource and a timer'), []);
});

let nextId = 5000;
function hop(className: string, edge: [string, string] | null, retainedSize = 1000, label?: HopLabel, id = nextId++, type = 'object'): ChainHop {
  return { node: { id, name: className, type, className }, edge: edge ? { type: edge[0], name: edge[1] } : null, selfSize: 32, retainedSize, ...(label ? { label } : {}) };
}
const root = (): ChainHop => hop('(root)', null, 1e6, undefined, 1, 'synthetic');
const storeLabel: HopLabel = { kind: 'async-context', text: 'AsyncLocalStorage store, captured by a timer (setTimeout/setInterval) (Timeout @7)', short: 'AsyncLocalStorage store' };
const resourceLabel = (kind: string, file?: string): HopLabel => ({
  kind: 'async-resource',
  text: `${kind} created inside an AsyncLocalStorage context: it keeps that request's store alive as long as it lives`,
  short: `${kind} that captured the store${file ? `; runs tick() at ${file}:3:9` : ''}`,
});

/** Chains that reach each branch of suggestFix and backlogFix. */
function fixChains(): { name: string; className: string; chain: ChainHop[] }[] {
  return [
    { name: 'library timer', className: 'RunTree', chain: [hop('RunTree', ['property', '<symbol kResourceStore>'], 40000, storeLabel), hop('Timeout', ['property', 'callRefTimer'], 264, resourceLabel('timer (setTimeout/setInterval)')), hop('Object', ['property', 'x']), root()] },
    { name: 'client internals', className: 'RunTree', chain: [hop('RunTree', ['property', '<symbol kResourceStore>'], 40000, storeLabel), hop('Timeout', ['property', 'callRefTimer'], 264, resourceLabel('timer (setTimeout/setInterval)')), hop('InternalChannel', ['context', 'channel']), root()] },
    { name: 'own timer', className: 'Session', chain: [hop('Session', ['property', '<symbol kResourceStore>'], 4000, storeLabel), hop('Timeout', ['property', '_idleNext'], 264, resourceLabel('timer (setTimeout/setInterval)')), hop('TimersList', ['element', '1000']), root()] },
    { name: 'socket', className: 'Session', chain: [hop('Session', ['property', '<symbol kResourceStore>'], 4000, storeLabel), hop('TCP', ['internal', '2'], 264, resourceLabel('TCP socket')), hop('Node / TCPSocketWrap', ['internal', 'x']), root()] },
    { name: 'map', className: 'Run', chain: [hop('Run', ['internal', '12']), hop('(object elements)', ['internal', 'table']), hop('Map', ['property', 'runMap'], 90000), hop('Tracer', ['property', 'tracer']), root()] },
    { name: 'array', className: 'Job', chain: [hop('Job', ['element', '4']), hop('Array', ['property', 'pending'], 90000), hop('Handler', ['property', 'h']), root()] },
    { name: 'listener', className: 'Req', chain: [hop('Req', ['context', 'req']), hop('system / Context', ['internal', 'context']), hop('Function', ['element', '3']), hop('Array', ['property', 'data']), hop('Object', ['property', '_events']), hop('EventEmitter', ['property', 'bus']), root()] },
    { name: 'timer callback', className: 'Poll', chain: [hop('Poll', ['context', 'poll']), hop('system / Context', ['internal', 'context']), hop('Function', ['property', '_onTimeout']), hop('Timeout', ['property', 'x']), root()] },
    { name: 'closure', className: 'Req', chain: [hop('Req', ['context', 'req']), hop('system / Context', ['internal', 'context']), hop('Function', ['property', 'handler'], 100, undefined, nextId++, 'closure'), hop('Server', ['property', 's']), root()] },
    { name: 'graph', className: 'CompiledStateGraph', chain: [hop('CompiledStateGraph', ['property', 'g']), hop('Object', ['property', 'x']), root()] },
    { name: 'generic', className: 'Thing', chain: [hop('Thing', ['property', 'thing']), hop('Holder', ['property', 'h']), root()] },
  ];
}

test('every fix template reads as a sentence', () => {
  const fixes = new Set<string>();
  for (const { name, className, chain } of fixChains()) {
    const fix = suggestFix(className, chain);
    fixes.add(fixText(fix));
    checkFix(name, fix);
  }
  assert.ok(fixes.size >= 8, `the chains reach most branches: ${fixes.size}`);
  const pending: HopLabel = { kind: 'pending-work', text: 'a pending operation' };
  const queue = [hop('Op', ['element', '0'], 100, pending), hop('Array', ['property', 'waiting']), hop('Pool', ['property', 'pool']), root()];
  const checkpoint = [hop('Op', ['element', '0'], 100, pending), hop('Array', ['property', 'x']), hop('SqliteSaver', ['property', 'checkpointer']), root()];
  for (const [name, text] of [
    ['backlog, queue', backlogFix(queue)], ['backlog, checkpoint', backlogFix(checkpoint)], ['backlog, no chain', backlogFix([], 'Job')],
    ['backlog, runs pile up', backlogFix([], 'Job', true)], ['backlog, nothing known', backlogFix([])],
  ] as const) checkFix(name, text);
});

/** The whole sentence (--verbose, JSON, HTML) and the action alone (the text without --verbose) both read right. */
function checkFix(name: string, fix: Fix): void {
  check(`fix (${name})`, fixText(fix));
  check(`fix action (${name})`, fix.action);
}

test('the indefinite article follows the sound', () => {
  assert.equal(article('AsyncResource'), 'an');
  assert.equal(article('HTTP/2 session'), 'an');
  assert.equal(article('timer (setTimeout/setInterval)'), 'a');
  assert.equal(article('TCP socket'), 'a');
  assert.equal(article('promise reaction'), 'a');
});

function samples(rise: number): MemorySample[] {
  return Array.from({ length: 20 }, (_, i) => ({ t: i * 500, rss: 100e6 + i * rise, heapUsed: 50e6 + i * rise, external: 3e6, arrayBuffers: 1e6 }));
}

test('the memory-timeline sentence cannot contradict a verdict', () => {
  const flat = describeTrend(summarizeTrend(samples(0)));
  const rising = describeTrend(summarizeTrend(samples(2e6)));
  check('timeline, flat', flat);
  check('timeline, rising', rising);
  // Flat totals say the timeline cannot tell, never that nothing grows: a LEAK found in the snapshots stands.
  assert.doesNotMatch(flat, /nothing grows|no leak|no growth/i);
  assert.match(rising, /growing: /);
});

function row(name: string, counts: number[], sizeEach = 100): ClassDiffRow {
  const n = counts.length;
  return {
    name, counts, sizes: counts.map((c) => c * sizeEach), retainedSizes: counts.map((c) => c * sizeEach),
    newPerInterval: counts.slice(1).map((c, k) => Math.max(0, c - counts[k]!)), deletedPerInterval: counts.slice(1).map(() => 0), survivorCounts: null,
    newCount: Math.max(0, counts[n - 1]! - counts[0]!), deletedCount: 0, countDelta: counts[n - 1]! - counts[0]!,
    sizeDelta: (counts[n - 1]! - counts[0]!) * sizeEach, retainedDelta: (counts[n - 1]! - counts[0]!) * sizeEach,
    growthPerInterval: (counts[n - 1]! - counts[0]!) / (n - 1), grewEveryInterval: n >= 3 ? counts.every((c, k) => k === 0 || c > counts[k - 1]!) : null,
  };
}

function group(className: string, counts: number[], retainedSize: number, anchorId: number, objectId: number): SurvivorGroup {
  const count = counts[counts.length - 1]!;
  return {
    signature: `${className} ← Array[] ← Holder${anchorId}.items ← (root)`, className, count, selfSize: count * 40, retainedSize, externalSize: 0, counts,
    growthPerInterval: count / (counts.length - 1), grewEveryInterval: true, heldBy: 'lasting',
    chain: [
      { node: { id: objectId, name: className, type: 'object', className }, edge: { type: 'element', name: '3' }, selfSize: 40, retainedSize: 72 },
      { node: { id: objectId + 1, name: 'Array', type: 'object', className: 'Array' }, edge: { type: 'property', name: 'items' }, selfSize: 32, retainedSize: 9000 },
      { node: { id: anchorId, name: 'Holder', type: 'object', className: 'Holder' }, edge: { type: 'shortcut', name: 'x' }, selfSize: 40, retainedSize: 9100 },
      { node: { id: 1, name: '', type: 'synthetic', className: '(root)' }, edge: null, selfSize: 0, retainedSize: 10000 },
    ],
  };
}

function diffOf(classes: ClassDiffRow[], groups: SurvivorGroup[]): DiffResult {
  return {
    schemaVersion: 1,
    snapshots: Array.from({ length: 3 }, (_, k) => ({ file: `s${k}`, nodeCount: 1000, edgeCount: 4000, totalSize: 1e6, maxId: 1000 * (k + 1) })),
    sameProcess: true, mode: 'ids',
    process: { same: true, by: 'ids', idsLineUp: true, origins: [null, null, null] },
    limitations: [], warnings: [], growth: 3000, classes,
    survivors: { count: groups.reduce((a, g) => a + g.count, 0), size: 1e5, groups },
  } as unknown as DiffResult;
}

function allText(d: Diagnosis): string[] {
  const doc = diagnosisBlocks(d, {});
  const verbose = diagnosisBlocks(d, { verbose: true });
  // A full chain's hop line sets its size apart by two spaces on purpose (chain-lines.ts): prose elsewhere.
  return [...doc, ...verbose].flatMap((b) => (b.kind === 'heading' ? [b.text] : b.kind === 'lines' ? b.lines : b.kind === 'code' ? b.lines.map((l) => l.replace(/ {2}\(retains /, ' (retains ')) : []));
}

test('diagnose() evidence and the finding layout, for a leak, folded findings and no leak', () => {
  const leak = diagnose({ diff: diffOf([row('Job', [10, 110, 210]), row('Tag', [5, 105, 205])], [group('Job', [0, 100, 200], 400_000, 11, 2500), group('Tag', [0, 100, 200], 300_000, 11, 2600)]), samples: samples(0), elapsedMs: 60_000, unitCount: 200 });
  assert.equal(leak.verdict, 'leak');
  // Two groups on the same lasting holder (@11, there before the first snapshot): one finding, two members' worth.
  assert.equal(leak.findings.length, 1);
  assert.deepEqual(leak.findings[0]!.members?.map((m) => m.className), ['Tag']);
  const apart = diagnose({ diff: diffOf([row('Job', [10, 110, 210]), row('Tag', [5, 105, 205])], [group('Job', [0, 100, 200], 400_000, 11, 2500), group('Tag', [0, 100, 200], 300_000, 12, 2600)]) });
  assert.equal(apart.findings.length, 2, 'different holders: two findings');
  const none = diagnose({ diff: diffOf([row('Job', [10, 11, 12])], []), samples: samples(0) });
  assert.equal(none.verdict, 'none');
  for (const d of [leak, apart, none]) for (const line of allText(d)) check(`${d.verdict} report`, line.trim());
});

/** A finding as diagnose() makes one: its chain from one of its objects (`objectId`) to the root. */
function finding(kind: Finding['kind'], className: string, count: number, retainedSize: number, objectId: number): Finding {
  const chain = [hop(className, ['element', '3'], 72, undefined, objectId), hop('Array', ['property', 'items'], retainedSize), hop('Holder', ['property', 'h']), root()];
  return {
    kind, className, signature: `${className} ← Array[] ← Holder.items ← (root)`, count, perInterval: count / 2, perMinute: count, retainedSize, chain,
    ...fixFields(suggestFix(className, chain)), evidence: [`${count} kept, none freed`],
  };
}

test('--findings N: the first N findings in full, each other one a line with its class, count, size and first hop', () => {
  const d: Diagnosis = {
    verdict: 'leak',
    evidence: ['RunTree grows by 40 a minute'],
    findings: [finding('leak', 'RunTree', 400, 2_000_000, 7001), finding('leak', 'InternalChannel', 40, 300_000, 7002), finding('backlog', 'Blob', 12, 48_000, 7003)],
  };
  const render = (findings?: number): string[] => [...terminalLines(diagnosisBlocks(d, findings === undefined ? {} : { findings }), new Chalk({ level: 0 }), 100)];
  const heads = (lines: readonly string[]): string[] => lines.filter((l) => /^\d\. /.test(l));

  const all = render();
  assert.equal(heads(all).length, 3);
  assert.equal(all.filter((l) => l.startsWith('   chain: ')).length, 3, 'the default: every finding with its chain');
  assert.equal(all.filter((l) => l.startsWith('   fix: ')).length, 3, 'the default: every finding with its fix');

  const one = render(1);
  const [first, second, third] = heads(one);
  const full = one.slice(one.indexOf(first!), one.indexOf('', one.indexOf(first!)));
  assert.match(full.join('\n'), /^1\. \[leak\] RunTree × 400 .*\n {3}chain: RunTree @7001 .*\n {3}fix: /, `the first in full:\n${one.join('\n')}`);
  assert.equal(second, '2. [leak] InternalChannel × 40, retaining 293 KiB, chain from @7002');
  assert.equal(third, '3. [backlog] Blob × 12, retaining 46.9 KiB, chain from @7003');
  // Each a line of its own, nothing under it: one chain and one fix in the whole report, the first's.
  assert.equal(one.indexOf(third!), one.indexOf(second!) + 1);
  assert.equal(one.filter((l) => l.startsWith('   chain: ')).length, 1);
  assert.equal(one.filter((l) => l.startsWith('   fix: ')).length, 1);
  for (const line of heads(one)) check('--findings line', line);

  assert.deepEqual(render(3), all, '--findings as many as there are: as the default');
  assert.deepEqual(render(Infinity), all, '--findings all: as the default');
});

test('every verdict line', () => {
  for (const [verdict, text] of Object.entries(VERDICT_TEXT)) check(verdict, text);
});

test('a folded chain keeps the object, its holder by the name it is held under, the labelled hops, the first old hop and the root', () => {
  const chain = [
    hop('RunTree', ['property', '<symbol kResourceStore>'], 40000, storeLabel, 900),
    hop('Timeout', ['property', 'callRefTimer'], 264, resourceLabel('timer (setTimeout/setInterval)', '/srv/app/node_modules/@grpc/grpc-js/build/src/internal-channel.js'), 901),
    hop('InternalChannel', ['context', 'channel'], 2000, undefined, 902),
    hop('system / Context', ['internal', 'context'], 40, undefined, 903),
    hop('Set', ['property', 'stateListeners'], 10000, undefined, 50),
    hop('Subchannel', ['property', 'child'], 16000, undefined, 40),
    hop('Object', ['property', 'x'], 100, undefined, 30),
    root(),
  ];
  const text = foldedChainText(chain, 100);
  check('folded chain', text);
  assert.equal(text, 'RunTree @900 (AsyncLocalStorage store) ← ["<symbol kResourceStore>"] of Timeout @901 (timer (setTimeout/setInterval) that captured the store; runs tick() at node_modules/@grpc/grpc-js/…/internal-channel.js:3:9) ← … 2 hops … ← .context of Set @50 (there before the first snapshot) ← … 2 hops … ← (root) @1');
  assert.equal(readablePath('/srv/app/node_modules/@grpc/grpc-js/build/src/x.js', '/home/me'), 'node_modules/@grpc/grpc-js/build/src/x.js');
  assert.equal(readablePath('/home/me/app/agent.js', '/home/me'), 'app/agent.js');
  assert.equal(readablePath('file:///home/me/app/agent.mjs', '/home/me'), 'app/agent.mjs');
  assert.equal(readablePath('node:internal/timers', '/home/me'), 'node:internal/timers');
});

test('no terminal line is wider than the width, and long lines hang under their text', () => {
  const chainLine = `   chain: ${'Hop @123 ← '.repeat(30)}(root) @1`;
  const doc = [
    { kind: 'heading' as const, text: 'Verdict: LEAK: objects accumulate and stay reachable' },
    { kind: 'lines' as const, lines: [chainLine, `- ${'word '.repeat(60)}`, 'x'.repeat(250)] },
    { kind: 'fields' as const, rows: [['capture', 'three of three snapshots '.repeat(10)] as const] },
    { kind: 'table' as const, head: ['class', 'count', 'Δ'], align: ['left', 'right', 'right'] as const, rows: [[`{${'a, '.repeat(60)}z}`, '1,000 → 2,000 → 3,000', '+2,000']] },
  ];
  for (const width of [60, 80, 100]) {
    const lines = [...terminalLines(doc, new Chalk({ level: 0 }), width)];
    for (const line of lines) assert.ok(displayWidth(line) <= width, `≤ ${width}: ${line}`);
    const chain = lines.findIndex((l) => l.startsWith('   chain: '));
    assert.ok(lines[chain + 1]!.startsWith(' '.repeat(10)) && !lines[chain + 1]!.startsWith(' '.repeat(11)), `hangs under the chain's text: ${lines[chain + 1]}`);
    assert.ok(lines.some((l) => l.includes('…')), 'the class name is cut with …');
  }
});
