// Options every command shares.

export interface GlobalOptions {
  readonly debug: boolean;
  readonly noColor: boolean;
}
