// One pool slot: an isolate with its prelude compiled once, a fresh context prepared ahead of each
// execution, and the decision to replace the isolate afterwards (kill, memory, abandoned calls, age, heap).
import ivm from 'isolated-vm';
import { PRELUDE, PRELUDE_FILENAME, SCRIPT_URL } from './prelude.ts';
import { WRAPPER_LINE_OFFSET, cacheKey, wrapSource } from './compile.ts';
import { SALT_MIN_PATTERN } from './prelude-resources.ts';
import { regExpLiteralChars } from './regexp-literals.ts';
import { Run, type RunEnd, type RunTarget } from './run.ts';
import type { Execution } from './bridge.ts';
import type { ResolvedConfig } from './limits.ts';
import type { ExecutionError } from './result.ts';
import { MEMORY_LIMIT } from './errors.ts';

export type SlotState = 'starting' | 'ready' | 'busy' | 'closed';

/** What the pool sees of a slot: this class in-process, or a RemoteSlot whose isolate lives in a host process. */
export interface PoolSlot {
  readonly state: SlotState;
  readonly busySince: number;
  readonly executions: number;
  readonly live: boolean;
  readonly isolatesBuilt: number;
  readonly referenceCount: number;
  readonly cachedScripts: number;
  /** Its host process runs a suspect tenant's execution (may die any moment); others' work prefers other slots. */
  readonly exposed?: boolean;
  /** The sandbox host process it lives in (absent in-process): the pool's cordon places work by host. */
  readonly host?: object;
  /** Ready, but an execution sent now would first wait for the context being prepared (Pool's `free`). */
  readonly warming?: boolean;
  /**
   * Other slots sharing this one's thread of work (a host process's main thread): busy, or preparing their next
   * context. An execution sent here would queue behind them; the pool prefers a free slot with fewer.
   */
  readonly contention?: number;
  start(): void;
  run(ex: Execution): Promise<RunEnd>;
  close(): Promise<void>;
}

export interface SlotHooks {
  /** The slot is idle with a fresh context prepared. */
  ready(slot: PoolSlot): void;
  recycled(reason: string): void;
  /** V8 lost control of an isolate; `execId` is the execution that was running on it, if any. */
  catastrophic(message: string, execId: number | undefined): void;
  /** An execution ended (before the slot takes its next one); `end.cpuMs` is the isolate CPU it used. */
  finished(ex: RunTarget, end: RunEnd): void;
}

export interface Prepared {
  ctx: ivm.Context;
  run: ivm.Reference;
}
/** A cached script, and whether its source may hold regular-expression literals of SALT_MIN_PATTERN in all. */
interface Compiled {
  script: ivm.Script;
  literals: boolean;
}

/**
 * Compiled user scripts kept per isolate (a repeated script skips compilation); bounded in count and size, and
 * keyed by tenant and source so that one organization's latency never shows what another ran (compile.ts).
 */
const SCRIPT_CACHE_ENTRIES = 64;
const SCRIPT_CACHE_CHARS = 1024 * 1024;
/** A prepare that does not finish (an isolate that will not come back) is abandoned after this. */
const PREPARE_DEADLINE_MS = 2000;
const RETRY_MS = 100;
/** An idle slot frees the last execution's context this long after it became ready (see flushReleased). */
const IDLE_FLUSH_MS = 10;

/** Longest close() waits for in-flight isolate work before disposing anyway. */
const CLOSE_WAIT_MS = 2000;
/**
 * After disposing, close() waits this long before it resolves: isolated-vm tears a disposed isolate down on one of
 * its own threads, and a process.exit() meanwhile crashed the process in ~IsolateEnvironment (SIGSEGV at exit in 8
 * of 34 runs of 2 s of executions, then close() and exit; 0 of 14 with this wait). It is what the server (in-process
 * pool) and a host process do on shutdown.
 */
const DISPOSE_SETTLE_MS = 50;

export class Slot implements PoolSlot {
  state: SlotState = 'starting';
  isolatesBuilt = 0;
  /** Executions run by this slot (all isolates), and when the current one started. */
  executions = 0;
  busySince = 0;
  private isolate: ivm.Isolate | null = null;
  private prelude: ivm.Script | null = null;
  private dispatcher: ivm.Callback | null = null;
  private prepared: Prepared | null = null;
  private scripts = new Map<string, Compiled>();
  private scriptChars = 0;
  private current: Run | null = null;
  private runs = 0;
  private highHeap = 0;
  /** A context is being prepared / its preparation failed during an execution / a heap check is pending. */
  private preparing = false;
  private prepareFailed = false;
  private checkingHeap = false;
  /** Emptying V8's RegExp cache after an execution (forgetRegExps), in-process. */
  private forgetting = false;
  private stuckTimer: NodeJS.Timeout | undefined;
  private generation = 0;
  /** The execution that last ran on the current isolate (see start). */
  private owner: { execId: number | undefined } = { execId: undefined };
  private readonly config: ResolvedConfig;
  private readonly hooks: SlotHooks;

