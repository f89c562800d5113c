// Long report lines folded to the terminal's width with a hanging indent: a continuation starts under
// the text after the line's indent and its marker (`- `, `1. `, `fix: `, a field's key), so a chain or a
// fix reads as one paragraph. Breaks at spaces; a word longer than the room is cut.

import { displayWidth } from './render-table.js';

/** How far continuation lines are indented: the leading spaces and a list marker or `word: ` label. */
export function hangOf(line: string): number {
  const m = /^(\s*)(?:- |\d+(?:\.\d+)*\. |[a-z][a-z ]{0,14}: )?/.exec(line);
  return Math.min(m ? m[0].length : 0, 24);
}

/** `line` in pieces of at most `width` columns; continuations indented by `hang` (default hangOf). */
export function wrapLine(line: string, width: number, hang = hangOf(line)): string[] {
  if (width <= 0 || displayWidth(line) <= width) return [line];
  const pad = ' '.repeat(Math.min(hang, Math.floor(width / 2)));
  const out: string[] = [];
  let current = '';
  const flush = (): void => {
    out.push(current);
    current = pad;
  };
  for (const word of line.split(/(?<= )/)) { // each piece keeps its trailing space
    let rest = word;
    while (displayWidth(current + rest.trimEnd()) > width) {
      if (current.trim() !== '') {
        current = current.trimEnd();
        flush();
        continue;
      }
      // A word longer than the room: cut it.
      const room = width - displayWidth(current);
      current += rest.slice(0, room);
      rest = rest.slice(room);
      flush();
    }
    current += rest;
  }
  if (current.trim() !== '') out.push(current.trimEnd());
  return out;
}
