// A finding's allocation site as one line of a report (attach --trace-allocations): `created at
// fixtures/x.cjs:23 (makeClient) → node_modules/@grpc/grpc-js/…/client.js:42 (Client)`, the user's frame
// first, paths made readable (paths.ts), with the share of the objects it made and, when the site made
// the holder on the chain rather than the objects, which holder.

import type { AllocationFrame } from '../analysis/allocation-site.js';
import type { FindingAllocation } from '../diagnose/finding.js';
import { readablePath } from './paths.js';

function frameText(frame: AllocationFrame): string {
  const where = frame.url === '' ? '(V8 builtin)' : `${readablePath(frame.url)}${frame.line > 0 ? `:${frame.line}` : ''}`;
  return frame.function ? `${where} (${frame.function})` : where;
}

/** `created at …` for the text and Markdown reports; the HTML report shows the same words. */
export function allocationText(a: FindingAllocation): string {
  const made = a.sameCause
    ? `the ${a.sameCause.className} sharing their cause created at`
    : a.holder?.owner && a.holder.hop === 0 ? `the ${a.holder.owner} they work for created at`
      : a.holder?.owner ? `the ${a.holder.owner} whose ${a.holder.className} holds them created at`
      : a.holder ? `the ${a.holder.className} holding them created at` : 'created at';
  const share = a.share < 0.995 ? ` (${Math.round(a.share * 100)}% of those traced)` : '';
  return `${made} ${a.frames.map(frameText).join(' → ')}${share}`;
}