  /**
   * In a sandbox host process the main thread has nothing else to do: contexts are prepared synchronously on it
   * after each execution has answered, instead of as two isolate tasks whose completions each wake it.
   */
  private readonly syncPrepare: boolean;

  constructor(config: ResolvedConfig, hooks: SlotHooks, options: { syncPrepare?: boolean } = {}) {
    this.syncPrepare = options.syncPrepare ?? false;
    this.config = config;
    this.hooks = hooks;
  }

  get referenceCount(): number {
    try {
      return this.isolate && !this.isolate.isDisposed ? this.isolate.referenceCount : 0;
    } catch {
      return 0;
    }
  }

  get cachedScripts(): number {
    return this.scripts.size;
  }

  get live(): boolean {
    return !!this.isolate && !this.isolate.isDisposed;
  }

  /** The running execution's id and isolate CPU so far (last sample), if one runs. */
  get running(): { id: number; cpuMs: number } | null {
    const run = this.current;
    return run ? { id: run.ex.id, cpuMs: run.cpuSoFar } : null;
  }

  /** The running execution's last heap answer (see idleUnderLimit), and whether one is being asked. */
  private heapSample: { execId: number; bytes: number; cpu: bigint } | null = null;
  private askingHeap = false;

  /**
   * The running execution's isolate is idle under its memory limit: it answered a heap query (which it can only do
   * between tasks, never while a script runs) with used + external bytes within memoryMb, no script ran while it
   * answered, and it has used no CPU since, so it has allocated nothing since either. Asks again for next time.
   * A host killed for its memory cap is not killed by such an isolate (host-process.ts). With `ask` false, the last
   * answer alone: a query is a task on the isolate, and a host asked after every execution queued one behind each
   * running script of its other slots.
   */
  idleUnderLimit(ask = true): boolean {
    const iso = this.isolate;
    const run = this.current;
    if (!iso || iso.isDisposed || !run) return false;
    const cpu = cpuOf(iso);
    const sample = this.heapSample;
    const idle =
      cpu !== null && sample !== null && sample.execId === run.ex.id && cpu - sample.cpu < IDLE_CPU_NS && sample.bytes <= this.config.memoryMb * 1024 * 1024;
    if (ask && !this.askingHeap && cpu !== null) {
      this.askingHeap = true;
      const execId = run.ex.id;
      iso.getHeapStatistics().then(
        (heap) => {
          this.askingHeap = false;
          const after = cpuOf(iso);
          // A script that ran meanwhile may have allocated after the figures were taken: no sample this time.
          if (after === null || after - cpu >= IDLE_CPU_NS) return;
          this.heapSample = { execId, bytes: heap.used_heap_size + heap.externally_allocated_size, cpu: after };
        },
        () => {
          this.askingHeap = false;
        },
      );
    }
    return idle;
  }

  /** Build a new isolate (disposing any old one), compile the prelude and prepare the first context. */
  start(reason?: string): void {
    if (this.state === 'closed') return;
    if (reason) this.hooks.recycled(reason);
    this.state = 'starting';
    this.dispose();
    const gen = ++this.generation;
    const retry = () => {
      if (gen === this.generation) setTimeout(() => this.start(), RETRY_MS).unref();
    };
    let iso: ivm.Isolate;
    try {
      // V8 may give up on an isolate after its execution has been reported ended (a timeout whose termination
      // never took, a heap that grew while it was torn down) and after this slot has moved on to a new isolate and
      // another tenant's execution: the error names the execution that last ran on this isolate, never the slot's.
      const owner = (this.owner = { execId: undefined as number | undefined });
      iso = new ivm.Isolate({ memoryLimit: this.config.memoryMb, onCatastrophicError: (m) => this.onCatastrophic(m, owner.execId, gen) });
    } catch {
      return retry();
    }
    this.isolate = iso;
    this.isolatesBuilt++;
    this.runs = 0;
    this.highHeap = 0;
    this.preparing = false;
    this.prepareFailed = false;
    this.checkingHeap = false;
    this.forgetting = false;
    // A Callback arrives in each context as a plain function (a Reference would instantiate isolated-vm's
    // Reference class there, ~10 us per context); `ignored`: called asynchronously, arguments copied.
    this.dispatcher = new ivm.Callback(
      (id: unknown, kind: unknown, a: unknown, b: unknown) => {
        // Only the current execution is ever served; a stale id (an earlier execution) is dropped.
        const run = this.current;
        if (run && run.ex.id === id) run.message(kind, a, b);
      },
      { ignored: true },
    );
    this.track(iso.compileScript(PRELUDE, { filename: PRELUDE_FILENAME })).then((script) => {
      if (gen !== this.generation) return;
      this.prelude = script;
      this.awaitPrepared(gen);
    }, retry);
  }

