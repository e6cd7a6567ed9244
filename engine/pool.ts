// The pool: poolSize slots pre-warmed at start, one execution per slot, a bounded queue in front (full, or
// waited longer than queueWaitMs: `engine_busy`), and overflow slots up to maxPoolSize when every slot has been
// held for a while, so long scripts (spinning or awaiting I/O) cannot starve short ones.
// Between tenants (organizations) the queue is not plain FIFO: a freed slot goes first to a tenant running fewer
// than maxRunningPerTenant (its share; for a tenant whose scripts run long, once it waited a grace, see graceFor),
// then to the tenant whose executions lately used the least isolate CPU each (shortest expected job first: what
// keeps short scripts' latency low), then to the oldest waiter. One tenant alone uses every slot; a tenant whose
// scripts spin keeps its share but, while others wait, takes no more (a running script cannot be paused, so a freed
// slot is the only point where the pool can protect the others).
// Admission is per tenant too: with the queue full, a tenant holding more than its share of it (queueMax divided
// among the waiting tenants) loses its newest entry to a tenant below its share, and reservedSlots extra slots
// beyond maxPoolSize serve only tenants running below their share, so one tenant's long scripts holding every
// slot cannot make another wait out queueWaitMs.
import type { PoolSlot, SlotHooks } from './slot.ts';
import type { RunEnd, RunTarget } from './run.ts';
import { refusal, type ExecutionResult } from './result.ts';
import { toResult } from './to-result.ts';
import type { Execution } from './bridge.ts';
import type { ResolvedConfig } from './limits.ts';

/** Builds a slot (in-process, or living in a sandbox host process); the pool calls start() on it. */
export type SlotFactory = (hooks: SlotHooks) => PoolSlot;

/**
 * Tenants whose scripts lately killed a sandbox host (before quarantine): each runs one execution at a time, and
 * others' work prefers slots whose host runs none of them (PoolSlot.exposed), so a crash costs them nothing.
 */
export type SuspectCheck = (tenant: string) => boolean;

/**
 * A tenant whose executions lately took overflowAfterMs of CPU or more each gets its guaranteed share once it has
 * waited 5 times its typical execution (at least 100 ms, at most half of queueWaitMs, so it is never refused as
 * busy for it) while others' short scripts wait: its slowdown under such load stays bounded (a 1 s batch script
 * waits at most 1 s more), and busy loops killed at 50 ms hold their core a sixth of the time instead of always.
 * Benign p99 beside two busy loops of another organization (engine bench): ~15 ms with none of this, ~10-11 ms
 * with a flat 100 ms, 8.6-9.3 ms with this.
 */
const LONG_TENANT_GRACE_MS = 100;
const LONG_TENANT_GRACE_FACTOR = 5;
/** Tenants' recent CPU use halves every second; beyond this many tenants, those idle for 10 s are forgotten. */
const CPU_HALF_LIFE_MS = 1000;
/** Longest an execution waits while no slot can be counted on (hosts starting on a loaded machine; see outage). */
const STARTING_WAIT_MS = 30_000;
/**
 * While no slot can be counted on (see Pool.outage), the queue holds this many times queueMax: work that arrives
 * while every host process is being replaced (the first scripts of a crash storm can kill them all at once), or
 * while the only ones up run a suspect's script, waits for them instead of being refused as busy, since the queue's
 * length then says nothing about load either.
 */
const OUTAGE_QUEUE_FACTOR = 4;
/** How often a waiter whose wait does not count looks whether a slot can be counted on again. */
const OUTAGE_POLL_MS = 50;
const MAX_TRACKED_TENANTS = 1000;
/** How long a run on probation waits for a host with nothing else to do (about a host's replacement time). */
const PROBATION_ALONE_MS = 250;

interface Waiter {
  ex: Execution;
  onStart: (() => void) | undefined;
  resolve: (result: ExecutionResult) => void;
  timer: NodeJS.Timeout | undefined;
  /** When this waiter's expiry last found no slot to count on: its queueWaitMs counts from then. */
  outageSeenAt: number;
  /** When it joined the queue (a run that goes again joins anew). */
  since: number;
}

