// Node's own async-context plumbing among the objects of a group: not what leaks, but the hop that holds
// it. An AsyncContextFrame (Node 24 by default; 22 with --experimental-async-context-frame) is the Map
// from each AsyncLocalStorage to its store that every async resource created in a context captures;
// frames (and the `table` arrays behind them) pile up exactly as fast as whatever captured them, so a
// group of them is the store's carrier, named by what its frames hold (docs/node-facts.md).

import type { HeapAnalysis } from './heap-analysis.js';
import { hopName } from './path-signatures.js';
import type { RetainerPaths } from './retainer-paths.js';

/** What kind of plumbing a group's members are. */
export type Plumbing = 'async-context-frame';

export const ASYNC_CONTEXT_FRAME_CLASS = 'AsyncContextFrame';
/** The edge from a frame to its backing table (an internal array of key, store pairs). */
export const ASYNC_CONTEXT_FRAME_TABLE = 'table';

/** The plumbing `ordinal` is: an AsyncContextFrame, or the table its shortest chain's frame holds it by. */
export function plumbingOf(analysis: HeapAnalysis, paths: RetainerPaths, ordinal: number): Plumbing | undefined {
  if (hopName(analysis, ordinal) === ASYNC_CONTEXT_FRAME_CLASS) return 'async-context-frame';
  const slot = paths.parentSlot(ordinal);
  if (slot < 0 || hopName(analysis, paths.holderOfSlot(slot)) !== ASYNC_CONTEXT_FRAME_CLASS) return undefined;
  const edge = paths.edgeOfSlot(ordinal, slot);
  return edge >= 0 && analysis.graph.edgeNameOf(edge) === ASYNC_CONTEXT_FRAME_TABLE ? 'async-context-frame' : undefined;
}