  /**
   * Create the next fresh context and run the prelude in it. Called when an execution is dispatched, so the
   * isolate builds it right behind that execution's tasks (same thread session, off the critical path), or
   * when the slot has nothing prepared. A context is only ever used by one execution. With `syncPrepare` (a host
   * process) it is built on this thread instead, once the last execution has answered.
   */
  private prepareNext(gen: number): void {
    const iso = this.isolate;
    const script = this.prelude;
    if (!iso || !script || gen !== this.generation || this.preparing || this.prepared) return;
    this.prepareFailed = false;
    if (this.syncPrepare) {
      let prepared: Prepared;
      try {
        prepared = prepareContextSync(iso, script);
      } catch {
        return this.prepareFailedNow();
      }
      return this.preparedNow(prepared);
    }
    this.preparing = true;
    const work = (async (): Promise<Prepared> => {
      const ctx = await iso.createContext();
      try {
        return { ctx, run: (await script.run(ctx, { reference: true })) as ivm.Reference };
      } catch (err) {
        ctx.release();
        throw err;
      }
    })();
    this.track(work).then(
      (prepared) => {
        if (gen !== this.generation) return release(prepared);
        this.preparing = false;
        this.preparedNow(prepared);
      },
      () => {
        if (gen !== this.generation) return;
        this.preparing = false;
        this.prepareFailedNow();
      },
    );
  }

  private preparedNow(prepared: Prepared): void {
    this.prepared = prepared;
    if (this.state === 'starting' && !this.checkingHeap && !this.forgetting) this.becomeReady();
  }

  private prepareFailedNow(): void {
    // While an execution runs, the isolate is its business: decide once it has ended.
    if (this.state === 'busy') this.prepareFailed = true;
    else this.start('prepare_failed');
  }

  private becomeReady(): void {
    clearTimeout(this.stuckTimer);
    this.stuckTimer = undefined;
    this.state = 'ready';
    this.hooks.ready(this);
    // Only a slot left idle needs it: the next execution's first task frees those handles anyway.
    const runs = this.executions;
    if (this.state === 'ready')
      setTimeout(() => {
        if (this.executions === runs) this.flushReleased();
      }, IDLE_FLUSH_MS).unref();
  }

  /**
   * isolated-vm frees released handles (the last execution's context) on the isolate's next task, and the next
   * context may already be built: an idle slot wakes its isolate with a no-op task (it runs no script code)
   * once the handles are really released, rather than keep that context alive until the next execution.
   */
  private flushReleased(): void {
    if (this.state !== 'ready' || !this.prepared) return;
    // In a host process, entered synchronously: the handle tasks run on this thread, and no isolate thread wakes.
    try {
      if (this.syncPrepare) this.prepared.run.applySync(undefined, ['noop']);
      else this.prepared.run.applyIgnored(undefined, ['noop']);
    } catch {
      /* isolate gone */
    }
  }

  /** The slot waits for its next context: give up on an isolate that does not come back. */
  private awaitPrepared(gen: number): void {
    this.state = 'starting';
    clearTimeout(this.stuckTimer);
    this.stuckTimer = setTimeout(() => {
      if (gen === this.generation && this.state === 'starting') this.start('prepare_stuck');
    }, PREPARE_DEADLINE_MS);
    this.prepareNext(gen);
  }