export interface PoolCounters {
  executions: number;
  busyRejections: number;
  overflowSlots: number;
  recycled: Record<string, number>;
  catastrophicErrors: number;
}

/**
 * Idle with its context prepared. A warming slot (ready once its host has prepared the next context) gets work only
 * when it reports ready: at once after its last execution if work is waiting then (it would wait for the
 * preparation anyway), else once warm; a new execution never picks it over a slot that may be warm sooner.
 */
const free = (s: PoolSlot) => s.state === 'ready' && !s.warming;

export class Pool {
  readonly slots: PoolSlot[] = [];
  readonly counters: PoolCounters = { executions: 0, busyRejections: 0, overflowSlots: 0, recycled: {}, catastrophicErrors: 0 };
  private readonly queue: Waiter[] = [];
  /** Executions running per tenant. */
  private readonly running = new Map<string, number>();
  /** Isolate CPU ms and executions of each tenant lately, both decaying by half every CPU_HALF_LIFE_MS. */
  private readonly cpu = new Map<string, { ms: number; n: number; at: number }>();
  private readonly config: ResolvedConfig;
  private readonly hooks: SlotHooks;
  private readonly readyWaiters: (() => void)[] = [];
  private growTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly makeSlot: SlotFactory;
  private readonly suspect: SuspectCheck;

  constructor(config: ResolvedConfig, makeSlot: SlotFactory, suspect: SuspectCheck = () => false) {
    this.config = config;
    this.makeSlot = makeSlot;
    this.suspect = suspect;
    this.hooks = {
      ready: (slot: PoolSlot) => this.onReady(slot),
      // Host time in bindings is work done for the tenant as much as isolate CPU: both count for fairness.
      finished: (ex: RunTarget, end: RunEnd) => this.finished(ex as Execution, end.cpuMs + (ex as Execution).hostMs),
      recycled: (reason: string) => { this.counters.recycled[reason] = (this.counters.recycled[reason] ?? 0) + 1; },
      catastrophic: (message: string) => {
        this.counters.catastrophicErrors++;
        if (config.onCatastrophicError) config.onCatastrophicError(message);
        else process.stderr.write(`engine: isolated-vm catastrophic error: ${message}\n`);
      },
    };
    for (let i = 0; i < config.poolSize; i++) this.addSlot();
  }

  get queued(): number {
    return this.queue.length;
  }

  private addSlot(): void {
    const slot = this.makeSlot(this.hooks);
    this.slots.push(slot);
    slot.start();
  }

