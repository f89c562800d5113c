// The verdict and its findings as report blocks, answer first: the verdict line and its evidence, then
// each finding in a few lines — what grows and how fast, the groups of the same cause, what it holds, the
// chain folded to the hops that matter, the fix. `verbose` adds each finding's evidence, its path and
// full chain, and its members' chains. Shared by diff and attach.

import { allocationText } from './allocation-text.js';
import type { Diagnosis, Finding } from '../diagnose/diagnose.js';
import type { Block } from './document.js';
import { chainLines, foldedChainText } from './chain-lines.js';
import { formatBytes, formatCount } from './format.js';
import { readablePaths } from './paths.js';

export interface DiagnosisReportOptions {
  /** Full chains, evidence and paths of every finding (and of each member of a folded finding). */
  readonly verbose?: boolean;
  /** The first snapshot's largest V8 id: the folded chain names the first hop that was already there. */
  readonly firstMaxId?: number;
}

export const VERDICT_TEXT: Record<Diagnosis['verdict'], string> = {
  leak: 'LEAK: objects accumulate and stay reachable',
  backlog: 'BACKLOG: pending work piles up (it is not kept forever)',
  external: 'EXTERNAL: Buffers / ArrayBuffers / wasm memory grow',
  native: 'NATIVE: RSS grows while the JS heap and external memory are flat',
  'warm-up': 'WARM-UP: growth that levels off (code, caches, strings)',
  suspect: 'SUSPECTS (one snapshot shows no growth: take a series to confirm)',
  none: 'NO LEAK FOUND',
};

/** Per unit of work and per minute when known, else per interval. */
export function rateText(f: Finding): string {
  const parts: string[] = [];
  if (f.perUnit !== undefined) parts.push(`+${f.perUnit.toFixed(2)} per unit of work`);
  if (f.perMinute !== undefined) parts.push(`+${formatCount(f.perMinute)} per minute`);
  if (parts.length === 0 && f.perInterval > 0) parts.push(`+${formatCount(f.perInterval)} per interval`);
  return parts.join(', ');
}

/** At most this many of the classes a finding holds are named on its line. */
const HELD_SHOWN = 3;
const NAME_CHARS = 24;

function shortName(name: string): string {
  return name.length <= NAME_CHARS ? name : `${name.slice(0, NAME_CHARS - 1)}…`;
}

function heldText(alsoHeld: readonly string[]): string {
  const shown = alsoHeld.slice(0, HELD_SHOWN).map(shortName);
  const more = alsoHeld.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` and ${more} more class${more === 1 ? '' : 'es'}` : ''}`;
}

function headLine(f: Finding, rank: number): string {
  const rate = rateText(f);
  return `${rank}. [${f.kind}] ${f.className} × ${formatCount(f.count)}${rate ? ` (${rate})` : ''}, retaining ${formatBytes(f.retainedSize)}`;
}

function memberText(m: Finding): string {
  return `${m.className} × ${formatCount(m.count)} (${formatBytes(m.retainedSize)})`;
}

function findingBlocks(f: Finding, rank: number, options: DiagnosisReportOptions): Block[] {
  const members = f.members ?? [];
  const lines = [
    headLine(f, rank),
    ...(members.length ? [`   same cause: ${members.map(memberText).join(', ')}`] : []),
    ...(f.alsoHeld?.length ? [`   holds: ${heldText(f.alsoHeld)}`] : []),
    ...(f.allocation ? [`   ${allocationText(f.allocation)}`] : []),
  ];
  if (!options.verbose) {
    if (f.chain.length > 0) lines.push(`   chain: ${foldedChainText(f.chain, options.firstMaxId)}`);
    lines.push(`   fix: ${f.fix}`);
    return [{ kind: 'lines', lines: lines.map((l) => readablePaths(l)) }];
  }
  const blocks: Block[] = [{
    kind: 'lines',
    lines: [...lines, ...f.evidence.map((e) => `   - ${e}`), ...(f.signature ? [`   path: ${f.signature}`] : [])].map((l) => readablePaths(l)),
  }];
  if (f.chain.length > 0) blocks.push({ kind: 'code', lines: chainLines(f.chain, '   ').map((l) => readablePaths(l)) });
  blocks.push({ kind: 'lines', tone: 'good', lines: [readablePaths(`   fix: ${f.fix}`)] });
  members.forEach((m, i) => {
    blocks.push({ kind: 'lines', lines: [`   ${rank}.${i + 1} ${m.className} × ${formatCount(m.count)}, same holder`, ...(m.signature ? [`   path: ${m.signature}`] : [])] });
    if (m.chain.length > 0) blocks.push({ kind: 'code', lines: chainLines(m.chain, '   ').map((l) => readablePaths(l)) });
  });
  return blocks;
}

/** Signatures of the survivor groups the findings (and their members) show. */
export function shownSignatures(d: Diagnosis | undefined): Set<string | null> {
  return new Set(d?.findings.flatMap((f) => [f.signature, ...(f.members ?? []).map((m) => m.signature)]));
}

export function diagnosisBlocks(d: Diagnosis, options: DiagnosisReportOptions = {}): Block[] {
  const tone = d.verdict === 'none' || d.verdict === 'warm-up' ? 'good' : d.verdict === 'backlog' ? 'warn' : 'bad';
  return [
    { kind: 'heading', text: `Verdict: ${VERDICT_TEXT[d.verdict]}` },
    { kind: 'lines', tone, lines: d.evidence.map((e) => readablePaths(`- ${e}`)) },
    ...d.findings.flatMap((f, i) => findingBlocks(f, i + 1, options)),
  ];
}
