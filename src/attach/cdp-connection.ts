// A Chrome DevTools Protocol connection over one websocket: commands with ids and deadlines, events
// handed to their listener synchronously inside the websocket's message callback (so a heap snapshot
// chunk is written before the next frame is even parsed: no queue of chunks builds up here), and a
// close that says whether the other side went away. Every command has a deadline: a fixed one, or one
// that moves with the target's progress (a heap snapshot streams for as long as the heap needs; a
// target that sent nothing for `stallMs` is stuck). `abandon` drops the connection at once, failing
// every command in flight (a target that wants to exit must not wait for us). Built on `ws` (the websocket of
// chrome-remote-interface, resolved through it so that we depend on nothing new).

import { createRequire } from 'node:module';

/** The part of the `ws` client we use. */
interface WsClient {
  readonly readyState: number;
  on(event: 'open', listener: () => void): void;
  on(event: 'message', listener: (data: Buffer | string) => void): void;
  on(event: 'close', listener: (code: number) => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  send(data: string, callback: (err?: Error) => void): void;
  close(): void;
  terminate(): void;
}
type WsConstructor = new (url: string, options: { perMessageDeflate: boolean; handshakeTimeout: number; maxPayload: number }) => WsClient;

function loadWs(): WsConstructor {
  const require = createRequire(import.meta.url);
  const fromCri = createRequire(require.resolve('chrome-remote-interface'));
  return fromCri('ws') as WsConstructor;
}

/** The connection closed (the target exited, or closed its inspector) before the answer came. */
export class ConnectionClosedError extends Error {}

/** The connection was dropped on purpose because the target is exiting (see session.ts). */
export class TargetExitingError extends ConnectionClosedError {}

/** No answer within the deadline (or, for a progress deadline, nothing at all from the target for that long). */
export class CommandTimeoutError extends Error {}

/**
 * A fixed deadline in ms, or one that runs from the last message the target sent, or from the last
 * sign of life `aliveAt` reports (ms since the epoch), whichever is later: a target writing a file
 * sends nothing, but the file grows.
 */
export type Deadline = number | { readonly stallMs: number; readonly aliveAt?: () => number };

/** The target answered a command with a protocol error. */
export class ProtocolError extends Error {}

type EventListener = (params: Record<string, unknown>) => void;

interface Pending {
  readonly method: string;
  readonly resolve: (result: Record<string, unknown>) => void;
  readonly reject: (err: Error) => void;
  readonly timer?: NodeJS.Timeout;
}

const OPEN = 1;

export class CdpConnection {
  readonly url: string;
  readonly #ws: WsClient;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Map<string, EventListener>();
  readonly #closeListeners: ((code: number) => void)[] = [];
  readonly #closed: Promise<number>;
  #nextId = 1;
  #isClosed = false;
  #lastMessageAt = Date.now();

  private constructor(url: string, ws: WsClient) {
    this.url = url;
    this.#ws = ws;
    ws.on('message', (data) => this.#onMessage(data));
    this.#closed = new Promise((resolve) => {
      ws.on('close', (code) => {
        this.#markClosed(code, (method) => new ConnectionClosedError(`the inspector connection closed during ${method}`));
        resolve(code);
      });
    });
    ws.on('error', () => {}); // a 'close' always follows
  }

