// The change to suggest for a growing group, chosen from what its chain says: the labels (an
// AsyncLocalStorage store captured by a timer or socket, a framework object) first, then the
// container that holds it (a Map, an array, an EventEmitter's listeners, a closure). In a series, the
// holder the growth hangs on — the first hop that was there before the first snapshot
// (fold-findings.ts anchorOf) — decides it when its kind is known (holderFix): a module variable's
// context and the closure that uses it are on the chain only because the holder is reachable from them.

import type { ChainHop } from '../analysis/chain-description.js';
import { CHECKPOINT_CHAIN, HOLDER_OWNERS } from './recognisers.js';

/** A fix in two parts: why the objects stay (what the chain shows) and what to change. */
export interface Fix {
  readonly why: string;
  readonly action: string;
}

/** A finding's fix fields: the whole sentence (`fix`, as JSON has always had it) and the change alone (`action`). */
export function fixFields(f: Fix): { readonly fix: string; readonly action: string } {
  return { fix: fixText(f), action: f.action };
}

export function fixText(f: Fix): string {
  return `${f.why}: ${f.action}`;
}

function holderText(chain: readonly ChainHop[], index: number): string {
  const holder = chain[index];
  const edge = chain[index - 1]?.edge;
  if (!holder) return 'its holder';
  return `${holder.node.className} @${holder.node.id}${edge ? ` (via ${edge.name})` : ''}`;
}

/** Network clients and their long-lived internals: a store captured under one of these is a client's. */
const CLIENT_INTERNALS = /Channel|Subchannel|Client|Http2Session|Socket|Agent|Pool|Connection/;

function asyncContextFix(className: string, chain: readonly ChainHop[]): Fix | undefined {
  const store = chain.findIndex((h) => h.label?.kind === 'async-context');
  if (store < 0) return undefined;
  const resource = chain.findIndex((h) => h.label?.kind === 'async-resource');
  const what = resource >= 0 ? chain[resource]!.node.className : 'an async resource';
  const owner = resource >= 0 ? chain.slice(resource + 1).find((h) => CLIENT_INTERNALS.test(h.node.className)) : undefined;
  // A timer whose callback lives in a package is that library's: its client was built (or first used)
  // inside the request.
  const library = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(chain[resource]?.label?.text ?? '')?.[1];
  if (library && !owner) {
    return {
      why: `a ${library} timer (${what}) started inside a request's AsyncLocalStorage context keeps that request's ${className} alive`,
      action: `create the ${library} client once at process scope (at startup, or inside AsyncLocalStorage.snapshot()/als.exit()) and make its first call there too (its timers start lazily), or close the client at the end of each turn`,
    };
  }
  if (owner || !/Timeout|Immediate/.test(what)) {
    const internals = owner ? `${owner.node.className} @${owner.node.id} and its ${what}` : what;
    return {
      why: `a client's internals (${internals}) created inside a request's AsyncLocalStorage context keep that request's ${className} alive`,
      action: 'create the client once at process scope (at startup, or inside AsyncLocalStorage.snapshot()/als.exit()), or close it at the end of each turn',
    };
  }
  return {
    why: `a ${what} created inside a request's AsyncLocalStorage context keeps that request's store (and everything it reaches) alive`,
    action: 'clear the timer when the request ends, or create it at process scope — at startup, or inside AsyncLocalStorage.snapshot()/als.exit() — so it captures no request context',
  };
}