  /** Resolves once every slot is idle with a prepared context (after start, or after a burst). */
  whenReady(): Promise<void> {
    if (this.closed || this.allReady()) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  private allReady(): boolean {
    return this.queue.length === 0 && this.slots.every((s) => s.state === 'ready');
  }

  /** `onStart` is called once the execution has an isolate (right before it runs). */
  submit(ex: Execution, onStart?: () => void): Promise<ExecutionResult> {
    if (this.closed) return Promise.resolve(refusal({ type: 'internal_error', message: 'The script engine is closed.' }));
    if (this.queue.length === 0 && !this.held(ex.tenant)) {
      const slot = this.pick();
      if (slot) return this.start(slot, ex, onStart);
    }
    const queueMax = this.outage() ? OUTAGE_QUEUE_FACTOR * this.config.queueMax : this.config.queueMax;
    if (this.queue.length >= queueMax && !this.makeRoomFor(ex.tenant, queueMax)) return Promise.resolve(this.busy(ex));
    const result = this.enqueue(ex, false, onStart);
    // An idle reserved slot (kept for tenants below their share) serves this one if it may.
    this.serveIdle();
    return result;
  }

  /**
   * The free slot a new execution takes: away from a suspect's host (it may die any moment), then on the host with
   * the least other work. A host process runs its slots' executions and context preparations one at a time on its
   * main thread, so a slot whose host is still preparing another slot's context would first wait for that (measured
   * at concurrency 1 after a burst had grown the pool to two slots per host: +0.33 to +0.39 ms median latency over
   * the in-process pool when the first free slot was taken, +0.18 to +0.21 ms with this choice).
   */
  private pick(): PoolSlot | undefined {
    let best: PoolSlot | undefined;
    let bestKey = Infinity;
    for (const s of this.slots) {
      if (!free(s)) continue;
      const key = (s.exposed ? 1_000_000 : 0) + (s.contention ?? 0);
      if (key < bestKey) { best = s; bestKey = key; }
      if (key === 0) break;
    }
    return best;
  }

  private enqueue(ex: Execution, front: boolean, onStart?: () => void): Promise<ExecutionResult> {
    return new Promise((resolve) => {
      const waiter: Waiter = { ex, onStart, resolve, timer: undefined, outageSeenAt: -Infinity, since: performance.now() };
      const expire = () => {
        // No slot can be counted on (the engine is starting, every host process is being replaced, or the only
        // ones up run a suspect's script): that wait says nothing about load, so it does not count, up to
        // STARTING_WAIT_MS. Once one can, the waiter has queueWaitMs from then, as if it had just arrived (else a
        // queue that built up meanwhile is refused while the first of it runs).
        const now = performance.now();
        if (!this.closed && now - ex.queuedAt < STARTING_WAIT_MS) {
          if (this.outage()) {
            waiter.outageSeenAt = now;
            waiter.timer = setTimeout(expire, OUTAGE_POLL_MS);
            return;
          }
          const left = waiter.outageSeenAt + this.config.queueWaitMs - now;
          if (left >= 1) {
            waiter.timer = setTimeout(expire, left);
            return;
          }
        }
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        resolve(this.busy(ex));
      };
      waiter.timer = setTimeout(expire, this.config.queueWaitMs);
      if (front) this.queue.unshift(waiter);
      else this.queue.push(waiter);
      this.maybeGrow();
    });
  }

  /**
   * The queue is full: a tenant below its fair share of it (queueMax over the tenants waiting, itself included)
   * takes the place of the newest entry of the tenant holding the most, which is refused as busy instead.
   */
  private makeRoomFor(tenant: string, queueMax: number): boolean {
    const counts = new Map<string, number>();
    for (const w of this.queue) counts.set(w.ex.tenant, (counts.get(w.ex.tenant) ?? 0) + 1);
    const share = Math.floor(queueMax / (counts.size + (counts.has(tenant) ? 0 : 1)));
    if ((counts.get(tenant) ?? 0) >= share) return false;
    let top = '';
    let most = 0;
    for (const [t, n] of counts) if (n > most) { top = t; most = n; }
    if (most <= share) return false;
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (this.queue[i].ex.tenant !== top) continue;
      const [evicted] = this.queue.splice(i, 1);
      clearTimeout(evicted.timer);
      evicted.resolve(this.busy(evicted.ex));
      return true;
    }
    return false;
  }

  /**
   * No slot can be counted on: each is starting (the engine is starting, or its host process is being replaced) or
   * on a host running a suspect's or probation script (exposed), which may die of it any moment and, under load,
   * takes seconds to (a crash storm once its organization is a suspect: a steady load of 10 a second filled a queue
   * of 8 in the suite while one host was being replaced and the other ran the storm's next script).
   */
  private outage(): boolean {
    return this.slots.every((s) => s.state === 'starting' || s.exposed === true);
  }

  /** A free slot takes the waiter it may serve, if any (after the queue changed without a slot becoming ready). */
  private serveIdle(): void {
    const idle = this.slots.find((s) => free(s) && this.queue.some((w) => !this.waits(w, s)));
    if (idle) this.onReady(idle);
  }

  /** A suspect tenant already running one execution waits for it to end. */
  private held(tenant: string): boolean {
    return this.running.has(tenant) && this.suspect(tenant);
  }

