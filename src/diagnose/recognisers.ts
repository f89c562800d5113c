// What leakhunt recognises on a retainer chain, as data: new frameworks and new Node shapes are a row
// here, not new code. Shapes measured on Node 20, 22 and 24 snapshots (docs/node-facts.md).
// Class rows are matched against chain-labels.ts' recognisedName: the class name, except for V8's hidden
// objects, which keep their own name (`system / PromiseReaction`, where the class name is `(system)`).
// Every row is proven on real snapshots of fixture programs by test/e2e/recognisers-real.test.ts; a row
// nothing in those heaps matches fails it. Bookkeeping holders (never blamed as the holder) are the
// analysis layer's BOOKKEEPING_HOLDERS (src/analysis/retainer-paths.ts).

/** Edges by which an async resource holds the AsyncLocalStorage state it captured. */
export const ASYNC_CONTEXT_EDGES = {
  /** Node 20/22 (and 24 with --no-async-context-frame, one level down): resource → store. */
  resourceStore: '<symbol kResourceStore>',
  /** Node 24 --no-async-context-frame: resource → an object holding kResourceStore. */
  storageContext: '<symbol kAsyncLocalStorageContext>',
  /** AsyncContextFrame (Node 24 default; 22 with the flag): resource → frame. */
  frame: ['<symbol kAsyncContextFrame>', '<symbol context_frame>'],
  frameClass: 'AsyncContextFrame',
  frameTable: 'table',
  storageClass: 'AsyncLocalStorage',
} as const;

/**
 * Async resources by the name of the hop that holds the captured context: the object that holds the store
 * edge (20/22), the `kAsyncLocalStorageContext` object (24 without frames), or the AsyncContextFrame —
 * by a named symbol (Timeout, Immediate, AsyncResource) or by an internal field (TCP, Http2Session and
 * ChannelWrap: internal "2"; a promise reaction: hidden "0"), which is why this list decides it.
 */
export const ASYNC_RESOURCES: readonly { readonly className: RegExp; readonly kind: string }[] = [
  { className: /^Timeout$/, kind: 'timer (setTimeout/setInterval)' },
  { className: /^Immediate$/, kind: 'setImmediate' },
  { className: /^TCP$/, kind: 'TCP socket' },
  { className: /^(AsyncResource|EventEmitterReferencingAsyncResource)$/, kind: 'AsyncResource' },
  { className: /^(Promise|system \/ PromiseReaction)$/, kind: 'promise reaction' },
  { className: /^Http2Session$/, kind: 'HTTP/2 session' },
  { className: /^ChannelWrap$/, kind: 'DNS resolver (c-ares channel)' },
];

/**
 * Native (embedder) holders: Node's C++ objects and V8's handle tables and roots. `kind` defaults to
 * 'native'. Rows of kind 'transient-root' apply only to the roots the engine takes as per-moment
 * (analysis/holder-tiers.ts); rows of kind 'bookkeeping' to Node's teardown list, on a chain only when
 * nothing else holds the object.
 */
export const NATIVE_HOLDERS: readonly { readonly name: RegExp; readonly text: string; readonly kind?: 'transient-root' | 'bookkeeping' }[] = [
  { name: /^\(Stack roots\)$/, kind: 'transient-root', text: 'transient: the stack of the code running when the snapshot was taken holds it for that moment, nothing lasting was found holding it' },
  { name: /^\(Handle scope\)$/, kind: 'transient-root', text: 'transient: handles of native code running when the snapshot was taken hold it for that moment, nothing lasting was found holding it' },
  { name: /^\(Micro tasks\)$/, kind: 'transient-root', text: 'transient: a microtask queued when the snapshot was taken holds it until it runs, nothing lasting was found holding it' },
  { name: /^\(Strong roots\)$/, kind: 'transient-root', text: 'transient: a V8 operation under way when the snapshot was taken (e.g. a compile job) holds it, nothing lasting was found holding it' },
  { name: /./, kind: 'transient-root', text: 'transient: held only for the moment the snapshot was taken, nothing lasting was found holding it' },
  { name: /^Node \/ CleanupQueue$/, kind: 'bookkeeping', text: "Node's list of native objects to clean up at exit: it names them without keeping them alive; nothing else on record holds this" },
  { name: /^Detached Node \/ /, text: 'detached native object: its C++ side lives as long as its JavaScript object, it does not keep it alive on its own' },
  { name: /^Node \/ TCP(Socket)?Wrap$/, text: 'held by native code (TCP socket wrap)' },
  { name: /^Node \/ (TLSWrap|TLSSocket)$/, text: 'held by native code (TLS socket wrap)' },
  { name: /^Node \/ (PipeWrap|PipeSocketWrap)$/, text: 'held by native code (pipe wrap)' },
  { name: /^Node \/ (Environment|PrincipalRealm|BaseObjectList)$/, text: 'Node environment (native roots of every handle)' },
  { name: /^\(Global handles\)$/, text: 'held by a V8 global handle (native code keeps it alive)' },
  { name: /^Node \/ /, text: 'held by native code' },
];

