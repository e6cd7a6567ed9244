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
// Every one of these counts per principal (principal.ts): the organization and, when the caller names one, the
// person behind it. A share is held only while both are below it, and the CPU history is the larger of the two, so
// twelve organizations of one person get one person's share, not twelve.
// The cordon: an execution that may kill its host (risky: on probation, of a suspect organization or person, or of
// an unproven person, see UNPROVEN) runs on a host with nothing else running, on at most half the hosts at once;
// others' work never starts on a host running one. See risky and waits.
import type { PoolSlot, SlotHooks } from './slot.ts';
import type { RunEnd, RunTarget } from './run.ts';
import { refusal, type ExecutionResult } from './result.ts';
import { toResult } from './to-result.ts';
import type { Execution } from './bridge.ts';
import type { ResolvedConfig } from './limits.ts';
import { partyOf, principalsOf } from './principal.ts';

/** Builds a slot (in-process, or living in a sandbox host process); the pool calls start() on it. */
export type SlotFactory = (hooks: SlotHooks) => PoolSlot;

/**
 * Principals (principal.ts keys) whose scripts lately killed a sandbox host (before quarantine): each runs one
 * execution at a time, in the cordon, so a crash costs nobody else anything.
 */
export type SuspectCheck = (principal: string) => boolean;

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
/** How recently another party must have had work here for the long-running cap to hold (see Pool.held). */
const OTHERS_ACTIVE_MS = 1000;
/**
 * UNPROVEN: a person new to this instance whose scripts have only been stopped (timeout, memory, a host's death
 * or another engine-made end) and none has ended cleanly (by its own result or error) within this window. Such a
 * person runs in the cordon until a script of theirs ends cleanly. A newcomer's first scripts are not cordoned:
 * cordoning every newcomer made a newcomer's burst wait behind another newcomer's crash storm, the cordon holding
 * one script per host, until the queue refused it (the host-app tests' storms, measured); a newcomer whose first
 * script kills its host is a suspect, cordoned, from then on, and its neighbours that only read run again.
 */
const TRUST_WINDOW_MS = 24 * 3600_000;
const MAX_TRACKED_PERSONS = 100_000;
/**
 * LAST_CHANCE: work that would be refused as busy (its wait ran out, or the queue is full) may start beside a
 * suspect's or unproven person's script (never on a host being emptied, or marked with nothing risky running) rather
 * than be refused: the cordon keeps everyone else's work to half the hosts while a crash storm runs, and on a loaded
 * 2-core machine that half alone did not keep up with a steady load (host-app's crash storm: 5 of 114 refused in one
 * run of two). A reader there that the storm takes down runs again; a writer ends as a bystander.
 */