/** The container nearest to the object decides the fix: the hop that actually accumulates. */
function containerFix(className: string, chain: readonly ChainHop[], closures = true): { readonly at: number; readonly fix: Fix } | undefined {
  for (let i = 1; i < chain.length; i++) {
    const hop = chain[i]!;
    const held = chain[i - 1]!.edge;
    const name = hop.node.className;
    if (held?.name === 'table' && held.type === 'internal' && /^(Map|Set)/.test(name)) return { at: i, fix: mapFix(className, hop) };
    // Listeners live in an array under the emitter's `_events`: that is the listener case, not an array.
    const underEvents = hop.edge?.name === '_events' || chain[i + 1]?.edge?.name === '_events';
    if (name === 'Array' && held?.type === 'element' && !underEvents) return { at: i, fix: arrayFix(className, hop) };
    if (hop.edge?.name === '_events' || held?.name === '_events') return { at: i, fix: listenerFix(chain, i) };
    // A timer's callback (or its arguments) holding the request's objects: the timer is what is never cleared.
    const timer = chain[i + 1];
    if (closures && timer?.node.className === 'Timeout' && /^(_onTimeout|_timerArgs)$/.test(hop.edge?.name ?? '')) {
      return { at: i, fix: { why: `a timer (Timeout @${timer.node.id}) started per request keeps ${className} alive through its callback and is never cleared`, action: 'clearInterval/clearTimeout it when the request ends, or don\'t start one per request' } };
    }
    if (closures && hop.node.type === 'closure') {
      // A closure that is itself a listener (held in, or as, an emitter's listener entry): the
      // emitter's listeners are what accumulates, not what the function closes over.
      const events = [i + 1, i + 2].find((j) => chain[j]?.edge?.name === '_events');
      if (events !== undefined) return { at: events, fix: listenerFix(chain, events) };
      return { at: i, fix: { why: `a function kept alive by ${holderText(chain, i + 1)} closes over per-request data (${className})`, action: 'drop the function when the request ends, or don\'t capture the request\'s objects' } };
    }
  }
  return undefined;
}

function mapFix(className: string, map: ChainHop): Fix {
  const owner = map.edge?.name;
  return { why: `${className} entries are added to the ${map.node.className} @${map.node.id}${owner ? ` "${owner}"` : ''} and never deleted`, action: 'delete them when done, or bound it (LRU / TTL eviction)' };
}

function arrayFix(className: string, array: ChainHop): Fix {
  const owner = array.edge?.name;
  return { why: `${className} objects are pushed into the array${owner ? ` "${owner}"` : ''} (Array @${array.node.id}) and never removed`, action: 'remove them when done, or keep one shared instance' };
}

/** The listener case at `i`: the hop is the emitter's `_events` or a listener array under it. */
function listenerFix(chain: readonly ChainHop[], i: number): Fix {
  const hop = chain[i]!;
  const emitter = hop.edge?.name === '_events' ? chain[i + 1] : hop;
  return { why: `a listener is added per request to the EventEmitter ${emitter ? `${emitter.node.className} @${emitter.node.id}` : ''} and never removed`, action: 'remove it when the request ends (emitter.off/removeListener), or use once()' };
}

/** `Owner @id "edge"`: the object holding hop `at` and the property it holds it by. */
function ownerText(chain: readonly ChainHop[], at: number): string {
  const owner = chain[at + 1];
  const edge = chain[at]!.edge;
  return owner ? `${owner.node.className} @${owner.node.id}${edge ? ` "${edge.name}"` : ''}` : `@${chain[at]!.node.id}`;
}

/**
 * The fix from the lasting holder at `at` (the first hop there before the first snapshot), when its
 * kind or owner says what accumulates: a checkpointer's storage, a metric's series, an emitter's
 * listeners, a timer list, a Map or Set, an array, a plain object used as a dictionary (it gains a
 * property per object: held under a data-like key, or an `Object` retaining many of them). Undefined
 * when the kind says nothing, or when an AsyncLocalStorage store, the resource that captured it or
 * pending work lies between the object and the holder (asyncContextFix or the backlog rule decides).
 */
