// `leakhunt retainers` as a function: what holds one object (its k shortest chains to the root), or
// what holds every instance of a class (their shortest chains grouped by path signature, largest
// groups first). Chains skip weak edges and never pass through bookkeeping holders
// (retainer-paths.ts), so the hop printed as the holder really keeps the object alive.

import type { HeapAnalysis } from './heap-analysis.js';
import { describeChain, type ChainHop, type ChainLabeler } from './chain-description.js';
import { chainSignature, PathSignatures } from './path-signatures.js';
import { RetainerPaths } from './retainer-paths.js';

export type RetainersTarget = { readonly id: number } | { readonly className: string };

export interface RetainersOptions {
  /** Chains (for an object) or path groups (for a class) to return. */
  readonly paths: number;
  /** Longest chain searched, in hops. */
  readonly depth: number;
  readonly showStrings: boolean;
  readonly labelChain?: ChainLabeler;
}

export interface RetainerPathGroup {
  readonly signature: string;
  /** Objects whose shortest chain has this signature (1 for an object's own chains). */
  readonly count: number;
  /** What the group's objects retain together. */
  readonly retainedSize: number;
  readonly chain: readonly ChainHop[];
}

export interface RetainersResult {
  readonly schemaVersion: 1;
  readonly target: {
    readonly id?: number;
    readonly className: string;
    readonly count: number;
    readonly retainedSize: number;
    /** Instances with no path to a root at all (garbage the snapshot still listed). */
    readonly unreachable: number;
  };
  readonly paths: readonly RetainerPathGroup[];
}

export type RetainersLookup =
  | { readonly found: true; readonly result: RetainersResult }
  | { readonly found: false; readonly suggestions: readonly string[] };

export function findRetainers(analysis: HeapAnalysis, target: RetainersTarget, options: RetainersOptions): RetainersLookup {
  const paths = new RetainerPaths(analysis);
  return 'id' in target ? forObject(analysis, paths, target.id, options) : forClass(analysis, paths, target.className, options);
}

function forObject(analysis: HeapAnalysis, paths: RetainerPaths, id: number, options: RetainersOptions): RetainersLookup {
  const ordinal = analysis.graph.ordinalOfId(id);
  if (ordinal < 0) return { found: false, suggestions: [] };
  // Chains that differ only in an index (slot 40 vs 41 of the same array) say the same thing: ask for
  // more and keep one chain per folded signature.
  const seen = new Set<string>();
  const chains = paths.kShortestPaths(ordinal, options.paths * 8, options.depth).filter((chain) => {
    const signature = chainSignature(analysis, chain);
    if (seen.has(signature)) return false;
    seen.add(signature);
    return true;
  }).slice(0, options.paths);
  const retained = analysis.retainedSizes[ordinal]!;
  return {
    found: true,
    result: {
      schemaVersion: 1,
      target: { id, className: analysis.className(ordinal), count: 1, retainedSize: retained, unreachable: paths.isReachable(ordinal) ? 0 : 1 },
      paths: chains.map((chain) => ({
        signature: chainSignature(analysis, chain),
        count: 1,
        retainedSize: retained,
        chain: describeChain(analysis, chain, options.showStrings, options.labelChain),
      })),
    },
  };
}

function forClass(analysis: HeapAnalysis, paths: RetainerPaths, className: string, options: RetainersOptions): RetainersLookup {
  const { classOf, names } = analysis.classIndex;
  const classIds = new Set<number>();
  names.forEach((name, id) => name === className && classIds.add(id));
  if (classIds.size === 0) return { found: false, suggestions: suggest(names, className) };
  const signatures = new PathSignatures(analysis, paths);
  const retained = analysis.retainedSizes;
  const groups = new Map<number, { count: number; retained: number; representative: number }>();
  let count = 0, unreachable = 0, total = 0;
  const inClass = new Uint8Array(analysis.graph.nodeCount);
  for (let n = 0; n < classOf.length; n++) if (classIds.has(classOf[n]!)) inClass[n] = 1;
  const dominators = analysis.dominators;
  const root = analysis.graph.rootOrdinal;
  for (let n = 0; n < classOf.length; n++) {
    if (inClass[n] === 0) continue;
    count++;
    if (!paths.isReachable(n)) {
      unreachable++;
      continue;
    }
    // Retained together: skip members held inside another member (class retained size, top-most only).
    let nested = false;
    for (let up = dominators[n]!, steps = 0; up !== root && steps < 10_000; up = dominators[up]!, steps++) {
      if (inClass[up] === 1) {
        nested = true;
        break;
      }
    }
    const s = signatures.signatureOf(n);
    const g = groups.get(s) ?? { count: 0, retained: 0, representative: n };
    g.count++;
    if (!nested) {
      g.retained += retained[n]!;
      total += retained[n]!;
    }
    if (retained[n]! > retained[g.representative]!) g.representative = n;
    groups.set(s, g);
  }
  const ranked = [...groups.entries()]
    .sort(([, a], [, b]) => b.count - a.count || b.retained - a.retained)
    .slice(0, options.paths);
  return {
    found: true,
    result: {
      schemaVersion: 1,
      target: { className, count, retainedSize: total, unreachable },
      paths: ranked.map(([s, g]) => ({
        signature: signatures.text(s),
        count: g.count,
        retainedSize: g.retained,
        chain: describeChain(analysis, paths.shortestPath(g.representative, options.depth), options.showStrings, options.labelChain),
      })),
    },
  };
}

/** Class names that contain the one asked for, or the other way round, case-insensitively. */
function suggest(names: readonly string[], wanted: string): string[] {
  const w = wanted.toLowerCase();
  return [...new Set(names)].filter((n) => n.toLowerCase().includes(w) || (n.length > 2 && w.includes(n.toLowerCase()))).slice(0, 5);
}