  /**
   * This waiter may not take this slot: its tenant is held, or it is on probation (bridge.ts) and the slot's host
   * runs another suspect's or probation script, or, for its first PROBATION_ALONE_MS, anything else: a probation run
   * never shares a host with another that could be the culprit (both would be blamed), and shares one with others'
   * work only rather than wait for an idle host under steady load (if it kills them, they run again or are blamed as
   * for any death that names no script, and it is blamed).
   */
  private waits(w: Waiter, slot: PoolSlot): boolean {
    if (this.held(w.ex.tenant)) return true;
    if (!w.ex.probation) return false;
    return slot.exposed === true || ((slot.contention ?? 0) > 0 && performance.now() - w.since < PROBATION_ALONE_MS);
  }

  /** A tenant runs below its share (maxRunningPerTenant) and so may use a reserved slot. */
  private belowShare(tenant: string): boolean {
    return (this.running.get(tenant) ?? 0) < this.config.maxRunningPerTenant;
  }

  /**
   * Work is waiting: keep poolSize slots for it that are not held by long executions (busy for
   * overflowAfterMs or more: spinning, or awaiting slow host calls), adding overflow slots up to
   * maxPoolSize. A burst of short scripts never grows the pool.
   */
  private maybeGrow(): void {
    clearTimeout(this.growTimer);
    this.growTimer = undefined;
    const { maxPoolSize, reservedSlots } = this.config;
    if (this.closed || this.queue.length === 0 || this.slots.length >= maxPoolSize + reservedSlots) return;
    // Beyond maxPoolSize only for a waiting tenant below its share while another holds the slots.
    if (this.slots.length >= maxPoolSize && !this.queue.some((w) => this.belowShare(w.ex.tenant))) return;
    const now = performance.now();
    const busy = this.slots.filter((s) => s.state === 'busy');
    const long = busy.filter((s) => now - s.busySince >= this.config.overflowAfterMs).length;
    if (this.slots.length - long < this.config.poolSize) {
      this.counters.overflowSlots++;
      this.addSlot();
      return;
    }
    // Not yet: look again when the next busy slot would count as long.
    const next = Math.min(...busy.filter((s) => now - s.busySince < this.config.overflowAfterMs).map((s) => s.busySince));
    if (Number.isFinite(next)) {
      this.growTimer = setTimeout(() => this.maybeGrow(), Math.max(1, Math.ceil(next + this.config.overflowAfterMs - now)));
      this.growTimer.unref();
    }
  }

  private busy(ex: Execution): ExecutionResult {
    this.counters.busyRejections++;
    return refusal({ type: 'engine_busy', message: 'The script engine is busy; retry in a moment.' }, performance.now() - ex.queuedAt);
  }

  private start(slot: PoolSlot, ex: Execution, onStart?: () => void): Promise<ExecutionResult> {
    this.counters.executions++;
    try { onStart?.(); } catch { /* the caller's hook must not stop the pool */ }
    this.running.set(ex.tenant, (this.running.get(ex.tenant) ?? 0) + 1);
    const queueMs = performance.now() - ex.queuedAt;
    // A run whose host process died for another execution's script never really ran: it goes again, first in line.
    const result = slot.run(ex).then((end) => {
      if (!end.retry || this.closed) return toResult(ex, end, queueMs);
      ex.restart();
      const again = this.enqueue(ex, true);
      this.serveIdle();
      // On probation it may refuse a free slot now and take it once PROBATION_ALONE_MS has passed.
      if (ex.probation) setTimeout(() => this.serveIdle(), PROBATION_ALONE_MS + 1).unref();
      return again;
    });
    if (this.queue.length) this.maybeGrow();
    return result;
  }

  private finished(ex: Execution, cpuMs: number): void {
    const n = (this.running.get(ex.tenant) ?? 1) - 1;
    if (n > 0) this.running.set(ex.tenant, n);
    else this.running.delete(ex.tenant);
    const now = performance.now();
    const c = this.cpu.get(ex.tenant);
    const decay = c ? 2 ** (-(now - c.at) / CPU_HALF_LIFE_MS) : 0;
    this.cpu.set(ex.tenant, { ms: (c ? c.ms * decay : 0) + cpuMs, n: (c ? c.n * decay : 0) + 1, at: now });
    if (this.cpu.size > MAX_TRACKED_TENANTS) {
      for (const [tenant, t] of this.cpu) if (!this.running.has(tenant) && now - t.at > 10 * CPU_HALF_LIFE_MS) this.cpu.delete(tenant);
    }
  }

