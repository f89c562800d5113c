// Units of work shared by the runner checks (test/testing/runners.test.ts): one that leaks a RunRecord
// per call into a module-level array, one that allocates and drops.
export class RunRecord {
  constructor(i) {
    this.id = i;
    this.steps = [{ step: 'start', at: i }];
  }
}

const history = [];

export function leakyRun(i) {
  history.push(new RunRecord(i));
}

export async function cleanRun(i) {
  const record = new RunRecord(i);
  await new Promise((resolve) => setImmediate(resolve));
  return record.steps.length;
}

/** Options small enough for a spawned runner on a loaded machine; the defaults are 30 / 5. */
export const options = { iterations: 20, warmup: 3 };

// A heartbeat per request started inside the request's AsyncLocalStorage context and never cleared:
// each Timeout keeps its request's store alive (on Node 24 through an AsyncContextFrame).
import { AsyncLocalStorage } from 'node:async_hooks';

export class RequestContext {
  constructor(i) {
    this.requestId = i;
  }
}

const requestContext = new AsyncLocalStorage();

function heartbeat() {
  return requestContext.getStore()?.requestId;
}

export function leakyHeartbeat(i) {
  return requestContext.run(new RequestContext(i), () => {
    setInterval(heartbeat, 60_000).unref(); // unref: the process can still exit
  });
}
