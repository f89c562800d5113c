// Growth bounded by the code, not by the work: what Node's module system keeps per module it has loaded.
// The ESM loader's resolve and load caches and module jobs (Node's lib/internal/modules/esm: ModuleLoader,
// ResolveCache, LoadCache, ModuleMap, ModuleJob, ModuleWrap) and V8's module records with what they hold
// (a module's namespace, its evaluation promise and generator). A service that loads modules on first use
// (`import()` of a lazy route or plugin) fills them once per module: an older instance holds more than a
// younger one, as with a leak, but never more than its code has modules. Compiled code, shapes and V8's
// system objects are left out of findings already (group-filter.ts V8_INTERNAL).
// group-filter.ts applies it for every finder: such a group never makes a leak finding of its own.

import type { ChainHop } from '../analysis/chain-description.js';
import { NO_ROOT } from '../analysis/path-signatures.js';

const LOADER_CLASSES = /^(ModuleLoader|ResolveCache|LoadCache|ModuleMap|ModuleJob|ModuleJobSync|ModuleWrap)$/;
const MODULE_RECORDS = /^system \/ (SourceTextModule|SyntheticModule)$/;

/**
 * The group's own holders (the hops its signature names, up to the first holder shared with other
 * objects, where a comparison key stops: signature-keys.ts) include the module system. Holders above
 * that are not looked at: every module-level variable of an ES module is reached through its module
 * record somewhere up the chain, and a Map there that grows per request is a leak.
 */
export function heldByModuleSystem(group: { readonly signature: string; readonly chain: readonly ChainHop[] }): boolean {
  const parts = group.signature.split(' ← ');
  const last = parts[parts.length - 1];
  const own = last === '…' || last === NO_ROOT ? parts.length - 1 : parts.length;
  return group.chain.slice(1, own).some((hop) => LOADER_CLASSES.test(hop.node.className) || MODULE_RECORDS.test(hop.node.name));
}