/** The top of a chain that does not reach the root (no path from the GC roots in this snapshot). */
export const NO_ROOT_HOLDER = {
  native: 'not reachable from the GC roots in this snapshot: held by this detached native object (DevTools shows no distance)',
  other: 'not reachable from the GC roots in this snapshot: nothing on record holds this object (DevTools shows no distance)',
} as const;

/** Agent-framework objects, by class name; `few` marks objects a process should have a handful of. */
export const FRAMEWORK_OBJECTS: readonly { readonly className: RegExp; readonly text: string; readonly few: boolean }[] = [
  { className: /^CompiledStateGraph$/, text: 'LangGraph compiled graph', few: true },
  { className: /^StateGraph$/, text: 'LangGraph graph builder', few: true },
  { className: /^PregelLoop$/, text: 'LangGraph run loop (one per invocation; holds the state and the checkpointer promises)', few: false },
  { className: /^RunTree$/, text: 'LangSmith run tree (a traced run: name, run type, inputs, child_runs)', few: false },
  { className: /^LangChainTracer$/, text: 'LangChain tracer (keeps runs in its run map until they end)', few: true },
  { className: /^(CallbackManager|CallbackManagerForChainRun|CallbackManagerForLLMRun)$/, text: 'LangChain callback manager', few: false },
  { className: /^(Client)$/, text: 'client', few: true },
  { className: /^SqliteSaver$/, text: 'LangGraph checkpointer', few: true },
  { className: /^(InternalChannel|ChannelImplementation|Subchannel|ChannelSubchannelWrapper)$/, text: 'gRPC channel internals (timers, sockets)', few: true },
  { className: /^(ChannelCredentials|Http2Session|ClientHttp2Session|Agent)$/, text: 'network client internals', few: true },
];

/**
 * Pending work: hops that exist only until an operation completes. An object holding both `resolve`
 * and `reject` is a deferred (a caller awaiting its turn: a pool's waiting list, a write queue); a
 * promise reaction is held by a promise that has not settled yet. What such a hop holds is released
 * when the work completes, so growth behind it is a backlog when the work moves, a leak when it never does.
 */
export const PENDING_WORK: readonly { readonly className: RegExp; readonly text: string }[] = [
  { className: /^\{(?=.*\bresolve\b)(?=.*\breject\b).*\}$/, text: 'a pending operation (its resolve/reject not called yet): released when the operation completes' },
  { className: /^system \/ PromiseReaction$/, text: 'a reaction of a promise that has not settled: released when it settles' },
];

/** Edges that identify a framework structure whatever the holder's class. */
export const FRAMEWORK_EDGES: readonly { readonly name: RegExp; readonly text: string }[] = [
  { name: /^<symbol lc:child_config>$/, text: 'RunnableConfig of the run (callbacks, configurable → compiled graph)' },
  { name: /^runMap$/, text: 'tracer run map' },
  { name: /^(child_runs|inputs)$/, text: 'run tree contents' },
];

/**
 * LangGraph's checkpoint chain on a retainer chain: a run loop's put chain (`PregelLoop` holds
 * `_checkpointerChainedPromise`) or a checkpoint saver. Only a backlog held through these is LangGraph's
 * durability "async" backlog; any other backlog gets the generic advice (fixes.ts).
 */
export const CHECKPOINT_CHAIN: { readonly edges: RegExp; readonly classes: RegExp; readonly puts: RegExp } = {
  edges: /^_checkpointerChainedPromise$/,
  /** LangGraph's savers are all named `…Saver` (MemorySaver, SqliteSaver, PostgresSaver), subclasses too. */
  classes: /^(PregelLoop|\w*Saver)$/,
  /**
   * A checkpoint put waiting in a run's put chain: the arguments of `BaseCheckpointSaver.put` that
   * `PregelLoop._checkpointerPutAfterPrevious` keeps until the previous put landed, with a copy of the
   * checkpoint. Pending by what it is: it exists only until its write is done.
   */
  puts: /^\{config, checkpoint, metadata, newVersions\}$/,
};

/**
 * Owners of a lasting holder that decide the fix for growth hanging on it (fixes.ts holderFix): a
 * checkpoint saver's own storage (MemorySaver keeps `storage` and `writes` in process memory), and a
 * metrics library's per-label-set series (prom-client's `hashMap` in Counter, Gauge, Histogram, Summary).
 * Proven on real snapshots by test/e2e/holder-fixes.test.ts.
 */
export const HOLDER_OWNERS: { readonly checkpointer: RegExp; readonly metric: RegExp; readonly metricEdge: RegExp } = {
  checkpointer: /^\w*Saver$/,
  metric: /^(Counter|Gauge|Histogram|Summary)$/,
  metricEdge: /^hashMap$/,
};
