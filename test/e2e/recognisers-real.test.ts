// Every row of the recogniser tables (src/diagnose/recognisers.ts) and the bookkeeping list of the
// analysis layer must match something in real heaps: snapshots taken now, by real V8, of fixture
// programs that create each shape (fixtures/async-resources.cjs: every async resource inside an
// AsyncLocalStorage context, TCP and TLS sockets; agents/context-capture.cjs: LangGraph, LangSmith and
// grpc-js; agents/control.cjs: the SQLite saver), on Node 20 and 24 (24 also
// without AsyncContextFrame). A row that matches nothing fails here, with the snapshots it was tried on.
// Rows are matched the way chain-labels.ts applies them: class rows on recognisedName (native holders
// on native/synthetic nodes only; framework objects on instances, not on a class's prototype), async
// resources on the nodes that actually hold a captured context, edge rows on edge names. CHECKPOINT_CHAIN
// (which backlogs get LangGraph's durability advice) is proven the same way.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSnapshotFile } from '../../src/snapshot/parse.js';
import { HeapAnalysis } from '../../src/analysis/heap-analysis.js';
import { BOOKKEEPING_HOLDERS } from '../../src/analysis/retainer-paths.js';
import { recognisedName } from '../../src/diagnose/chain-labels.js';
import {
  ASYNC_CONTEXT_EDGES, ASYNC_RESOURCES, CHECKPOINT_CHAIN, FRAMEWORK_EDGES, FRAMEWORK_OBJECTS, NATIVE_HOLDERS, PENDING_WORK,
} from '../../src/diagnose/recognisers.js';
import { requireNodeBinary, type NodeMajor } from '../helpers/node-binaries.js';
import { removeSnapshots, takeSnapshot } from '../helpers/take-snapshot.js';

/** What one snapshot offers the recognisers, gathered in one pass over its nodes and edges. */
interface HeapFacts {
  readonly label: string;
  /** recognisedName of every node. */
  readonly names: Set<string>;
  /** recognisedName of object nodes that have no own `constructor` property (instances, not prototypes). */
  readonly instances: Set<string>;
  /** recognisedName of native and synthetic nodes. */
  readonly natives: Set<string>;
  /** Raw V8 names of native, synthetic and hidden nodes (what BOOKKEEPING_HOLDERS lists). */
  readonly rawNames: Set<string>;
  /** Edge names. */
  readonly edges: Set<string>;
  /** `holder --edge--> target` as `holder|edge|target` (recognisedName each side). */
  readonly triples: Set<string>;
  /** recognisedName of nodes that hold a captured context: the store edge, the ALS context object, or a frame. */
  readonly contextHolders: Set<string>;
}

function gatherFacts(label: string, analysis: HeapAnalysis): HeapFacts {
  const g = analysis.graph;
  const { native, synthetic, object } = g.nodeTypes;
  const facts: HeapFacts = {
    label, names: new Set(), instances: new Set(), natives: new Set(), rawNames: new Set(), edges: new Set(), triples: new Set(), contextHolders: new Set(),
  };
  const contextEdges = new Set<string>([ASYNC_CONTEXT_EDGES.resourceStore, ASYNC_CONTEXT_EDGES.storageContext]);
  const named = new Map<number, string>();
  const nameOf = (n: number) => {
    let s = named.get(n);
    if (s === undefined) named.set(n, (s = recognisedName(analysis, n)));
    return s;
  };
  for (let n = 0; n < g.nodeCount; n++) {
    const name = nameOf(n);
    const t = g.nodeType[n];
    facts.names.add(name);
    if (t === native || t === synthetic) facts.natives.add(name);
    if (t !== object) facts.rawNames.add(g.nodeNameOf(n));
    let prototype = false;
    for (let e = g.firstEdge[n]!, end = g.firstEdge[n + 1]!; e < end; e++) {
      const edge = g.edgeNameOf(e);
      const target = g.edgeTarget[e]!;
      facts.edges.add(edge);
      if (edge === 'constructor') prototype = true;
      const targetName = nameOf(target);
      facts.triples.add(`${name}|${edge}|${targetName}`);
      if (contextEdges.has(edge) || targetName === ASYNC_CONTEXT_EDGES.frameClass) facts.contextHolders.add(name);
    }
    if (t === object && !prototype) facts.instances.add(name);
  }
  return facts;
}

interface Source {
  readonly fixture: string;
  readonly node: NodeMajor;
  readonly nodeArgs?: string[];
  readonly requests: number;
  readonly env?: NodeJS.ProcessEnv;
}

const SOURCES: Source[] = [
  { fixture: 'async-resources', node: 20, requests: 20 },
  { fixture: 'async-resources', node: 24, requests: 20 },
  { fixture: 'async-resources', node: 24, nodeArgs: ['--no-async-context-frame'], requests: 20 },
  { fixture: 'agents/context-capture', node: 20, requests: 10 },
  { fixture: 'agents/context-capture', node: 24, requests: 10 },
  // The plain SqliteSaver (B's is a slower subclass). better-sqlite3 is built for the Node that ran
  // `npm ci` (20 here): the saver runs on that one.
  { fixture: 'agents/control', node: 20, requests: 10 },
];

const heaps: HeapFacts[] = [];

/** The snapshots in which `matches` holds; fails when there is none. */
function provenIn(what: string, matches: (h: HeapFacts) => boolean): string[] {
  assert.equal(heaps.length, SOURCES.length, 'every snapshot was taken');
  const where = heaps.filter(matches).map((h) => h.label);
  assert.ok(where.length > 0, `${what} matches nothing in ${heaps.map((h) => h.label).join(', ')}`);
  return where;
}

