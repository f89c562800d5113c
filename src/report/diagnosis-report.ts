// The verdict and its findings as report blocks: what grows, how fast, what keeps it alive (the
// labelled chain) and what to change. Shared by diff and attach.

import type { Diagnosis, Finding } from '../diagnose/diagnose.js';
import type { Block } from './document.js';
import { chainLines } from './chain-lines.js';
import { formatBytes, formatCount } from './format.js';

const VERDICT_TEXT: Record<Diagnosis['verdict'], string> = {
  leak: 'LEAK: objects accumulate and stay reachable',
  backlog: 'BACKLOG: pending work piles up (it is not kept forever)',
  external: 'EXTERNAL: Buffers / ArrayBuffers / wasm memory grow',
  native: 'NATIVE: RSS grows while the JS heap and external memory are flat',
  'warm-up': 'WARM-UP: growth that levels off (code, caches, strings)',
  suspect: 'SUSPECTS (one snapshot shows no growth: take a series to confirm)',
  none: 'NO LEAK FOUND',
};

function rateText(f: Finding): string {
  const parts = f.perInterval > 0 ? [`+${formatCount(f.perInterval)} per interval`] : [];
  if (f.perMinute !== undefined) parts.push(`${formatCount(f.perMinute)} per minute`);
  if (f.perUnit !== undefined) parts.push(`${f.perUnit.toFixed(2)} per unit of work`);
  return parts.join(', ');
}

function findingBlocks(f: Finding, rank: number): Block[] {
  const blocks: Block[] = [
    {
      kind: 'lines',
      lines: [
        `${rank}. [${f.kind}] ${f.className} × ${formatCount(f.count)} (${[rateText(f), `retains ${formatBytes(f.retainedSize)}`].filter(Boolean).join('; ')})`,
        ...f.evidence.map((e) => `   - ${e}`),
        ...(f.alsoHeld?.length ? [`   - also held through it: ${f.alsoHeld.join(', ')}`] : []),
        ...(f.signature ? [`   path: ${f.signature}`] : []),
      ],
    },
  ];
  if (f.chain.length > 0) blocks.push({ kind: 'code', lines: chainLines(f.chain, '   ') });
  blocks.push({ kind: 'lines', tone: 'good', lines: [`   fix: ${f.fix}`] });
  return blocks;
}

export function diagnosisBlocks(d: Diagnosis): Block[] {
  const tone = d.verdict === 'none' || d.verdict === 'warm-up' ? 'good' : d.verdict === 'backlog' ? 'warn' : 'bad';
  return [
    { kind: 'heading', text: `Verdict: ${VERDICT_TEXT[d.verdict]}` },
    { kind: 'lines', tone, lines: d.evidence.map((e) => `- ${e}`) },
    ...d.findings.flatMap((f, i) => findingBlocks(f, i + 1)),
  ];
}
