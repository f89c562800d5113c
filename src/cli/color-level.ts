// Whether the terminal renderer colours its output, and how many colours: the one decision behind
// --no-color, NO_COLOR, FORCE_COLOR and "stdout is not a terminal" (render-terminal.ts's terminalChalk).

/** chalk's levels: 0 none, 1 the 16 basic colours, 2 256 colours, 3 true colour. */
export type ColorLevel = 0 | 1 | 2 | 3;

/**
 * In order, the first that applies:
 * - `--no-color` on the command line: none;
 * - NO_COLOR set (to anything): none. It beats FORCE_COLOR: NO_COLOR is the user saying no, while
 *   FORCE_COLOR is often set for them by a tool (node --test sets it for its test files on a terminal);
 * - FORCE_COLOR: `''`, `1` or `true` basic colours, `2` 256, `3` true colour — even when stdout is a
 *   pipe; anything else (`0`, `false`) none, even on a terminal;
 * - the stream is not a terminal: none; else basic colours.
 */
export function colorLevel(isTTY: boolean, noColorFlag: boolean, env: NodeJS.ProcessEnv = process.env): ColorLevel {
  if (noColorFlag || env.NO_COLOR !== undefined) return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '' || force === '1' || force === 'true') return 1;
    if (force === '2') return 2;
    if (force === '3') return 3;
    return 0;
  }
  return isTTY ? 1 : 0;
}
