// The change to suggest for a growing group, chosen from what its chain says: the labels (an
// AsyncLocalStorage store captured by a timer or socket, a framework object) first, then the
// container that holds it (a Map, an array, an EventEmitter's listeners, a closure).

import type { ChainHop } from '../analysis/chain-description.js';

function holderText(chain: readonly ChainHop[], index: number): string {
  const holder = chain[index];
  const edge = chain[index - 1]?.edge;
  if (!holder) return 'its holder';
  return `${holder.node.className} @${holder.node.id}${edge ? ` (via ${edge.name})` : ''}`;
}

function findEdge(chain: readonly ChainHop[], test: (name: string, type: string) => boolean): number {
  return chain.findIndex((hop) => hop.edge !== null && test(hop.edge.name, hop.edge.type));
}

export function suggestFix(className: string, chain: readonly ChainHop[]): string {
  const store = chain.findIndex((h) => h.label?.kind === 'async-context');
  if (store >= 0) {
    const resource = chain.findIndex((h) => h.label?.kind === 'async-resource');
    const what = resource >= 0 ? chain[resource]!.node.className : 'an async resource';
    if (/Timeout|Immediate/.test(what)) {
      return `a ${what} created inside a request's AsyncLocalStorage context keeps that request's store (and everything it reaches) alive: clear the timer when the request ends, or create it at process scope — at startup, or inside AsyncLocalStorage.snapshot()/als.exit() — so it captures no request context`;
    }
    return `this client's long-lived internals (${what}) were created inside a request's AsyncLocalStorage context and keep its store alive: create the client once at process scope, outside any request — at startup or inside als.exit()/AsyncLocalStorage.snapshot() — or close it at the end of each turn`;
  }
  if (chain.some((h) => h.label?.kind === 'framework' && /compiled graph|Pregel runtime|graph builder/.test(h.label.text)) && /CompiledStateGraph|StateGraph|Pregel$/.test(className)) {
    return `${className} objects should be few: compile the graph once at startup and reuse it for every turn instead of compiling per request`;
  }
  const listeners = findEdge(chain, (name) => name === '_events');
  if (listeners >= 0) {
    return `a listener is added per request to the EventEmitter ${holderText(chain, listeners + 1)} and never removed: remove it when the request ends (emitter.off/removeListener), or use once()`;
  }
  const mapTable = findEdge(chain, (name, type) => name === 'table' && type === 'internal');
  if (mapTable >= 0 && /^(Map|Set)/.test(chain[mapTable + 1]?.node.className ?? '')) {
    const map = chain[mapTable + 1]!;
    const owner = chain[mapTable + 1]?.edge?.name;
    return `${className} entries are added to the ${map.node.className} @${map.node.id}${owner ? ` "${owner}"` : ''} and never deleted: delete them when done, or bound it (LRU / TTL eviction)`;
  }
  const element = chain.findIndex((h, i) => i > 0 && /^Array$/.test(h.node.className) && chain[i - 1]!.edge?.type === 'element');
  if (element >= 0) {
    const owner = chain[element]!.edge?.name;
    return `${className} objects are pushed into the array${owner ? ` "${owner}"` : ''} (Array @${chain[element]!.node.id}) and never removed: remove them when done, or keep one shared instance`;
  }
  const closure = chain.findIndex((h, i) => i > 0 && h.node.type === 'closure');
  if (closure >= 0) {
    return `a function kept alive by ${holderText(chain, closure + 1)} closes over per-request data (${className}): drop the function when the request ends, or don't capture the request's objects`;
  }
  const holder = chain.length > 1 ? holderText(chain, 1) : 'its holder';
  return `${className} objects stay reachable through ${holder}: release them when the unit of work ends`;
}

export const BACKLOG_FIX =
  'work is queued faster than it completes (pending promises/writes pile up): under LangGraph\'s default durability "async" a checkpoint saver slower than the graph builds a backlog — make the saver faster, bound concurrency, or use durability "sync" so each write completes before the next step';