  /** Run one execution on the prepared context. Always resolves, at the latest at the wall deadline. */
  run(ex: RunTarget): Promise<RunEnd> {
    const iso = this.isolate!;
    const prepared = this.prepared!;
    const gen = this.generation;
    this.prepared = null;
    this.state = 'busy';
    this.runs++;
    this.executions++;
    this.busySince = performance.now();
    this.owner.execId = ex.id;
    return new Promise<RunEnd>((resolve) => {
      const { script, literals } = this.script(iso, ex.tenant, ex.source);
      const run = new Run(iso, prepared, script, this.dispatcher!, ex, (ended: RunEnd) => {
        this.current = null;
        const end = this.overLimitAtEnd(iso, ended) ? { ...ended, outcome: { ...MEMORY_LIMIT }, recycle: 'memory_limit' } : ended;
        this.hooks.finished(ex, end);
        resolve(end);
        this.afterRun(gen, prepared, end.recycle, literals || run.evaluatedLiterals);
      });
      this.current = run;
      // isolated-vm captures the calling JS stack (10 frames, with deoptimization data for optimized ones) on
      // every async call; issued from a microtask, that stack is one frame deep instead of the caller's chain.
      queueMicrotask(() => {
        run.start();
        // The next context is queued behind this execution's first task (a new source compiles first).
        if (this.syncPrepare) return;
        if (script instanceof Promise)
          script.then(
            () => this.prepareNext(gen),
            () => {},
          );
        else this.prepareNext(gen);
      });
    });
  }

  /**
   * A script that ended by itself but left its isolate holding more than twice its memory limit went past the limit
   * (V8's old generation is memoryMb and its young one far smaller: only isolated-vm's grace beyond the limit, which
   * it ends at the next full collection, lets the heap grow so far), and a single builtin call can do that before any
   * collection: flattening a rope of 2^28 two-byte characters copies 512 MB in one indexOf, and the run ended ok
   * with its host at 1 GB. Its outcome is its memory limit, and the isolate is replaced. Only a run that used
   * HEAP_CHECK_CPU_MS of CPU is asked (copying 64 MB takes longer), so short scripts pay nothing.
   */
  private overLimitAtEnd(iso: ivm.Isolate, end: RunEnd): boolean {
    if (end.recycle !== null || 'type' in end.outcome || end.cpuMs < HEAP_CHECK_CPU_MS || iso.isDisposed) return false;
    try {
      const heap = iso.getHeapStatisticsSync();
      return heap.used_heap_size + heap.externally_allocated_size > 2 * this.config.memoryMb * 1024 * 1024;
    } catch {
      return false;
    }
  }

  /** The compiled wrapper for this source on this isolate: from the cache, or compiling now. */
  private script(iso: ivm.Isolate, tenant: string, source: string): { script: ivm.Script | Promise<ivm.Script>; literals: boolean } {
    const key = cacheKey(tenant, source);
    const hit = this.scripts.get(key);
    if (hit) {
      this.scripts.delete(key);
      this.scripts.set(key, hit);
      return hit;
    }
    const literals = regExpLiteralChars(source) >= SALT_MIN_PATTERN;
    const script = this.track(iso.compileScript(wrapSource(source, tenant), { filename: SCRIPT_URL, lineOffset: WRAPPER_LINE_OFFSET })).then((script) => {
      if (iso !== this.isolate || key.length > SCRIPT_CACHE_CHARS / 4) return script;
      this.scripts.set(key, { script, literals });
      this.scriptChars += key.length;
      for (const [key, old] of this.scripts) {
        if (this.scripts.size <= SCRIPT_CACHE_ENTRIES && this.scriptChars <= SCRIPT_CACHE_CHARS) break;
        this.scripts.delete(key);
        this.scriptChars -= key.length;
        old.script.release();
      }
      return script;
    });
    return { script, literals };
  }

  private afterRun(gen: number, used: Prepared, recycle: string | null, literals = false): void {
    // Before the context goes: its prelude holds the gc function that empties the cache.
    if (literals && !recycle && gen === this.generation && this.state !== 'closed' && this.live) {
      if (!this.syncPrepare) return this.forgetRegExps(gen, used);
      try {
        used.run.applySync(undefined, ['forget']);
      } catch {
        recycle = 'regexp_cache';
      }
    }
    release(used);
    if (this.state === 'closed' || gen !== this.generation) return;
    if (!recycle && this.runs >= this.config.maxExecutionsPerIsolate) recycle = 'max_executions';
    if (!recycle && this.prepareFailed) recycle = 'prepare_failed';
    if (recycle || !this.live) return this.start(recycle ?? 'disposed');
    if (this.runs % this.config.heapCheckEvery === 0) return this.checkHeap(gen);
    if (this.prepared) return this.becomeReady();
    this.awaitPrepared(gen);
  }

  /**
   * The execution's code held regular-expression literals long enough that compiling them is measurable, and V8's
   * RegExp cache (per isolate, keyed by pattern) would give them to the next organization's identical literals at
   * once: two full collections empty it first (engine/v8-flags.ts). Its result is already sent; an isolate that
   * cannot do it is replaced instead.
   */
  private forgetRegExps(gen: number, used: Prepared): void {
    this.state = 'starting';
    this.forgetting = true;
    const then = (recycle: string | null) => {
      this.forgetting = false;
      this.afterRun(gen, used, recycle);
    };
    this.track(used.run.apply(undefined, ['forget'])).then(
      () => then(null),
      () => then('regexp_cache'),
    );
  }

