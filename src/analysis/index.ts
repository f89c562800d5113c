// The public API of the analysis engine: pure graph algorithms with Chrome DevTools semantics.

export { analyzeHeap, HeapAnalysis, type AnalysisPhase, type AnalyzeOptions } from './heap-analysis.js';
export { computeEssentialEdgeMask, markPageOwnedNodes, EDGE_RETAINS, EDGE_DISTANCE, EDGE_EPHEMERON } from './essential-edges.js';
export { parseEphemeronEdgeName, type EphemeronName } from './ephemeron-edges.js';
export { computeDistances, UNREACHABLE_DISTANCE, SYSTEM_DISTANCE_BASE } from './distances.js';
export { computeShallowSizes } from './shallow-sizes.js';
export { computeDetachedNatives } from './dom-state.js';
export { computeDominators, computeDominatorsInOrder, type DominatorsInOrder } from './dominators.js';
export { buildDominatorTree, dominatorPreorder, type DominatorTree } from './dominator-tree.js';
export { computeRetainedSizes, retainedSizesInOrder } from './retained-sizes.js';
export { classNameOf, computeClassIndex, type ClassIndex } from './class-keys.js';
export { formatPropertyName } from './interface-names.js';
export { summarizeClasses, computeClassRetainedSizes, type ClassSummaryRow, type ClassSummaryInput } from './class-summary.js';
export { selectTopDominated } from './top-dominated.js';
export { isUserRoot, hasUserRoots } from './user-roots.js';
export { Scratch } from './scratch.js';
