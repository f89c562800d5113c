// The one redaction rule for every output (text, JSON, Markdown, assertNoLeak messages): what of a heap
// may be printed. Heap strings hold prompts, API keys, e-mail addresses and session ids, and user data
// reaches names, not only string objects: a dictionary keyed by session id has the ids as property
// names, a RegExp node is named by its source, plain objects are classed by their property names.
// - String contents: never (node-names.ts prints `<string, N chars>` unless --show-strings is given).
// - RegExp sources: never: `<regexp, N chars>`.
// - Property names (and element indices), also inside symbol descriptions and `{a, b}` class names:
//   shown when they read as code, else `<key, N chars>`. Names V8 gives its own edges (internal slots,
//   context variables, which are identifiers of the source) are V8's vocabulary and always shown.
// "Reads as code" (isCodeLikeName): identifiers and words joined by `-:./` (`turns`, `_client`,
// `kResourceStore`, `config-change`, `node:internal/timers`, `get foo`), `<symbol d>` / `Symbol(d)` with
// such a d, indices up to 9 digits; not when a word runs 4 digits or more (`PROPNAME9996`, ids, dates),
// starts with a digit and has letters (`1a`, hex and UUID parts), when the name mixes digits into letters
// three times or more, or has many one- or two-letter case changes (`eC39HqLyjW`: tokens); nor with any
// other character (spaces, `@` of an e-mail, `=`, `+`, quotes), nor past 64 characters (200 for paths).
// A wrong "code" answer prints a name; a wrong "data" answer only hides one, so the rule leans to hiding.

import type { HeapGraph } from '../snapshot/heap-graph.js';

const MAX_NAME = 64;
const MAX_PATH = 200;
/** Words (maximal runs of letters and digits) and the separators between them. */
const WORD = /[\p{L}\p{N}]+/gu;
const ALLOWED = /^[\p{L}\p{N}_$\-:./@#]+$/u;

function wordReadsAsCode(word: string): boolean {
  const digitRuns = word.match(/\p{N}+/gu) ?? [];
  if (digitRuns.length === 0) return caseChangesLookLikeWords(word);
  if (digitRuns.some((run) => run.length >= 4)) return false;
  if (/^\p{N}+$/u.test(word)) return true; // a short number: a version part, `64` of x86_64
  if (/^\p{N}/u.test(word)) return false; // `1a`, `9f8a…`: hex and UUID parts, not words
  return caseChangesLookLikeWords(word.replace(/\p{N}+/gu, ''));
}

/** `kResourceStore`, `XMLHttpRequest`, `toJSON` read as words; `eCHqLyjWDarjtTzdpdc` does not. */
function caseChangesLookLikeWords(letters: string): boolean {
  if (letters.length < 10) return true;
  const parts = letters.match(/\p{Lu}{2,}(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}/gu) ?? [];
  return parts.filter((p) => p.length <= 2).length < 3;
}

/** Whether `name` (a property name, an index, a symbol description) reads as code: see the header. */
export function isCodeLikeName(name: string): boolean {
  if (name === '') return true;
  if (/^\d+$/.test(name)) return name.length <= 9;
  const symbol = /^<symbol(?: (.*))?>$/su.exec(name) ?? /^Symbol\((.*)\)$/su.exec(name);
  if (symbol) return symbol[1] === undefined || isCodeLikeName(symbol[1]);
  const accessor = /^(?:get|set) (.+)$/su.exec(name);
  if (accessor) return isCodeLikeName(accessor[1]!);
  if (name.length > (name.includes('/') ? MAX_PATH : MAX_NAME) || !ALLOWED.test(name)) return false;
  // `#` only opens a private name; `@` only opens a path segment (`@langchain/core`) or a version (`a@1.2`).
  if (name.lastIndexOf('#') > 0) return false;
  for (let at = name.indexOf('@'); at >= 0; at = name.indexOf('@', at + 1)) {
    if (at > 0 && name[at - 1] !== '/' && !/\d/.test(name[at + 1] ?? '')) return false;
  }
  const words = name.split(/[_$\-:./@#]+/).filter((w) => w !== '');
  if (!words.every(wordReadsAsCode)) return false;
  // Digits mixed into letters again and again (`a1b2c3`, `int8to16x4y`) make a token, not a name.
  const mixed = [...name.matchAll(WORD)].reduce((n, m) => n + (/\p{L}/u.test(m[0]) ? (m[0].match(/\p{N}+/gu) ?? []).length : 0), 0);
  return mixed < 3;
}

/** A property name as it may be printed: itself when it reads as code, else `<key, N chars>`. */
export function shownKey(name: string): string {
  return isCodeLikeName(name) ? name : redactedKey(name);
}

/** `<key, N chars>`: N in UTF-16 units, as JS counts a string's length. */
export function redactedKey(name: string): string {
  return `<key, ${name.length} chars>`;
}

/** A RegExp node's name (its source) as it may be printed: never the source. */
export function shownRegExp(source: string): string {
  return `<regexp, ${source.length} chars>`;
}

/** The edge name of `edge` as it may be printed, and whether it was hidden. */
export function shownEdgeName(graph: HeapGraph, edge: number): { readonly name: string; readonly redacted: boolean } {
  const name = graph.edgeNameOf(edge);
  const t = graph.edgeType[edge];
  if (t !== graph.edgeTypes.property && t !== graph.edgeTypes.element) return { name, redacted: false };
  return isCodeLikeName(name) ? { name, redacted: false } : { name: redactedKey(name), redacted: true };
}