interface Waiter {
  ex: Execution;
  onStart: (() => void) | undefined;
  resolve: (result: ExecutionResult) => void;
  timer: NodeJS.Timeout | undefined;
  /** When this waiter's expiry last found no slot to count on: its queueWaitMs counts from then. */
  outageSeenAt: number;
  /** When it joined the queue (a run that goes again joins anew). */
  since: number;
  /** About to be refused as busy: it may take a slot beside a risky execution rather than be (see LAST_CHANCE). */
  lastChance: boolean;
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
  /** Executions running per principal. */
  private readonly running = new Map<string, number>();
  /** Isolate CPU ms and executions of each principal lately, both decaying by half every CPU_HALF_LIFE_MS. */
  private readonly cpu = new Map<string, { ms: number; n: number; at: number }>();
  /** The execution each busy slot runs (the cordon looks at what a host runs). */
  private readonly current = new Map<PoolSlot, Execution>();
  /** When each party (principal.ts partyOf) last submitted, started or finished work, oldest first. */
  private readonly lastSeen = new Map<string, number>();
  /** When each person's last execution ended cleanly, or was stopped (see TRUST_WINDOW_MS). */
  private readonly cleanAt = new Map<string, number>();
  private readonly stoppedAt = new Map<string, number>();
  /** A host being emptied for a risky waiter: others' work starts elsewhere meanwhile (see updateDrain). */
  private drain: object | null = null;
  /** The host the last risky execution started on: the next one goes there too if it can (see updateDrain). */
  private cordonHost: object | null = null;
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
      finished: (ex: RunTarget, end: RunEnd) => this.finished(ex as Execution, end.cpuMs + (ex as Execution).hostMs, end),
      recycled: (reason: string) => {
        this.counters.recycled[reason] = (this.counters.recycled[reason] ?? 0) + 1;
      },
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
    this.seen(ex);
    if (this.queue.length === 0 && !this.held(ex)) {
      const slot = this.pick(ex);
      if (slot) return this.start(slot, ex, onStart);
    }
    const queueMax = this.outage() ? OUTAGE_QUEUE_FACTOR * this.config.queueMax : this.config.queueMax;
    if (this.queue.length >= queueMax && !this.makeRoomFor(ex, queueMax)) {
      const slot = this.risky(ex) || this.held(ex) ? undefined : this.besideRisky(ex);
      return slot ? this.start(slot, ex, onStart) : Promise.resolve(this.busy(ex));
    }
    const result = this.enqueue(ex, false, onStart);
    this.updateDrain();
    // An idle reserved slot (kept for tenants below their share) serves this one if it may.
    this.serveIdle();
    return result;
  }

  /**
   * The free slot a new execution takes: one the cordon allows it (see waits), then on the host with
   * the least other work. A host process runs its slots' executions and context preparations one at a time on its
   * main thread, so a slot whose host is still preparing another slot's context would first wait for that (measured
   * at concurrency 1 after a burst had grown the pool to two slots per host: +0.33 to +0.39 ms median latency over
   * the in-process pool when the first free slot was taken, +0.18 to +0.21 ms with this choice).
   */
  private pick(ex: Execution): PoolSlot | undefined {
    let best: PoolSlot | undefined;
    let bestKey = Infinity;
    const risky = this.risky(ex);
    const mayReserve = this.belowShare(ex);
    for (const [i, s] of this.slots.entries()) {
      if (!free(s) || this.barred(risky, s) || (i >= this.config.maxPoolSize && !mayReserve)) continue;
      const key = s.contention ?? 0;
      if (key < bestKey) {
        best = s;
        bestKey = key;
      }
      if (key === 0) break;
    }
    return best;
  }

  private enqueue(ex: Execution, front: boolean, onStart?: () => void): Promise<ExecutionResult> {
    return new Promise((resolve) => {
      const waiter: Waiter = { ex, onStart, resolve, timer: undefined, outageSeenAt: -Infinity, since: performance.now(), lastChance: false };
      const expire = () => {
        // A slot may have become usable for it without any slot becoming ready (see serveIdle).
        this.serveIdle();
        if (!this.queue.includes(waiter)) return;
        // No slot can be counted on (the engine is starting, every host process is being replaced, or the only
        // ones up run a suspect's script): that wait says nothing about load, so it does not count, up to
        // STARTING_WAIT_MS. Once one can, the waiter has queueWaitMs from then, as if it had just arrived (else a
        // queue that built up meanwhile is refused while the first of it runs).
        const now = performance.now();
        if (!this.closed && now - ex.queuedAt < STARTING_WAIT_MS) {
          // A risky execution waiting for the cordon (a host being emptied for it, or the cordon's hosts all taken)
          // waits for it the same way: every script there ends within its deadline.
          if (this.outage() || (this.risky(ex) && !this.cordonOpen())) {
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
        if (!waiter.lastChance && !this.risky(ex)) {
          waiter.lastChance = true;
          this.serveIdle();
          if (!this.queue.includes(waiter)) return;
        }
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        this.updateDrain();
        resolve(this.busy(ex));
      };
      waiter.timer = setTimeout(expire, this.config.queueWaitMs);
      if (front) this.queue.unshift(waiter);
      else this.queue.push(waiter);
      this.maybeGrow();
    });
  }

  /**
   * The queue is full: an execution whose organization and person are both below their fair share of it (queueMax
   * over the parties waiting, itself included, at least one entry; a party is a person, or an organization whose
   * caller named none: counting organizations would give one person's many organizations a share each) takes the
   * place of the newest entry of the principal most over its share, which is refused as busy instead.
   */
  private makeRoomFor(ex: Execution, queueMax: number): boolean {
    const counts = new Map<string, number>();
    const parties = new Set([partyOf(ex)]);
    for (const w of this.queue) {
      parties.add(partyOf(w.ex));
      for (const p of principalsOf(w.ex)) counts.set(p, (counts.get(p) ?? 0) + 1);
    }
    const mine = principalsOf(ex);
    const share = Math.max(1, Math.floor(queueMax / parties.size));
    if (mine.some((p) => (counts.get(p) ?? 0) >= share)) return false;
    let top = '';
    let over = 0;
    for (const [p, n] of counts)
      if (n - share > over) {
        top = p;
        over = n - share;
      }
    if (!top) return false;
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (!principalsOf(this.queue[i].ex).includes(top)) continue;
      const [evicted] = this.queue.splice(i, 1);
      clearTimeout(evicted.timer);
      evicted.resolve(this.busy(evicted.ex));
      return true;
    }
    return false;
  }

  /**
   * No slot can be counted on: each is starting (the engine is starting, or its host process is being replaced) or
   * barred to ordinary work by the cordon (a risky script runs on its host, which may die of it any moment and,
   * under load, takes seconds to; the host is marked; or it is being emptied for a risky waiter). A crash storm once
   * its organization is a suspect: a steady load of 10 a second filled a queue of 8 in the suite while one host was
   * being replaced and the other ran the storm's next script.
   */
  private outage(): boolean {
    return this.slots.every((s) => s.state === 'starting' || this.barred(false, s));
  }

  /**
   * LAST_CHANCE at admission: a free slot that only the cordon keeps from this execution (its host runs a risky one),
   * and not a reserved slot it may not use. Any other free slot beside a full queue is free because the waiters may
   * not take it, and so may this execution not.
   */
  private besideRisky(ex: Execution): PoolSlot | undefined {
    return this.slots.find(
      (s, i) =>
        free(s) && s.host !== undefined && this.load(s.host).risky > 0 && !this.barred(false, s, true) && (i < this.config.maxPoolSize || this.belowShare(ex)),
    );
  }

  /**
   * Free slots take the waiters they may serve, if any: after the queue changed without a slot becoming ready, or
   * after the cordon let go of a host (its risky execution ended elsewhere than on the slot that becomes ready, a
   * mark was lifted, a person proved): a waiter barred from a free slot is looked at again only then.
   */
  private serveIdle(): void {
    for (let tries = 0; tries < this.slots.length; tries++) {
      const idle = this.slots.find((s) => free(s) && this.queue.some((w) => !this.waits(w, s)));
      if (!idle) return;
      this.onReady(idle);
    }
  }

  /**
   * Waits for one of its own executions to end: a suspect organization or person already running one; or, while
   * another party has work here (OTHERS_ACTIVE_MS), a party (a person; an organization whose caller named none)
   * whose executions lately ran long (overflowAfterMs of CPU or more each) already holding every core but one
   * (longPartyCap: more runs at once buy it no more CPU, only more of the slots and CPUs others need). Not an organization as such: its
   * members' work is shared out by the organization's own share. Not a party of short scripts: holding those while
   * slots were free made a steady light load queue up behind a crash storm until the queue refused it. A running
   * script cannot be paused, so this is what keeps one person's many spinning scripts from taking every slot in the
   * moment another's queue happens to be empty (twelve organizations of one person spinning two scripts each to a 5 s
   * deadline held all five slots of a 2-core pool, and another person's steady light load was refused as busy). A
   * burst that arrives before the pool knows its cost still takes what is free, once. A party alone uses every slot.
   */
  private held(ex: Execution): boolean {
    const mine = principalsOf(ex);
    if (mine.some((p) => this.running.has(p) && this.suspect(p))) return true;
    const party = partyOf(ex);
    if ((this.running.get(party) ?? 0) < this.longPartyCap() || this.meanCpu(party) < this.config.overflowAfterMs) return false;
    return this.othersActive(party);
  }

  /**
   * How many slots a party whose scripts run long holds while another party is active: every core but one (one on a
   * single core). With one per core, its spinners sat on every CPU and each of the other person's scripts shared a
   * CPU with one: twelve organizations of one person spinning two scripts each to their deadline took another
   * person's p99 from 7 to 24 ms (3.4x) on 2 cores. With a core left, that work runs on the host left free (pick).
   */
  private longPartyCap(): number {
    return Math.max(1, this.config.poolSize - 1);
  }

  /** Another party than `party` ran, waited or finished here within OTHERS_ACTIVE_MS. */
  private othersActive(party: string): boolean {
    const now = performance.now();
    for (const [other, at] of this.lastSeen) {
      if (now - at > OTHERS_ACTIVE_MS) this.lastSeen.delete(other);
      else if (other !== party) return true;
    }
    return false;
  }

  private seen(ex: Execution): void {
    const party = partyOf(ex);
    this.lastSeen.delete(party); // re-inserted last: the map's order is oldest first
    const now = performance.now();
    this.lastSeen.set(party, now);
    for (const [other, at] of this.lastSeen) {
      if (now - at <= OTHERS_ACTIVE_MS) break;
      this.lastSeen.delete(other);
    }
  }

  /**
   * May kill its host, so runs in the cordon: on probation (bridge.ts), of a suspect organization or person, or of an
   * unproven person (TRUST_WINDOW_MS). A caller that names no person is judged by its organization alone.
   */
  risky(ex: Execution): boolean {
    if (ex.probation || principalsOf(ex).some((p) => this.suspect(p))) return true;
    if (!ex.person) return false;
    const now = performance.now();
    const recent = (at: number | undefined) => at !== undefined && now - at <= TRUST_WINDOW_MS;
    return recent(this.stoppedAt.get(ex.person)) && !recent(this.cleanAt.get(ex.person));
  }

  /** Executions running on a host, and how many of them are risky. */
  private load(host: object): { all: number; risky: number } {
    let all = 0;
    let risky = 0;
    for (const [slot, ex] of this.current) {
      if (slot.host !== host) continue;
      all++;
      if (this.risky(ex)) risky++;
    }
    return { all, risky };
  }

  /** The hosts the pool's slots live on (none for the in-process pool, where no cordon is possible). */
  private hosts(): Set<object> {
    const hosts = new Set<object>();
    for (const s of this.slots) if (s.host) hosts.add(s.host);
    return hosts;
  }

  /** Hosts running a risky execution now, and how many may at once: half of them, at least one. */
  private cordon(): { used: number; max: number } {
    const hosts = this.hosts();
    let used = 0;
    for (const h of hosts) if (this.load(h).risky > 0) used++;
    return { used, max: Math.max(1, Math.floor(hosts.size / 2)) };
  }

  /** A free slot can take a risky execution now (an idle host, with the cordon not full). */
  private cordonOpen(): boolean {
    return this.slots.some((s) => free(s) && !this.barred(true, s));
  }

  /**
   * The cordon, for a slot: a risky execution starts only on a host with nothing else running, not marked
   * (PoolSlot.exposed), while fewer than half the hosts run one; any other starts only on a host running no risky
   * execution, not marked, and not being emptied for a risky one (drain).
   */
  private barred(risky: boolean, slot: PoolSlot, lastChance = false): boolean {
    if (!slot.host) return false;
    const load = this.load(slot.host);
    if (lastChance && !risky && load.risky > 0 && slot.host !== this.drain) return false;
    if (slot.exposed === true) return true;
    if (!risky) return load.risky > 0 || slot.host === this.drain;
    if (load.all > 0 || !this.leavesOthersAHost(slot.host)) return true;
    const cordon = this.cordon();
    return cordon.used >= cordon.max;
  }

  /**
   * Another host than `host` is up (a slot of it is not starting) and runs nothing risky, or `host` is the only one:
   * a risky execution never takes the last host others can use. A crash storm's script would otherwise start on the
   * one host left while the host its previous script killed was being replaced, and everyone else's work waited for
   * one of them (a storm rotated over four organizations: benign p99 29.8x quiet, queued up to 740 ms, 0 failed).
   */
  private leavesOthersAHost(host: object): boolean {
    const hosts = this.hosts();
    if (hosts.size <= 1) return true;
    for (const other of hosts) {
      if (other === host || this.load(other).risky > 0) continue;
      if (this.slots.some((s) => s.host === other && s.state !== 'starting')) return true;
    }
    return false;
  }

  /**
   * Picks the host to empty for the oldest risky waiter the pool could not place: the host the last risky
   * execution ran on (so that a storm of them keeps to one host, being replaced there, while others' work keeps to
   * the rest: emptying whichever host was idle at the moment moved the storm onto the hosts serving everyone else),
   * else an idle one, else the one already chosen, else the one running the fewest executions. Without it, a steady
   * load of others' work could keep every host busy forever; with it, the risky waiter waits at most for the scripts
   * running there.
   */
  private updateDrain(): void {
    // Asked after every execution: with no risky waiter (nearly always), nothing else is looked at.
    if (!this.queue.some((w) => !this.held(w.ex) && this.risky(w.ex))) {
      this.drain = null;
      return;
    }
    const cordon = this.cordon();
    if (cordon.used >= cordon.max) {
      this.drain = null;
      return;
    }
    const hosts = [...this.hosts()];
    const candidates = hosts.filter(
      (h) => this.load(h).risky === 0 && !this.slots.some((s) => s.host === h && s.exposed === true) && this.leavesOthersAHost(h),
    );
    if (this.cordonHost && candidates.includes(this.cordonHost)) {
      this.drain = this.cordonHost;
      return;
    }
    const idle = candidates.find((h) => this.load(h).all === 0 && this.slots.some((s) => s.host === h && free(s)));
    if (idle) {
      this.drain = idle;
      return;
    }
    if (this.drain && candidates.includes(this.drain)) return;
    let best: object | null = null;
    let fewest = Infinity;
    for (const h of candidates) {
      const n = this.load(h).all;
      if (n < fewest) {
        best = h;
        fewest = n;
      }
    }
    this.drain = best;
  }

  /** This waiter may not take this slot: one of its principals is held, or the cordon bars it (see barred). */
  private waits(w: Waiter, slot: PoolSlot): boolean {
    if (this.held(w.ex)) return true;
    return this.barred(this.risky(w.ex), slot, w.lastChance);
  }

  /** Its organization and person both run below their share (maxRunningPerTenant): it may use a reserved slot. */
  private belowShare(ex: Execution): boolean {
    return principalsOf(ex).every((p) => (this.running.get(p) ?? 0) < this.config.maxRunningPerTenant);
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
    if (this.slots.length >= maxPoolSize && !this.queue.some((w) => this.belowShare(w.ex))) return;
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
    try {
      onStart?.();
    } catch {
      /* the caller's hook must not stop the pool */
    }
    for (const p of principalsOf(ex)) this.running.set(p, (this.running.get(p) ?? 0) + 1);
    this.current.set(slot, ex);
    if (slot.host === this.drain) this.drain = null;
    if (slot.host && this.risky(ex)) this.cordonHost = slot.host;
    const queueMs = performance.now() - ex.queuedAt;
    // A run whose host process died for another execution's script never really ran: it goes again, first in line.
    const result = slot.run(ex).then((end) => {
      if (!end.retry || this.closed) return toResult(ex, end, queueMs);
      ex.restart();
      const again = this.enqueue(ex, true);
      this.updateDrain();
      this.serveIdle();
      return again;
    });
    if (this.queue.length) this.maybeGrow();
    return result;
  }

  private finished(ex: Execution, cpuMs: number, end: RunEnd): void {
    for (const [slot, running] of this.current) if (running === ex) this.current.delete(slot);
    this.seen(ex);
    const now = performance.now();
    for (const p of principalsOf(ex)) {
      const n = (this.running.get(p) ?? 1) - 1;
      if (n > 0) this.running.set(p, n);
      else this.running.delete(p);
      const c = this.cpu.get(p);
      const decay = c ? 2 ** (-(now - c.at) / CPU_HALF_LIFE_MS) : 0;
      this.cpu.set(p, { ms: (c ? c.ms * decay : 0) + cpuMs, n: (c ? c.n * decay : 0) + 1, at: now });
    }
    if (this.cpu.size > MAX_TRACKED_TENANTS) {
      for (const [p, t] of this.cpu) if (!this.running.has(p) && now - t.at > 10 * CPU_HALF_LIFE_MS) this.cpu.delete(p);
    }
    // A run that goes again (its host died for another's script) says nothing about its person.
    if (ex.person && !end.retry) {
      const seen = 'type' in end.outcome ? this.stoppedAt : this.cleanAt;
      seen.delete(ex.person); // re-inserted last: the map's order is oldest first
      seen.set(ex.person, now);
      if (seen.size > MAX_TRACKED_PERSONS) seen.delete(seen.keys().next().value!);
    }
    // The cordon changed (a host emptied, a person proved): a drained host may take its risky waiter, and free slots
    // on a host that ran a risky execution may take others' work (the slot that ran it is offered once ready).
    this.updateDrain();
    if (this.queue.length)
      queueMicrotask(() => {
        if (!this.closed) this.serveIdle();
      });
  }

  /** Mean isolate CPU ms per execution of this execution lately: the larger of its organization's and person's. */
  private cpuPerExecution(ex: Execution): number {
    let mean = 0;
    for (const p of principalsOf(ex)) mean = Math.max(mean, this.meanCpu(p));
    return mean;
  }

  /** A principal's mean isolate CPU ms per execution lately (0 when unknown). */
  private meanCpu(principal: string): number {
    const c = this.cpu.get(principal);
    return c && c.n > 0 ? c.ms / c.n : 0;
  }

  /** The waiter a freed slot serves (see the top of this file); the plain FIFO when only one tenant waits. */
  private nextWaiter(slot: PoolSlot): Waiter | undefined {
    // A reserved slot (beyond maxPoolSize) serves only tenants below their share.
    if (this.slots.length > this.config.maxPoolSize && this.slots.indexOf(slot) >= this.config.maxPoolSize) {
      const at = this.queue.findIndex((w) => this.belowShare(w.ex) && !this.waits(w, slot));
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
      const mean = this.cpuPerExecution(w.ex);
      const share =
        principalsOf(w.ex).every((p) => (this.running.get(p) ?? 0) < cap) && (mean < this.config.overflowAfterMs || now - w.ex.queuedAt >= this.graceFor(mean));
      const key: [number, number] = [share ? 0 : 1, mean];
      if (key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
        best = i;
        bestKey = key;
      }
    });
    return best < 0 ? undefined : this.queue.splice(best, 1)[0];
  }

  /** How long a tenant whose executions take `meanCpuMs` each waits for its share while others' short work waits. */
  private graceFor(meanCpuMs: number): number {
    return Math.min(Math.max(LONG_TENANT_GRACE_MS, LONG_TENANT_GRACE_FACTOR * meanCpuMs), this.config.queueWaitMs / 2);
  }

  private onReady(slot: PoolSlot): void {
    this.updateDrain();
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
