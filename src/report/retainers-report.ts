// `leakhunt retainers` as a report document: the target, then each chain (or path group) one hop a line.

import type { RetainersResult } from '../analysis/find-retainers.js';
import type { Block, ReportDocument } from './document.js';
import { chainLines } from './chain-lines.js';
import { formatBytes, formatCount } from './format.js';

export function buildRetainersDocument(result: RetainersResult, file: string): ReportDocument {
  const { target } = result;
  const what = target.id !== undefined
    ? `${target.className} @${target.id}`
    : `${formatCount(target.count)} × ${target.className}`;
  const blocks: Block[] = [
    {
      kind: 'fields',
      rows: [
        ['snapshot', file],
        ['target', what],
        ['retains', formatBytes(target.retainedSize)],
        ...(target.unreachable > 0 ? [['unreachable', `${formatCount(target.unreachable)} (no path to a GC root: garbage not yet collected)`] as const] : []),
      ],
    },
  ];
  if (result.paths.length === 0) {
    blocks.push({ kind: 'lines', tone: 'warn', lines: ['No chain to a GC root within the depth searched (try a larger --depth).'] });
  }
  result.paths.forEach((p, i) => {
    const head = target.id !== undefined
      ? `${i + 1}. chain of ${p.chain.length} hops`
      : `${i + 1}. ${formatCount(p.count)} of ${formatCount(target.count)} held this way (retaining ${formatBytes(p.retainedSize)})`;
    blocks.push({ kind: 'lines', lines: [head, `   path: ${p.signature}`] });
    blocks.push({ kind: 'code', lines: chainLines(p.chain, '   ') });
  });
  return blocks;
}
