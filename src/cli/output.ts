// Where command results go: stdout for results, stderr for progress and warnings. The terminal renderer
// (chalk: module loading) loads only for text output, not for --json. Results are written in chunks of
// about a megabyte as they are rendered: a result with millions of rows (`analyze --top all` of a large
// heap) is never held as one string, which V8 caps at ~512 MB (json-chunks.ts does the same for JSON).

import type { ReportDocument } from '../report/document.js';
import { markdownLines } from '../report/markdown.js';
import { jsonChunks } from './json-chunks.js';

export type OutputFormat = 'text' | 'json' | 'markdown';

const CHUNK_CHARS = 1 << 20;

/** Writes `pieces` to stdout in chunks of about CHUNK_CHARS, `separator` after each piece. */
function writePieces(pieces: Iterable<string>, separator: string): void {
  let buffer = '';
  for (const piece of pieces) {
    buffer += piece + separator;
    if (buffer.length >= CHUNK_CHARS) {
      process.stdout.write(buffer);
      buffer = '';
    }
  }
  if (buffer) process.stdout.write(buffer);
}

export async function writeResult(format: OutputFormat, json: unknown, doc: () => ReportDocument, noColor: boolean): Promise<void> {
  if (format === 'json') {
    writePieces(jsonChunks(json), '');
    process.stdout.write('\n');
  } else if (format === 'markdown') {
    writePieces(markdownLines(doc()), '\n');
  } else {
    const { outputWidth, terminalLines, terminalChalk } = await import('./render-terminal.js');
    writePieces(terminalLines(doc(), terminalChalk(process.stdout, noColor), outputWidth()), '\n');
  }
}

export function warn(message: string): void {
  process.stderr.write(`leakhunt: warning: ${message}\n`);
}

export function formatOf(options: { json?: boolean; markdown?: boolean }): OutputFormat {
  return options.json ? 'json' : options.markdown ? 'markdown' : 'text';
}