  static connect(url: string, timeoutMs: number): Promise<CdpConnection> {
    const WebSocket = loadWs();
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: timeoutMs, maxPayload: 256 * 1024 * 1024 });
      ws.on('open', () => resolve(new CdpConnection(url, ws)));
      ws.on('error', (err) => reject(new Error(`cannot open ${url}: ${err.message}`)));
    });
  }

  get isClosed(): boolean {
    return this.#isClosed;
  }

  /** Resolves with the close code once the websocket is closed, from either side. */
  get closed(): Promise<number> {
    return this.#closed;
  }

  /** One listener per event name; it runs synchronously for each event. */
  on(method: string, listener: EventListener | undefined): void {
    if (listener) this.#listeners.set(method, listener);
    else this.#listeners.delete(method);
  }

  onClose(listener: (code: number) => void): void {
    this.#closeListeners.push(listener);
  }

  /** When the target last sent anything (an answer, an event, a snapshot chunk). */
  get lastMessageAt(): number {
    return this.#lastMessageAt;
  }

  send(method: string, params: Record<string, unknown>, deadline: Deadline): Promise<Record<string, unknown>> {
    if (this.#isClosed || this.#ws.readyState !== OPEN) {
      return Promise.reject(new ConnectionClosedError(`the inspector connection is closed (${method})`));
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const fail = (err: Error): void => {
        const p = this.#pending.get(id);
        if (p?.timer) clearTimeout(p.timer);
        this.#pending.delete(id);
        reject(err);
      };
      const arm = (ms: number): NodeJS.Timeout => setTimeout(() => {
        if (typeof deadline === 'number') {
          fail(new CommandTimeoutError(`${method}: no answer from the target within ${deadline} ms`));
          return;
        }
        const quietMs = Date.now() - Math.max(this.#lastMessageAt, startedAt, deadline.aliveAt?.() ?? 0);
        if (quietMs >= deadline.stallMs) {
          const what = deadline.aliveAt ? 'no progress, no data, no sign of work' : 'no progress, no data';
          fail(new CommandTimeoutError(`${method}: the target sent nothing for ${Math.round(quietMs / 1000)} s (${what}): it is stuck`));
          return;
        }
        const p = this.#pending.get(id);
        if (p) this.#pending.set(id, { ...p, timer: arm(deadline.stallMs - quietMs) });
      }, ms);
      const startedAt = Date.now();
      const timer = arm(typeof deadline === 'number' ? deadline : deadline.stallMs);
      this.#pending.set(id, { method, resolve, reject, timer });
      this.#ws.send(JSON.stringify({ id, method, params }), (err) => {
        if (err) fail(new ConnectionClosedError(`${method}: ${err.message}`));
      });
    });
  }

  /**
   * Drops the connection now: every command in flight fails with TargetExitingError, close listeners
   * run, and the websocket is closed (forced shut after `timeoutMs`). For a target on its way out.
   */
  abandon(why: string, timeoutMs = 500): void {
    if (this.#isClosed) return;
    this.#markClosed(1001, (method) => new TargetExitingError(`${why} (during ${method})`));
    this.#ws.close();
    setTimeout(() => this.#ws.terminate(), timeoutMs).unref();
  }

  #markClosed(code: number, errorFor: (method: string) => Error): void {
    if (this.#isClosed) return;
    this.#isClosed = true;
    for (const p of this.#pending.values()) {
      if (p.timer) clearTimeout(p.timer);
      p.reject(errorFor(p.method));
    }
    this.#pending.clear();
    for (const l of this.#closeListeners) l(code);
  }

  /** Closes the websocket; forces it shut if the other side does not answer within `timeoutMs`. */
  async close(timeoutMs = 1000): Promise<void> {
    if (this.#isClosed) {
      // abandoned: the websocket may still be closing; it is forced shut by then
      await Promise.race([this.#closed, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
      return;
    }
    this.#ws.close();
    const timer = setTimeout(() => this.#ws.terminate(), timeoutMs);
    await this.#closed;
    clearTimeout(timer);
  }

  #onMessage(data: Buffer | string): void {
    if (this.#isClosed) return; // abandoned: nothing more is read
    this.#lastMessageAt = Date.now();
    let msg: { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { message?: string } };
    try {
      msg = JSON.parse(typeof data === 'string' ? data : data.toString('utf8'));
    } catch {
      return; // not CDP
    }
    if (typeof msg.id === 'number') {
      const p = this.#pending.get(msg.id);
      if (!p) return;
      this.#pending.delete(msg.id);
      if (p.timer) clearTimeout(p.timer);
      if (msg.error) p.reject(new ProtocolError(`${p.method}: ${msg.error.message ?? 'protocol error'}`));
      else p.resolve(msg.result ?? {});
    } else if (typeof msg.method === 'string') {
      this.#listeners.get(msg.method)?.(msg.params ?? {});
    }
  }
}
