// The verdict and its findings as report blocks, answer first: the verdict line and its evidence, then
// each finding in a few lines — what grows and how fast, the groups of the same cause, what it holds, the
// chain folded to the hops that matter, the fix. `verbose` adds each finding's evidence, its path and
// full chain, and its members' chains. `findings` (attach --findings) keeps that layout for the first N
// and gives each later finding one line. Shared by diff and attach.

import { allocationText } from './allocation-text.js';
import type { Diagnosis, Finding } from '../diagnose/finding.js';
import type { Block } from './document.js';
import { chainLines, foldedChainText } from './chain-lines.js';
import { formatBytes, formatCount } from './format.js';
import { readablePaths } from './paths.js';

export interface DiagnosisReportOptions {
  /** Full chains, evidence and paths of every finding (and of each member of a folded finding). */
  readonly verbose?: boolean;
  /** The first snapshot's largest V8 id: the folded chain names the first hop that was already there. */
  readonly firstMaxId?: number;
  /** Findings shown as above (default all); each one after them is one line (findingLine). */
  readonly findings?: number;
}

export const VERDICT_TEXT: Record<Diagnosis['verdict'], string> = {
  leak: 'LEAK: objects accumulate and stay reachable',
  backlog: 'BACKLOG: pending work piles up (it is not kept forever)',
  external: 'EXTERNAL: Buffers / ArrayBuffers / wasm memory grow',
  native: 'NATIVE: RSS grows while the JS heap and external memory are flat',
  inconclusive: 'INCONCLUSIVE: not sure yet (the candidates and what would settle them are below)',
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

/**
 * Columns a finding's `holds:` and `same cause:` lines may take with their label, so that each stays one
 * line at 100 columns; what does not fit is counted (`and 14 more classes`), never cut mid-name.
 */
const LIST_COLUMNS = 100;
/** A class name longer than this is shortened at a `, ` (a property shape's list). */
const SHAPE_CHARS = 28;

/**
 * A long name shortened at a list boundary, never inside a word: a property-shape class
 * `{tags, metadata, callbacks, …}` keeps its first properties and its closing brace; a name with no
 * `, ` to cut at stays whole.
 */
export function shortClassName(name: string, max = SHAPE_CHARS): string {
  if (name.length <= max) return name;
  const close = name.endsWith('}') ? '}' : '';
  const cut = name.lastIndexOf(', ', max - 3 - close.length);
  return cut > 0 ? `${name.slice(0, cut)}, …${close}` : name;
}

/** `label` and as many `entries` as fit in LIST_COLUMNS (at least one), then how many more. */
export function fittedList(label: string, entries: readonly string[]): string {
  const more = (n: number): string => (n > 0 ? ` and ${n} more class${n === 1 ? '' : 'es'}` : '');
  const room = LIST_COLUMNS - label.length;
  let shown = 1;
  while (shown < entries.length && entries.slice(0, shown + 1).join(', ').length + more(entries.length - shown - 1).length <= room) shown++;
  return `${label}${entries.slice(0, shown).join(', ')}${more(entries.length - shown)}`;
}

/** `152 × RunTree (along another path)`, `69 × {metadata, runtime, …}`: each entry shortened, as many as fit. */
function heldLine(alsoHeld: readonly string[]): string {
  return fittedList('   holds: ', alsoHeld.map((entry) => shortClassName(entry, SHAPE_CHARS + 8)));
}

function headLine(f: Finding, rank: number): string {
  const rate = rateText(f);
  return `${rank}. [${f.kind}] ${f.className} × ${formatCount(f.count)}${rate ? ` (${rate})` : ''}, retaining ${formatBytes(f.retainedSize)}`;
}

/** The members of a folded finding: class and count (their sizes and chains are in --verbose and --html). */
function membersLine(members: readonly Finding[]): string {
  return fittedList('   same cause: ', memberEntries(members));
}

function memberEntries(members: readonly Finding[]): string[] {
  return members.map((m) => `${shortClassName(m.className)} × ${formatCount(m.count)}`);
}

/**
 * Without --verbose, one line for what grows with the finding: the members that share its cause, then
 * the survivor groups held through it (--verbose keeps the two lines apart).
 */
function alsoGrowingLine(f: Finding): string[] {
  const members = memberEntries(f.members ?? []);
  const held = (f.alsoHeld ?? []).map((entry) => shortClassName(entry, SHAPE_CHARS + 8));
  return members.length + held.length > 0 ? [fittedList('   also growing: ', [...members, ...held])] : [];
}

function findingBlocks(f: Finding, rank: number, options: DiagnosisReportOptions): Block[] {
  const members = f.members ?? [];
  if (!options.verbose) {
    const lines = [headLine(f, rank), ...alsoGrowingLine(f), ...(f.allocation ? [`   ${allocationText(f.allocation)}`] : [])];
    if (f.chain.length > 0) lines.push(`   chain: ${foldedChainText(f.chain, options.firstMaxId)}`);
    lines.push(`   fix: ${f.action}`);
    return [{ kind: 'lines', lines: lines.map((l) => readablePaths(l)) }];
  }
  const lines = [
    headLine(f, rank),
    ...(members.length ? [membersLine(members)] : []),
    ...(f.alsoHeld?.length ? [heldLine(f.alsoHeld)] : []),
    ...(f.allocation ? [`   ${allocationText(f.allocation)}`] : []),
  ];
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

/**
 * A finding past `findings`, in one line: kind, class, count, retained size, and the id of its chain's
 * first hop, which DevTools finds (`@id`) to show the chain the full report would have.
 */
export function findingLine(f: Finding, rank: number): string {
  const first = f.chain[0] ? `, chain from @${f.chain[0].node.id}` : '';
  return readablePaths(`${rank}. [${f.kind}] ${shortClassName(f.className)} × ${formatCount(f.count)}, retaining ${formatBytes(f.retainedSize)}${first}`);
}

/** Signatures of the survivor groups the findings (and their members) show. */
export function shownSignatures(d: Diagnosis | undefined): Set<string | null> {
  return new Set(d?.findings.flatMap((f) => [f.signature, ...(f.members ?? []).map((m) => m.signature)]));
}

export function diagnosisBlocks(d: Diagnosis, options: DiagnosisReportOptions = {}): Block[] {
  const tone = d.verdict === 'none' || d.verdict === 'warm-up' ? 'good' : d.verdict === 'backlog' ? 'warn' : 'bad';
  const full = d.findings.slice(0, options.findings ?? d.findings.length);
  const brief = d.findings.slice(full.length);
  return [
    { kind: 'heading', text: `Verdict: ${VERDICT_TEXT[d.verdict]}` },
    { kind: 'lines', tone, lines: d.evidence.map((e) => readablePaths(`- ${e}`)) },
    ...full.flatMap((f, i) => findingBlocks(f, i + 1, options)),
    ...(brief.length > 0 ? [{ kind: 'lines', lines: brief.map((f, i) => findingLine(f, full.length + i + 1)) } as const] : []),
  ];
}