  /** Every heapCheckEvery executions: replace an isolate whose heap stays high (twice in a row). */
  private checkHeap(gen: number): void {
    const iso = this.isolate!;
    this.state = 'starting';
    this.checkingHeap = true;
    this.track(iso.getHeapStatistics()).then(
      (heap) => {
        if (gen !== this.generation) return;
        this.checkingHeap = false;
        const used = heap.used_heap_size + heap.externally_allocated_size;
        this.highHeap = used > this.config.heapHighRatio * this.config.memoryMb * 1024 * 1024 ? this.highHeap + 1 : 0;
        if (this.highHeap >= 2) return this.start('heap_high');
        if (this.prepared) return this.becomeReady();
        this.awaitPrepared(gen);
      },
      () => {
        if (gen === this.generation) this.start('prepare_failed');
      },
    );
  }

  private onCatastrophic(message: string, execId: number | undefined, gen: number): void {
    this.hooks.catastrophic(message, execId);
    // Out of memory: to its script the end is its memory limit, whether V8 or isolated-vm stopped it.
    const run = gen === this.generation && this.current?.ex.id === execId ? this.current : null;
    run?.kill('fatal', /out-of-memory/i.test(message) ? { ...MEMORY_LIMIT } : undefined);
  }

  /** The server refused a call the isolate should have (a cap breach): end the execution and replace the isolate. */
  killRun(execId: number, error: ExecutionError): void {
    if (this.current?.ex.id === execId) this.current.kill('breach', error);
  }

  /** True if the slot had an isolate: it is disposed now (here, or just before by a kill) and still being torn down. */
  private dispose(): boolean {
    const iso = this.isolate;
    this.isolate = null;
    this.prelude = null;
    this.prepared = null;
    this.scripts = new Map();
    this.scriptChars = 0;
    this.dispatcher = null;
    if (!iso) return false;
    if (!iso.isDisposed) {
      try {
        iso.dispose();
      } catch {
        /* already gone */
      }
    }
    return true;
  }

  /** Isolate work in flight (compiling the prelude, preparing a context), so close() can wait for it to settle. */
  private pending = new Set<Promise<unknown>>();
  private track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    const forget = () => {
      this.pending.delete(work);
    };
    work.then(forget, forget);
    return work;
  }

  /**
   * Stop for good: a running execution ends as internal_error, then the isolate is disposed once its in-flight work
   * (prelude compile, context preparation) has settled — disposing under a live isolate task, right before the
   * process exits, can abort the process.
   */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    const run = this.current;
    this.state = 'closed';
    this.generation++;
    clearTimeout(this.stuckTimer);
    run?.kill('closed');
    const settled = Promise.allSettled([...this.pending]);
    const bounded = Promise.race([settled, new Promise((r) => setTimeout(r, CLOSE_WAIT_MS).unref())]);
    // A running execution's kill above already disposed the isolate: that teardown needs the wait as much.
    this.closing = bounded.then(() => {
      if (this.dispose()) return new Promise<void>((r) => setTimeout(r, DISPOSE_SETTLE_MS));
    });
    return this.closing;
  }
  private closing: Promise<void> | null = null;
}

/**
 * A fresh context with the prelude run in it, as a slot in a host process prepares one for its next execution.
 * Exported for the conformance runner (test/conformance), which evaluates test262's code in such a context.
 */
export function prepareContextSync(iso: ivm.Isolate, prelude: ivm.Script): Prepared {
  const ctx = iso.createContextSync();
  try {
    return { ctx, run: prelude.runSync(ctx, { reference: true, timeout: PREPARE_DEADLINE_MS }) as ivm.Reference };
  } catch (err) {
    ctx.release();
    throw err;
  }
}

/** Isolate CPU (ms) from which a run that ended by itself has its heap looked at (see Slot.overLimitAtEnd). */
const HEAP_CHECK_CPU_MS = 5;

/** Isolate CPU (ns) below which an isolate counts as having run no script: a heap query's own task costs microseconds. */
const IDLE_CPU_NS = 1_000_000n;

function cpuOf(iso: ivm.Isolate): bigint | null {
  try {
    return iso.isDisposed ? null : iso.cpuTime;
  } catch {
    return null;
  }
}

function release(prepared: Prepared): void {
  try {
    prepared.run.release();
  } catch {
    /* isolate gone */
  }
  try {
    prepared.ctx.release();
  } catch {
    /* isolate gone */
  }
}
