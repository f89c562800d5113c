// Noticing that a target wants to exit while a session is open (see session.ts for why it matters: a
// process that exits with a debugger attached waits for it to disconnect). Three signs, whichever comes
// first: Node's own notification (`NodeRuntime.notifyWhenWaitingForDisconnect` → `waitingForDisconnect`),
// or, on a Node without it, the destruction of the main execution context (`Runtime.enable`, default
// contexts only: a vm context being collected is not an exit); and the pid gone from /proc.

import { ProtocolError, type CdpConnection } from './cdp-connection.js';
import { PROC_ROOT, processAlive } from './proc-status.js';

export interface ExitWatchOptions {
  /** The target's local pid, looked for in /proc every PID_WATCH_MS; omitted behind a port-forward. */
  readonly pid?: number;
  readonly procRoot?: string;
  /** Deadline of the commands that ask for the notifications. */
  readonly timeoutMs: number;
}

/** How often the pid is looked for in /proc while a session is open. */
const PID_WATCH_MS = 250;

/** Calls `onExiting` (once) with why the target is taken to be exiting; returns how to stop watching. */
export async function watchForExit(conn: CdpConnection, options: ExitWatchOptions, onExiting: (why: string) => void): Promise<() => void> {
  let told = false;
  let timer: NodeJS.Timeout | undefined;
  const stop = (): void => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  const exiting = (why: string): void => {
    if (told) return;
    told = true;
    stop();
    onExiting(why);
  };
  conn.onClose(stop);
  conn.on('NodeRuntime.waitingForDisconnect', () => exiting('it is exiting and waits for debuggers to disconnect'));
  const pid = options.pid;
  if (pid !== undefined) {
    const procRoot = options.procRoot ?? PROC_ROOT;
    timer = setInterval(() => {
      if (!processAlive(pid, procRoot)) exiting(`pid ${pid} is gone`);
    }, PID_WATCH_MS);
    timer.unref();
  }
  try {
    await conn.send('NodeRuntime.notifyWhenWaitingForDisconnect', { enabled: true }, options.timeoutMs);
  } catch (err) {
    if (!(err instanceof ProtocolError)) return stop; // closed or silent: the pid watch and the deadlines remain
    const mainContexts = new Set<unknown>();
    conn.on('Runtime.executionContextCreated', (p) => {
      const context = p.context as { id?: unknown; auxData?: { isDefault?: boolean } } | undefined;
      if (context?.auxData?.isDefault) mainContexts.add(context.id);
    });
    conn.on('Runtime.executionContextDestroyed', (p) => {
      if (mainContexts.has(p.executionContextId)) exiting('its main context was destroyed (it is exiting)');
    });
    conn.on('Runtime.executionContextsCleared', () => exiting('its contexts were cleared (it is exiting)'));
    await conn.send('Runtime.enable', {}, options.timeoutMs).catch(() => {});
  }
  return stop;
}