export function holderFix(className: string, chain: readonly ChainHop[], at: number): Fix | undefined {
  const hop = chain[at];
  if (!hop || at < 1) return undefined;
  if (chain.slice(0, at).some((h) => h.label?.kind === 'async-context' || h.label?.kind === 'async-resource' || h.label?.kind === 'pending-work')) return undefined;
  const held = chain[at - 1]!.edge;
  const owner = chain[at + 1];
  const name = hop.node.className;
  // A dictionary: a plain object (V8 names one in dictionary mode `Object`, a small fixed shape `{a, b}`)
  // holding the object under a key that reads as data, or retaining many objects like it.
  const dictionary = held?.type === 'property' && (held.redacted === true || (name === 'Object' && holdsMany(chain, at)));
  if (owner && HOLDER_OWNERS.checkpointer.test(owner.node.className) && hop.edge?.type === 'property') {
    return {
      why: `${className} objects accumulate in the checkpointer's storage (${ownerText(chain, at)}, keyed by thread): it keeps every thread's checkpoints in process memory`,
      action: CHECKPOINTER_ADVICE,
    };
  }
  if ((owner && HOLDER_OWNERS.metric.test(owner.node.className)) || HOLDER_OWNERS.metricEdge.test(hop.edge?.name ?? '')) {
    return {
      why: `${className} objects are metric series added to ${ownerText(chain, at)}, one per distinct label set, and a label takes a new value per request`,
      action: 'keep label cardinality bounded: label by the route template (/orders/:id), never the raw URL, ids or user input',
    };
  }
  if (hop.edge?.name === '_events' || chain[at + 1]?.edge?.name === '_events') return listenerFix(chain, hop.edge?.name === '_events' ? at : at + 1);
  if (name === 'TimersList' || hop.edge?.name === 'timerListMap') {
    return { why: `timers started per request (in the timer list ${name} @${hop.node.id}) keep ${className} alive and are never cleared`, action: 'clearTimeout/clearInterval them when the request ends, or don\'t start one per request' };
  }
  if (/^(Map|Set)/.test(name)) return mapFix(className, hop);
  if (name === 'Array' && held?.type === 'element') return arrayFix(className, hop);
  if (dictionary && hop.node.type === 'object' && !name.startsWith('system /')) {
    return {
      why: `${className} objects are added to ${name} @${hop.node.id}${hop.edge ? ` "${hop.edge.name}"` : ''}, one property per key (keys taken from request data), and never deleted`,
      action: 'delete the key when done, or bound it (LRU / TTL eviction)',
    };
  }
  return undefined;
}

/**
 * Whether the collection at `at` holds many objects like the first one: it retains several times what
 * one of them does (a turn's `handlers` array holding one tracer does not; a `pending` array holding
 * every turn's record does).
 */
function holdsMany(chain: readonly ChainHop[], at: number): boolean {
  const one = chain[0]!.retainedSize;
  return one > 0 && chain[at]!.retainedSize >= 8 * one;
}

/** Resources that end on their own within a turn of the event loop: a store they captured is not what lasts. */
const SHORT_LIVED_RESOURCES = /^Immediate$/;

export function suggestFix(className: string, chain: readonly ChainHop[]): Fix {
  // An AsyncLocalStorage store explains the chain unless a collection nearer to the object is what
  // accumulates (it holds many of them: the store is then only on the shortest path by chance), or the
  // resource that captured it is short-lived (a pending setImmediate of the turn in flight).
  const store = chain.findIndex((h) => h.label?.kind === 'async-context');
  const resource = chain.findIndex((h) => h.label?.kind === 'async-resource');
  const shortLived = resource >= 0 && SHORT_LIVED_RESOURCES.test(chain[resource]!.node.className);
  const collection = containerFix(className, chain, false);
  const accumulates = collection !== undefined && collection.at <= store && holdsMany(chain, collection.at);
  if (store >= 0 && !shortLived && !accumulates) {
    const context = asyncContextFix(className, chain);
    if (context) return context;
  }
  // Objects inside a checkpoint's channel values are a LangGraph thread's state: a long thread grows it
  // step by step, and each checkpoint copies it whole.
  const state = chain.findIndex((h) => h.edge?.name === 'channel_values');
  if (state > 0) {
    return {
      why: `${className} objects are a LangGraph thread's state, held in a checkpoint's channel values (${chain[state]!.node.className} @${chain[state]!.node.id}): the state grows with every step of the thread and each checkpoint copies it`,
      action: CHECKPOINTER_ADVICE,
    };
  }
  if (/^(CompiledStateGraph|StateGraph|Pregel)$/.test(className)) {
    return { why: `${className} objects should be few`, action: 'compile the graph once at startup and reuse it for every turn instead of compiling per request' };
  }
  const container = containerFix(className, chain);
  if (container) return container.fix;
  const holder = chain.length > 1 ? holderText(chain, 1) : 'its holder';
  return { why: `${className} objects stay reachable through ${holder}`, action: 'release them when the unit of work ends' };
}

