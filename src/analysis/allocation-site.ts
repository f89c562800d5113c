// Where an object was made, as a person wants it named: the first frame of the allocating stack that is
// the user's own code (not a dependency under node_modules, not Node's own `node:` modules, not V8's
// builtins), with the library frame it called just below it. Shared by allocation tracking (a snapshot's
// trace_tree) and the sampling heap profiler (`leakhunt profile`): both hand in a stack, innermost first.
// docs/allocation-sites.md says how stacks are gathered and weighed.

/** One stack frame; `line` and `column` are 1-based (V8's trace and sampling data are 0-based: add 1). */
export interface AllocationFrame {
  readonly function: string;
  readonly url: string;
  readonly line: number;
  readonly column: number;
}

/** A stack folded to what a user reads: their own frame, then the frame it called (if that is a library). */
export interface AllocationSite {
  /** Innermost first; at most two: the user's frame and the library frame below it (or the top frame). */
  readonly frames: readonly AllocationFrame[];
  /** True when some frame of the stack is the user's own code. */
  readonly inUserCode: boolean;
}

export type FrameOrigin = 'user' | 'dependency' | 'node' | 'builtin';

/** Whose code a frame runs: node_modules is a dependency, `node:`/internal is Node, no url is V8's. */
export function frameOrigin(url: string): FrameOrigin {
  if (url === '') return 'builtin';
  if (url.startsWith('node:') || url.startsWith('internal/')) return 'node';
  const plain = url.startsWith('file://') ? url.slice('file://'.length) : url;
  if (/[\\/]node_modules[\\/]/.test(plain)) return 'dependency';
  return 'user';
}

/**
 * Folds a stack (innermost first) to the user's frame and the frame it called. A stack with no user frame
 * keeps its innermost frame that has a url (else its innermost frame): the best a user can be told.
 */
export function foldAllocationStack(stack: readonly AllocationFrame[]): AllocationSite {
  const user = stack.findIndex((frame) => frameOrigin(frame.url) === 'user');
  if (user < 0) {
    const named = stack.find((frame) => frame.url !== '') ?? stack[0];
    return { frames: named === undefined ? [] : [named], inUserCode: false };
  }
  // Frames inside `user` are all someone else's code (dependency, Node or V8): the one just inside is what it called.
  return { frames: user > 0 ? [stack[user], stack[user - 1]] : [stack[user]], inUserCode: true };
}

/** A key that is equal for equal folded sites, for counting survivors or bytes per site. */
export function allocationSiteKey(site: AllocationSite): string {
  return site.frames.map((f) => `${f.url}:${f.line}:${f.column}:${f.function}`).join('\n');
}
