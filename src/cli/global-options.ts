// Options every command shares, and the exit status a command sets when it finds a leak.

export interface GlobalOptions {
  readonly debug: boolean;
  readonly noColor: boolean;
}

/** The exit code a command reports without throwing (1 when a gate fails or a leak is found). */
export class ExitStatus {
  code = 0;

  raise(code: number): void {
    this.code = Math.max(this.code, code);
  }
}
