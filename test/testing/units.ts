// Units of work for the assertNoLeak tests: three that leak the way services do (an object per call
// pushed into a module-level array, a listener per call on a long-lived emitter, a timer per call that
// captures the request's AsyncLocalStorage store) and four that do the same work correctly.

import { AsyncLocalStorage } from 'node:async_hooks';
import { EventEmitter } from 'node:events';

export class Order {
  readonly id: number;
  readonly lines: { sku: string; qty: number }[];
  constructor(i: number) {
    this.id = i;
    this.lines = [{ sku: `sku-${i % 7}`, qty: 1 + (i % 3) }];
  }
}

export class Session {
  readonly id: number;
  settings: { theme: string };
  constructor(i: number) {
    this.id = i;
    this.settings = { theme: i % 2 ? 'dark' : 'light' };
  }
}

export class RequestContext {
  readonly requestId: number;
  readonly log: string[] = [];
  constructor(i: number) {
    this.requestId = i;
  }
}

const pendingOrders: Order[] = [];
export const configBus = new EventEmitter();
configBus.setMaxListeners(0);
const requestContext = new AsyncLocalStorage<RequestContext>();
let beats = 0;

function heartbeat(): void {
  beats += requestContext.getStore()?.log.length ?? 0;
}

/** Leak: every order is queued and never taken off. */
export function queueOrder(i: number): number {
  pendingOrders.push(new Order(i));
  return pendingOrders.length;
}

/** Leak: a listener per call, closing over the call's Session, never removed. */
export function subscribeSession(i: number): void {
  const session = new Session(i);
  configBus.on('config-change', function onConfigChange(theme: string) {
    session.settings = { theme };
  });
}

/** Leak: a heartbeat per request, started inside the request's ALS context and never cleared. */
export async function handleWithHeartbeat(i: number): Promise<number> {
  return requestContext.run(new RequestContext(i), async () => {
    // unref: the leak is the same, but the test process can still exit.
    setInterval(heartbeat, 60_000).unref();
    await Promise.resolve();
    return beats;
  });
}

/** Drops what the leaking units kept (the heartbeats are unref'd and stay until the process exits). */
export function dropLeakedWork(): void {
  configBus.removeAllListeners('config-change');
  pendingOrders.length = 0;
}

// ---- the same work, done correctly ----

/** Allocates, awaits a macrotask, drops. */
export async function priceOrder(i: number): Promise<number> {
  const order = new Order(i);
  await new Promise((resolve) => setImmediate(resolve));
  return order.lines.reduce((sum, l) => sum + l.qty, 0);
}

const CACHE_LIMIT = 8;
const orderCache = new Map<string, Order>();

/** A cache bounded to 8 entries, oldest evicted. */
export function cacheOrder(i: number): number {
  orderCache.set(`order-${i}`, new Order(i));
  if (orderCache.size > CACHE_LIMIT) orderCache.delete(orderCache.keys().next().value!);
  return orderCache.size;
}

/** A timer inside the request's ALS context, cleared before the request ends. */
export async function handleWithClearedTimer(i: number): Promise<number> {
  return requestContext.run(new RequestContext(i), async () => {
    const timer = setInterval(heartbeat, 60_000);
    await Promise.resolve();
    clearInterval(timer);
    return beats;
  });
}

/** A listener per call, removed when the call ends. */
export function subscribeOnce(i: number): void {
  const session = new Session(i);
  const onConfigChange = (theme: string): void => {
    session.settings = { theme };
  };
  configBus.on('config-change', onConfigChange);
  configBus.emit('config-change', 'dark');
  configBus.off('config-change', onConfigChange);
}
