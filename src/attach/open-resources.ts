// The one place that knows what leakhunt has opened in other processes and must close before it ends:
// inspector sessions (an inspector we opened with SIGUSR1 is closed again) and per-target lock files.
// Whatever opens such a thing registers an async close here and unregisters it once closed normally;
// every way the CLI ends (EPIPE on stdout, signals, an uncaught error, the top-level catch) awaits
// `closeAllOpen` before it exits (src/cli/entry.ts, src/cli/commands/attach-common.ts). The closes run
// last-opened first (a session is closed before the lock that guards it is released), each bounded.

export interface OpenResource {
  /** For messages: "the inspector of pid 42 on 127.0.0.1:9229". */
  readonly what: string;
  /** Closes it; must be safe to call twice and after a normal close has begun. */
  readonly close: () => Promise<void>;
  /** What can be undone without the event loop (a lock file), for the process's 'exit' event. */
  readonly closeSync?: () => void;
}

const open: OpenResource[] = [];
let closing: Promise<string[]> | undefined;

/** Registers `resource`; the returned function unregisters it (call it once it is closed). */
export function holdOpen(resource: OpenResource): () => void {
  open.push(resource);
  return () => {
    const i = open.indexOf(resource);
    if (i >= 0) open.splice(i, 1);
  };
}

/** What is open now, last-opened first. */
export function openResources(): readonly string[] {
  return open.map((r) => r.what).reverse();
}

/**
 * Closes everything still open, last-opened first, each within `eachMs`; resolves with what did not
 * close in time. A second call while the first runs gets the same promise; a call after it finished
 * closes what opened since.
 */
export function closeAllOpen(eachMs = 5000): Promise<string[]> {
  closing ??= (async () => {
    const late: string[] = [];
    try {
      while (open.length > 0) {
        const resource = open.pop()!;
        let timer: NodeJS.Timeout | undefined;
        const closed = await Promise.race([
          resource.close().then(() => true, () => true),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), eachMs))),
        ]);
        clearTimeout(timer);
        if (!closed) late.push(resource.what);
      }
      return late;
    } finally {
      closing = undefined;
    }
  })();
  return closing;
}

/** The synchronous part of every close, for the last moment (the process's 'exit' event). */
export function closeAllOpenSync(): void {
  for (const resource of open.reverse()) {
    try {
      resource.closeSync?.();
    } catch {
      // best effort: the process is ending
    }
  }
  open.length = 0;
}