  /** Mean isolate CPU ms per execution of this tenant lately (0 for a tenant not seen lately). */
  private cpuPerExecution(tenant: string): number {
    const c = this.cpu.get(tenant);
    return c && c.n > 0 ? c.ms / c.n : 0;
  }

  /** The waiter a freed slot serves (see the top of this file); the plain FIFO when only one tenant waits. */
  private nextWaiter(slot: PoolSlot): Waiter | undefined {
    // A reserved slot (beyond maxPoolSize) serves only tenants below their share.
    if (this.slots.length > this.config.maxPoolSize && this.slots.indexOf(slot) >= this.config.maxPoolSize) {
      const at = this.queue.findIndex((w) => this.belowShare(w.ex.tenant) && !this.waits(w, slot));
      return at < 0 ? undefined : this.queue.splice(at, 1)[0];
    }
    const first = this.queue[0];
    if (!first) return undefined;
    if (this.queue.every((w) => w.ex.tenant === first.ex.tenant)) {
      const at = this.queue.findIndex((w) => !this.waits(w, slot));
      return at < 0 ? undefined : this.queue.splice(at, 1)[0];
    }
    const cap = this.config.maxRunningPerTenant;
    const now = performance.now();
    let best = -1;
    let bestKey: [number, number] = [Infinity, Infinity];
    this.queue.forEach((w, i) => {
      if (this.waits(w, slot)) return;
      const mean = this.cpuPerExecution(w.ex.tenant);
      const share = (this.running.get(w.ex.tenant) ?? 0) < cap
        && (mean < this.config.overflowAfterMs || now - w.ex.queuedAt >= this.graceFor(mean));
      const key: [number, number] = [share ? 0 : 1, mean];
      if (key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) { best = i; bestKey = key; }
    });
    return best < 0 ? undefined : this.queue.splice(best, 1)[0];
  }

  /** How long a tenant whose executions take `meanCpuMs` each waits for its share while others' short work waits. */
  private graceFor(meanCpuMs: number): number {
    return Math.min(Math.max(LONG_TENANT_GRACE_MS, LONG_TENANT_GRACE_FACTOR * meanCpuMs), this.config.queueWaitMs / 2);
  }

  private onReady(slot: PoolSlot): void {
    const next = this.nextWaiter(slot);
    if (next) {
      clearTimeout(next.timer);
      this.start(slot, next.ex, next.onStart).then(next.resolve);
      return;
    }
    if (this.slots.length > this.config.poolSize) this.retireLater(slot);
    if (this.readyWaiters.length && this.allReady()) {
      for (const resolve of this.readyWaiters.splice(0)) resolve();
    }
  }

  /** An overflow slot idle for idleRetireMs is closed, back down to poolSize. */
  private retireLater(slot: PoolSlot): void {
    const runs = slot.executions;
    setTimeout(() => {
      if (this.closed || slot.state !== 'ready' || slot.executions !== runs || this.slots.length <= this.config.poolSize) return;
      this.slots.splice(this.slots.indexOf(slot), 1);
      void slot.close();
    }, this.config.idleRetireMs).unref();
  }

  close(): Promise<void> {
    if (this.closed) return Promise.all(this.slots.map((slot) => slot.close())).then(() => {});
    this.closed = true;
    clearTimeout(this.growTimer);
    for (const waiter of this.queue.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.resolve(refusal({ type: 'engine_busy', message: 'The script engine is shutting down.' }, performance.now() - waiter.ex.queuedAt));
    }
    const closing = this.slots.map((slot) => slot.close());
    for (const resolve of this.readyWaiters.splice(0)) resolve();
    return Promise.all(closing).then(() => {});
  }
}