const anyOf = (set: Set<string>, re: RegExp) => [...set].some((s) => re.test(s));

describe('recogniser rows on real heaps', { concurrency: 1 }, () => {
  before(async () => {
    for (const s of SOURCES) {
      requireNodeBinary(s.node);
      const path = await takeSnapshot(s.fixture, { node: s.node, nodeArgs: s.nodeArgs ?? [], requests: s.requests, env: s.env ?? {}, timeoutMs: 180_000 });
      try {
        const analysis = new HeapAnalysis(await parseSnapshotFile(path));
        heaps.push(gatherFacts(`${s.fixture} on Node ${s.node}${s.nodeArgs?.length ? ` ${s.nodeArgs.join(' ')}` : ''}`, analysis));
      } finally {
        removeSnapshots([path]);
      }
    }
  }, { timeout: 600_000 });
  after(() => {
    heaps.length = 0;
  });

  test('ASYNC_CONTEXT_EDGES: each store edge, frame edge, frame class, table and key class', (t) => {
    const e = ASYNC_CONTEXT_EDGES;
    const rows: [string, (h: HeapFacts) => boolean][] = [
      ['resourceStore', (h) => h.edges.has(e.resourceStore)],
      ['storageContext', (h) => anyOf(h.triples, new RegExp(`\\|${escape(e.storageContext)}\\|\\{${escape(e.resourceStore)}\\}$`))],
      ...e.frame.map((edge): [string, (h: HeapFacts) => boolean] => [`frame ${edge}`, (h) => h.triples.has(`${frameHolder(h, edge)}|${edge}|${e.frameClass}`)]),
      ['frameClass', (h) => h.names.has(e.frameClass)],
      ['frameTable', (h) => anyOf(h.triples, new RegExp(`^${escape(e.frameClass)}\\|${escape(e.frameTable)}\\|`))],
      ['storageClass (the key in a frame table)', (h) => anyOf(h.triples, new RegExp(`^\\(array\\)\\|\\d+\\|${escape(e.storageClass)}$`)) && h.names.has(e.frameClass)],
    ];
    for (const [what, match] of rows) t.diagnostic(`${what}: ${provenIn(`ASYNC_CONTEXT_EDGES.${what}`, match).join('; ')}`);
  });

  test('ASYNC_RESOURCES: each row names objects that hold a captured context', (t) => {
    for (const row of ASYNC_RESOURCES) {
      t.diagnostic(`${row.kind}: ${provenIn(`ASYNC_RESOURCES ${row.className}`, (h) => anyOf(h.contextHolders, row.className)).join('; ')}`);
    }
  });

  test('NATIVE_HOLDERS: each row names native or synthetic nodes', (t) => {
    for (const row of NATIVE_HOLDERS) t.diagnostic(`${row.name}: ${provenIn(`NATIVE_HOLDERS ${row.name}`, (h) => anyOf(h.natives, row.name)).join('; ')}`);
  });

  test('BOOKKEEPING_HOLDERS (analysis): each name is a node of a real heap', (t) => {
    for (const name of BOOKKEEPING_HOLDERS) t.diagnostic(`${name}: ${provenIn(`BOOKKEEPING_HOLDERS ${name}`, (h) => h.rawNames.has(name)).join('; ')}`);
  });

  test('FRAMEWORK_OBJECTS: each row names instances (not only a prototype)', (t) => {
    for (const row of FRAMEWORK_OBJECTS) t.diagnostic(`${row.className}: ${provenIn(`FRAMEWORK_OBJECTS ${row.className}`, (h) => anyOf(h.instances, row.className)).join('; ')}`);
  });

  test('PENDING_WORK: each row names pending operations', (t) => {
    for (const row of PENDING_WORK) t.diagnostic(`${row.className}: ${provenIn(`PENDING_WORK ${row.className}`, (h) => anyOf(h.names, row.className)).join('; ')}`);
  });

  test('CHECKPOINT_CHAIN: the put chain\'s edge, the run loop and a saver', (t) => {
    t.diagnostic(`edges ${CHECKPOINT_CHAIN.edges}: ${provenIn(`CHECKPOINT_CHAIN.edges ${CHECKPOINT_CHAIN.edges}`, (h) => anyOf(h.edges, CHECKPOINT_CHAIN.edges)).join('; ')}`);
    for (const name of ['PregelLoop', 'SqliteSaver']) {
      assert.match(name, CHECKPOINT_CHAIN.classes);
      t.diagnostic(`${name}: ${provenIn(`CHECKPOINT_CHAIN.classes ${name}`, (h) => h.instances.has(name)).join('; ')}`);
    }
  });

  test('FRAMEWORK_EDGES: each row names edges', (t) => {
    for (const row of FRAMEWORK_EDGES) t.diagnostic(`${row.name}: ${provenIn(`FRAMEWORK_EDGES ${row.name}`, (h) => anyOf(h.edges, row.name)).join('; ')}`);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The resource that holds a frame by `edge` (any: the triple only needs the edge and the frame class). */
function frameHolder(h: HeapFacts, edge: string): string {
  const suffix = `|${edge}|${ASYNC_CONTEXT_EDGES.frameClass}`;
  for (const triple of h.triples) if (triple.endsWith(suffix)) return triple.slice(0, -suffix.length);
  return '';
}
