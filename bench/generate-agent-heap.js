// Builds an agent-like heap of a requested snapshot size and writes it, plus an "after" and a "later"
// snapshot of the same process, each once the heap has grown again (a leak to diff, and a series of
// three), with v8.writeHeapSnapshot. Cached by version.
//   node --max-old-space-size=12000 bench/generate-agent-heap.js --mb 300 [--out-dir bench/out] [--force]
// Prints one JSON line to stdout: { generatorVersion, targetMb, before, after, later, bytes, afterBytes, laterBytes, units, ... }.
import { writeHeapSnapshot } from 'node:v8';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

// Bump when the heap's shape changes: cached snapshots of another version are rebuilt.
const GENERATOR_VERSION = 2; // 2: the "later" snapshot
// Calibrated on Node 20 (file size in 10^6 bytes ≈ BASE_MB + units / UNITS_PER_MB); re-tune when the heap's shape changes.
const BASE_MB = 4.5;
const UNITS_PER_MB = 17;
const GROWTH = 0.05; // "after" (and "later" again) holds this share more units, kept by a leaking listener list

const { values: args } = parseArgs({
  options: {
    mb: { type: 'string' },
    'out-dir': { type: 'string', default: new URL('out', import.meta.url).pathname },
    force: { type: 'boolean', default: false },
  },
});
const targetMb = Number(args.mb);
if (!(targetMb > 0)) {
  console.error('usage: generate-agent-heap.js --mb <target file size in MB> [--out-dir dir] [--force]');
  process.exit(2);
}
const outDir = args['out-dir'];
const base = join(outDir, `agent-${targetMb}mb`);
const metaPath = `${base}.json`;
const cached = readMeta(metaPath);
if (!args.force && cached?.generatorVersion === GENERATOR_VERSION && existsSync(cached.before) && existsSync(cached.after) && existsSync(cached.later)) {
  console.log(JSON.stringify({ ...cached, cached: true }));
  process.exit(0);
}

// --- a deterministic "agent" workload ------------------------------------------------------------------

let seed = 0x9e3779b9;
function rand() { // mulberry32: the same heap shape on every run
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(rand() * list.length)];
const WORDS = ['the', 'agent', 'calls', 'a', 'tool', 'with', 'arguments', 'and', 'waits', 'for', 'its', 'result',
  'retrieval', 'context', 'window', 'summary', 'plan', 'step', 'observation', 'answer', 'token', 'stream'];
// Text a parser must decode right: non-ASCII, emoji (surrogate pairs), escapes, control characters.
const ODD = ['naïve café', 'Grüße', '日本語のテキスト', 'emoji 😀🚀🧠', 'line\nbreak', 'tab\there', 'quote "x"',
  'back\\slash', 'ctrl \u0001\u001f', 'nul \u0000 byte', 'Ωμέγα', 'ﬁ ligature', 'rtl עברית', '\u2028sep\u2029'];
function sentence(words) {
  const parts = [];
  for (let i = 0; i < words; i++) parts.push(rand() < 0.04 ? pick(ODD) : pick(WORDS));
  return parts.join(' '); // join gives a flat string; some callers concatenate on top for cons strings
}
let nextId = 1;
const newId = (prefix) => `${prefix}-${(nextId++).toString(16).padStart(8, '0')}`;

class ChatMessage {
  constructor(role, content) {
    this.id = newId('msg');
    this.role = role;
    this.content = content;
    this.additional_kwargs = {};
    this.response_metadata = role === 'ai' ? { tokenUsage: { prompt: content.length >> 2, completion: 40 } } : {};
  }
}
class RunTree {
  constructor(name, runType, parent) {
    this.id = newId('run');
    this.name = name;
    this.run_type = runType;
    this.parent_run = parent;
    this.children = [];
    this.inputs = {};
    this.outputs = {};
    this.events = [];
    this.tags = ['bench', runType];
    this.extra = { metadata: { ls_provider: 'openai', ls_model_name: 'gpt-4o', revision: nextId & 7 } };
    this.start_time = Date.now();
    this.end_time = 0;
  }
}

// Global state an agent process keeps: caches keyed by ids, listeners, promises in flight.
const runCache = new Map();
const embeddingCache = new Map();
const toolResultCache = new Map();
const traces = [];
const inflight = [];
const leakedListeners = [];
const neverSettles = new Promise(() => {});

