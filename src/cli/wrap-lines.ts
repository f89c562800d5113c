// Long report lines folded to the terminal's width with a hanging indent: a continuation starts under
// the text after the line's indent and its marker (`- `, `1. `, `fix: `, a field's key), so a chain or a
// fix reads as one paragraph. Breaks at spaces, but not inside a figure and its unit (`256.3 KiB`), a
// fold (`… 3 hops …`) or after a chain's arrow (a line never ends in `←`); a word longer than the whole
// room is split, every character kept.

import { displayWidth } from './render-table.js';

/** How far continuation lines are indented: the leading spaces and a list marker or `word: ` label. */
export function hangOf(line: string): number {
  const m = /^(\s*)(?:- |\d+(?:\.\d+)*\. |[a-z][a-z ]{0,14}: )?/.exec(line);
  return Math.min(m ? m[0].length : 0, 24);
}

/** A piece after which the line does not break: a bare number (`256.3`, `+5,227`, `3`), `…`, `←`. */
const HOLDS_NEXT = /^(?:[+−-]?\d[\d.,]*|…|←)$/;

/** The line's words, each with its trailing space, those that hold together joined. */
function unitsOf(line: string): string[] {
  const pieces = line.split(/(?<= )/);
  const units: string[] = [];
  for (const piece of pieces) {
    const previous = units[units.length - 1];
    if (previous !== undefined && previous.endsWith(' ') && (HOLDS_NEXT.test(lastWord(previous)) || piece.trimEnd() === '…')) units[units.length - 1] = previous + piece;
    else units.push(piece);
  }
  return units;
}

function lastWord(unit: string): string {
  const words = unit.trimEnd().split(' ');
  return words[words.length - 1]!;
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
  const room = width - pad.length;
  // A joined group too long for a line of its own is taken word by word.
  const units = unitsOf(line).flatMap((u) => (displayWidth(u.trimEnd()) > room && u.trimEnd().includes(' ') ? u.split(/(?<= )/) : [u]));
  for (const unit of units) {
    let rest = unit;
    while (displayWidth(current + rest.trimEnd()) > width) {
      if (current.trim() !== '') {
        current = current.trimEnd();
        flush();
        continue;
      }
      // A word longer than the room: split it, every character kept.
      const fits = width - displayWidth(current);
      current += rest.slice(0, fits);
      rest = rest.slice(fits);
      flush();
    }
    current += rest;
  }
  if (current.trim() !== '') out.push(current.trimEnd());
  return out;
}
