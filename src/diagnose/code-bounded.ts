// Growth bounded by the code, not by the work: what Node's module system keeps per module it has loaded.
// The ESM loader's resolve and load caches and module jobs (Node's lib/internal/modules/esm: ModuleLoader,
// ResolveCache, LoadCache, ModuleMap, ModuleJob, ModuleWrap) and V8's module records with what they hold
// (a module's namespace, its evaluation promise and generator). A service that loads modules on first use
// (`import()` of a lazy route or plugin) fills them once per module: an older instance holds more than a
// younger one, as with a leak, but never more than its code has modules. Compiled code, shapes and V8's
// system objects are left out of findings already (group-filter.ts V8_INTERNAL).
// group-filter.ts applies it for every finder: such a group never makes a leak finding of its own.
//
// A module record bounds only what it holds through V8's own module plumbing. Every module-level
// variable hangs off its record: an exported one through a Cell (`system / Cell` ← `(array)` ←
// `system / SourceTextModule`), a local one through the module's Context (← its evaluation Generator
// on Node 24). `export const sessions = new Map()` that grows per request was bounded by the record and
// read NO LEAK FOUND (Node 24 always, Node 20 when the chain ran through the record rather than the
// timer's code). A program container (Map, Array, Object, a class instance) between the objects and
// the record is the program's structure: a leak can be led. The loader classes bound what they hold
// through their own containers (a SafeMap in ModuleMap), as before.

import type { ChainHop } from '../analysis/chain-description.js';
import { NO_ROOT } from '../analysis/path-signatures.js';

const LOADER_CLASSES = /^(ModuleLoader|ResolveCache|LoadCache|ModuleMap|ModuleJob|ModuleJobSync|ModuleWrap)$/;
const MODULE_RECORDS = /^system \/ (SourceTextModule|SyntheticModule)$/;
/** V8's hops between a module's objects and its record: cells, contexts, internal arrays, code. */
const V8_PLUMBING = /^\((system|array|compiled code|object shape)\)$|^system \/ /;
/** The record's own objects (namespace, evaluation generator and its function), held through V8's slots. */
const RECORD_OWN = /^(Module|Generator|Function)$/;

/** A hop of V8's module plumbing, not of the program's own structure. */
function isModulePlumbing(hop: ChainHop): boolean {
  if (V8_PLUMBING.test(hop.node.className)) return true;
  return RECORD_OWN.test(hop.node.className) && (hop.edge?.type === 'internal' || hop.edge?.type === 'hidden');
}

/**
 * The group's own holders (the hops its signature names, up to the first holder shared with other
 * objects, where a comparison key stops: signature-keys.ts) reach the module system, and the first
 * module-system hop from the objects decides: a loader class bounds them; a module record bounds them
 * only when every hop below it is module plumbing. Holders above the own ones are not looked at.
 */
export function heldByModuleSystem(group: { readonly signature: string; readonly chain: readonly ChainHop[] }): boolean {
  const parts = group.signature.split(' ← ');
  const last = parts[parts.length - 1];
  const own = last === '…' || last === NO_ROOT ? parts.length - 1 : parts.length;
  let programHolder = false;
  for (const hop of group.chain.slice(1, own)) {
    if (LOADER_CLASSES.test(hop.node.className)) return true;
    if (MODULE_RECORDS.test(hop.node.name)) return !programHolder;
    if (!isModulePlumbing(hop)) programHolder = true;
  }
  return false;
}
