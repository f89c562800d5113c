// What the module system bounds (src/diagnose/code-bounded.ts), on the chains real snapshots give
// (Node 20.20.2 and 24.22.3): a module record bounds what it holds through V8's plumbing alone (cells,
// contexts, its namespace and evaluation generator), not what a program container between them holds;
// the loader classes bound what they hold through their own containers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChainHop } from '../../src/analysis/chain-description.js';
import { heldByModuleSystem } from '../../src/diagnose/code-bounded.js';
import { mayLeadFinding } from '../../src/diagnose/group-filter.js';

/** `[edge type:name] className {name}`, as a chain's hop: the edge by which the next hop holds it. */
type HopSpec = readonly [className: string, edge: string | null, name?: string];

let nextId = 1;
function chainOf(...specs: readonly HopSpec[]): ChainHop[] {
  return specs.map(([className, edge, name]) => {
    const colon = edge?.indexOf(':') ?? -1;
    return {
      node: { id: nextId++, name: name ?? className, type: className.startsWith('(') ? 'hidden' : 'object', className },
      edge: edge === null ? null : { type: edge.slice(0, colon), name: edge.slice(colon + 1) },
      selfSize: 16,
      retainedSize: 16,
    };
  });
}

/** The group of a chain that ends at the root: every hop is one of its own holders. */
function groupOf(chain: ChainHop[]) {
  const signature = chain.map((h, k) => (k < chain.length - 1 ? `${h.node.className}${h.edge ? `.${h.edge.name}` : ''}` : '(root)[]')).join(' ← ');
  return { className: chain[0]!.node.className, signature, chain, heldBy: 'lasting' as const };
}

const CELL: HopSpec = ['(system)', 'internal:value', 'system / Cell'];
/** The record's array of export cells. */
const EXPORTS: HopSpec = ['(array)', 'hidden:0'];
const RECORD = (edge: string): HopSpec => ['(system)', edge, 'system / SourceTextModule'];
const ENTRY_WRAP: readonly HopSpec[] = [['ModuleWrap', 'property:<symbol node:entry_point_module>'], ['global', 'shortcut:2'], ['(root)', null]];

test('an exported Map that grows per request: its record holds it through the program\'s Map, a leak may be led', () => {
  // Node 24: `export const sessions = new Map()` in the entry module, one Session per request.
  const node24 = chainOf(['Session', 'internal:1694'], ['(array)', 'internal:table'], ['Map', 'internal:value'], CELL, EXPORTS, RECORD('internal:2'), ...ENTRY_WRAP);
  // Node 20: the same, the record reached from the handler's context (`extension`).
  const node20 = chainOf(['Session', 'internal:362'], ['(array)', 'internal:table'], ['Map', 'internal:value'], CELL, EXPORTS, RECORD('internal:extension'),
    ['system / Context', 'internal:context'], ['handleRequest()', 'context:handleRequest'], ['system / Context', 'internal:context'], ['Function', 'property:_onTimeout'], ['Timeout', 'property:_idleNext'], ['(root)', null]);
  // Node 24, not exported: the module's Context, under its evaluation generator.
  const local = chainOf(['Session', 'internal:1688'], ['(array)', 'internal:table'], ['Map', 'context:sessions'], ['system / Context', 'internal:context'], ['Generator', 'hidden:4'], RECORD('internal:2'), ...ENTRY_WRAP);
  for (const [what, chain] of [['Node 24', node24], ['Node 20', node20], ['not exported', local]] as const) {
    assert.equal(heldByModuleSystem(groupOf(chain)), false, what);
    assert.equal(mayLeadFinding(groupOf(chain)), true, what);
  }
});

test('the loader classes bound what they hold, through their own containers', () => {
  // fixtures/lazy-routes.mjs on Node 20: LoadCache and ResolveCache entries, a ModuleJob in a LoadCache entry.
  const loadEntry = chainOf(['Object', 'internal:87', '{javascript}'], ['(array)', 'internal:table'], ['LoadCache', 'property:loadCache'], ['ModuleLoader', 'context:cascadedLoader'], ['(root)', null]);
  const job = chainOf(['ModuleJob', 'property:javascript'], ['Object', 'internal:132', '{javascript}'], ['(array)', 'internal:table'], ['LoadCache', 'property:loadCache'], ['(root)', null]);
  const resolved = chainOf(['Object', 'property:./base.js::', '{url, format}'], ['Object', 'internal:117'], ['(array)', 'internal:table'], ['ResolveCache', 'property:#resolveCache'], ['(root)', null]);
  // ModuleMap is a SafeMap: its table holds the jobs.
  const inMap = chainOf(['ModuleJob', 'internal:5'], ['(array)', 'internal:table'], ['ModuleMap', 'property:loadCache'], ['ModuleLoader', 'context:cascadedLoader'], ['(root)', null]);
  for (const chain of [loadEntry, job, resolved, inMap]) {
    assert.equal(heldByModuleSystem(groupOf(chain)), true, chain.map((h) => h.node.className).join(' ← '));
    assert.equal(mayLeadFinding(groupOf(chain)), false);
  }
});

test('a module record holding its own function, namespace or generator through cells and contexts bounds them', () => {
  // fixtures/lazy-routes.mjs: route modules loaded one by one, each record holding its own.
  const exportedFunction = chainOf(['handle()', 'internal:value', 'handle'], CELL, EXPORTS, RECORD('internal:extension'), ['system / Context', 'internal:context'], ['(root)', null]);
  const namespace = chainOf(['Module', 'hidden:1'], RECORD('internal:extension'), ['system / Context', 'internal:context'], ['(root)', null]);
  const body = chainOf(['Function', 'internal:function'], ['Generator', 'hidden:4'], RECORD('internal:extension'), ['system / Context', 'internal:context'], ['(root)', null]);
  const local = chainOf(['Object', 'context:options'], ['system / Context', 'internal:context'], ['Generator', 'hidden:4'], RECORD('internal:2'), ...ENTRY_WRAP);
  for (const chain of [exportedFunction, namespace, body, local]) {
    assert.equal(heldByModuleSystem(groupOf(chain)), true, chain.map((h) => h.node.className).join(' ← '));
    assert.equal(mayLeadFinding(groupOf(chain)), false);
  }
});

test('an exported closure\'s own Array under the record is the program\'s container: it may lead', () => {
  // `export const track = (() => { const seen = []; return (x) => seen.push(x); })()`: the Array is the container.
  const closure = chainOf(['Visit', 'element:7'], ['Array', 'context:seen'], ['system / Context', 'internal:context'], ['Function', 'internal:value'], CELL, EXPORTS, RECORD('internal:2'), ...ENTRY_WRAP);
  assert.equal(heldByModuleSystem(groupOf(closure)), false);
});