function makeEvent(i) {
  switch (i % 3) { // a few plain-object shapes, as DevTools names them by their properties
    case 0: return { type: 'token', ts: Date.now(), index: i, text: pick(WORDS) };
    case 1: return { type: 'span', name: pick(WORDS), start: i, end: i + 3, attrs: { ok: true, retries: i & 3 } };
    default: return { kind: 'metric', value: rand() * 100 };
  }
}

function makeRun(parent, depth) {
  const run = new RunTree(depth === 0 ? 'AgentExecutor' : pick(['ChatOpenAI', 'search', 'retriever', 'calculator']),
    depth === 0 ? 'chain' : pick(['llm', 'tool', 'retriever']), parent);
  const messages = [];
  const count = 2 + Math.floor(rand() * 4);
  for (let i = 0; i < count; i++) {
    const text = sentence(3 + Math.floor(rand() * (rand() < 0.1 ? 300 : 40)));
    messages.push(new ChatMessage(pick(['system', 'human', 'ai', 'tool']), rand() < 0.3 ? `${text} [${run.id}]` : text));
  }
  run.inputs = { messages, config: { temperature: 0.2, maxTokens: 1024 } };
  run.outputs = { generations: [{ text: sentence(8 + Math.floor(rand() * 60)), finishReason: 'stop' }] };
  for (let i = 0; i < 4 + (depth === 0 ? 8 : 0); i++) run.events.push(makeEvent(i));
  if (rand() < 0.05) run.outputs.raw = Buffer.from(sentence(40 + Math.floor(rand() * 400)));
  if (rand() < 0.3) embeddingCache.set(messages[0].id, new Float32Array(16).fill(rand()));
  if (run.run_type === 'tool') toolResultCache.set(`${run.name}:${run.id}`, { ok: true, value: sentence(10) });
  runCache.set(run.id, run);
  // A closure capturing per-run state, as callback handlers do.
  const state = { calls: 0, lastRun: run.id };
  run.onEnd = () => { state.calls++; run.end_time = Date.now(); return state; };
  if (depth < 2) {
    const kids = depth === 0 ? 3 + Math.floor(rand() * 5) : Math.floor(rand() * 3);
    for (let i = 0; i < kids; i++) run.children.push(makeRun(run, depth + 1));
  }
  return run;
}

function addUnit(i, leak) {
  const run = makeRun(undefined, 0);
  traces.push(run);
  if (i % 10 === 0) { // a pending promise whose reaction holds a run
    const pending = new Promise(() => {});
    pending.then(() => run);
    inflight.push(pending);
  }
  if (i % 25 === 0) (async () => { await neverSettles; return run.onEnd(); })(); // a suspended async function
  if (leak) leakedListeners.push(() => run.children.length); // the leak the "after" snapshot shows
}

function snapshotTo(path) {
  const tmp = `${path}.tmp`;
  writeHeapSnapshot(tmp);
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
  return statSync(path).size;
}

function readMeta(path) {
  try { return JSON.parse(readFileSync(path, 'utf8')); } catch { return undefined; }
}

// --- main ------------------------------------------------------------------------------------------------

mkdirSync(outDir, { recursive: true });
const units = Math.max(1, Math.round((targetMb - BASE_MB) * UNITS_PER_MB));
const started = Date.now();
for (let i = 0; i < units; i++) addUnit(i, false);
const before = `${base}.heapsnapshot`;
const after = `${base}-after.heapsnapshot`;
console.error(`generate: ${units} units built in ${((Date.now() - started) / 1000).toFixed(1)} s; writing ${before}`);
const bytes = snapshotTo(before);
for (let i = 0; i < Math.round(units * GROWTH); i++) addUnit(units + i, true);
console.error(`generate: grown by ${(GROWTH * 100).toFixed(0)}%; writing ${after}`);
const afterBytes = snapshotTo(after);
const grown = Math.round(units * GROWTH);
for (let i = 0; i < grown; i++) addUnit(units + grown + i, true);
const later = `${base}-later.heapsnapshot`;
console.error(`generate: grown by ${(GROWTH * 100).toFixed(0)}% again; writing ${later}`);
const laterBytes = snapshotTo(later);
const meta = {
  generatorVersion: GENERATOR_VERSION, targetMb, units, before, after, later, bytes, afterBytes, laterBytes,
  node: process.version, seconds: Math.round((Date.now() - started) / 1000),
};
writeFileSync(metaPath, `${JSON.stringify(meta, null, 2)}\n`); // written last: its presence means all three files are whole
console.log(JSON.stringify(meta));
