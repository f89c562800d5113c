// The report model every command's result is turned into: a list of blocks (headings, field lists,
// tables, lines). Text for the terminal (src/cli/render-terminal.ts), Markdown and HTML are renderings
// of the same blocks, so the three never disagree about what a report says.

export type Tone = 'plain' | 'dim' | 'good' | 'warn' | 'bad';

export type Align = 'left' | 'right';

export type Block =
  | { readonly kind: 'heading'; readonly text: string }
  | { readonly kind: 'fields'; readonly rows: readonly (readonly [string, string])[] }
  | {
      readonly kind: 'table';
      readonly title?: string;
      readonly head: readonly string[];
      readonly rows: readonly (readonly string[])[];
      readonly align?: readonly Align[];
    }
  | { readonly kind: 'lines'; readonly lines: readonly string[]; readonly tone?: Tone }
  /** Preformatted lines (retainer chains): kept as they are, fenced in Markdown. */
  | { readonly kind: 'code'; readonly lines: readonly string[] };

export type ReportDocument = readonly Block[];