/**
 * Where the pending hop at `at` waits, as DevTools shows it: the holder and its property
 * (`SlowConnectionPool.waiting`), looking through the array a queue keeps its entries in.
 */
export function pendingQueueOf(chain: readonly ChainHop[], at: number): string | undefined {
  let i = at + 1;
  if ((chain[i]?.node.type === 'array' || chain[i]?.node.className === 'Array') && chain[i + 1]) i++;
  const holder = chain[i];
  const edge = chain[i - 1]?.edge;
  if (!holder || !edge || holder.edge === null) return undefined;
  return `${holder.node.className}${edge.type === 'element' ? `[${edge.name}]` : `.${edge.name}`} (@${holder.node.id})`;
}

/** Whether the chain runs through LangGraph's checkpoint chain (recognisers.ts CHECKPOINT_CHAIN). */
export function showsCheckpointChain(chain: readonly ChainHop[]): boolean {
  return chain.some((h) => CHECKPOINT_CHAIN.classes.test(h.node.className) || (h.edge !== null && CHECKPOINT_CHAIN.edges.test(h.edge.name)));
}

/**
 * The fix for growth held by pending work: LangGraph's durability advice only when the chain shows its
 * checkpoint chain, or the series shows LangGraph's runs piling up beside the backlog
 * (`checkpointRunsPileUp`: a queue of the saver's own, such as its connection pool, may be what the
 * chain shows); otherwise the generic backlog advice, naming the queue when the chain shows it (or
 * the class that piles up when there is no chain).
 */
export function backlogFix(chain: readonly ChainHop[], className?: string, checkpointRunsPileUp = false): Fix {
  const at = chain.findIndex((h) => h.label?.kind === 'pending-work');
  const queue = at >= 0 ? pendingQueueOf(chain, at) : undefined;
  const advice = showsCheckpointChain(chain) || checkpointRunsPileUp ? CHECKPOINT_ADVICE : genericAdvice(queue);
  if (at >= 0) {
    return { why: `pending operations (${chain[at]!.node.className}${queue ? ` in ${queue}` : ''}) arrive faster than they complete, and each keeps its turn's objects alive until it does`, action: advice };
  }
  const name = className ?? chain[0]?.node.className;
  return { why: `work${name ? ` (${name})` : ''} is queued faster than it completes (pending promises or writes pile up)`, action: advice };
}

/** What to change when a checkpointer's storage (or what it copies) grows: one home for holderFix, the checkpoint state and holder-bytes.ts. */
export const CHECKPOINTER_ADVICE =
  'prune what the checkpointer keeps (delete each thread when its conversation ends, checkpointer.deleteThread(threadId); keep a thread\'s last checkpoints, not all; bound how long one thread runs), or use a durable saver (SqliteSaver, PostgresSaver) instead of an in-memory one';

/**
 * The fix for growth held in the reaction list of one promise that never settles (`at`: the promise's
 * hop): each `Promise.race`, `then` or `await` on it adds a reaction that lives until it settles.
 */
export function unsettledPromiseFix(chain: readonly ChainHop[], at: number, className: string): Fix {
  return {
    why: `every unit of work adds a reaction to one promise that never settles (Promise @${chain[at]!.node.id}, held by ${ownerText(chain, at)}), and each reaction keeps its ${className} until that promise settles`,
    action: 'race against a promise that settles per turn (or is dropped when the turn ends), or remove the reaction when the turn ends: an AbortSignal listener added with { once: true } and removed at the end, events.once(emitter, name, { signal }) with a per-turn signal; never Promise.race a promise that lives as long as the process',
  };
}

const CHECKPOINT_ADVICE =
  'LangGraph\'s checkpoint writes queue behind a saver slower than the graph (durability "async", the default) — make the saver faster, bound concurrency, or use durability "sync" so each write completes before the next step';

function genericAdvice(queue: string | undefined): string {
  const where = queue ?? 'the queue';
  return `bound ${where} (reject or shed work past a limit), add consumers (more workers or connections), or apply backpressure (stop taking new work while it is full)`;
}
