// A pool slot whose isolate lives in a sandbox host process: the pool sees the same states as an in-process Slot,
// mirrored from the host's frames, and an execution's end arrives as a RunEnd (or as `crashed` if its host died).
import type { Execution } from '../bridge.ts';
import type { RunEnd } from '../run.ts';
import type { ExecutionError } from '../result.ts';
import type { PoolSlot, SlotHooks, SlotState } from '../slot.ts';

/**
 * What a slot needs of the process its isolate lives in. Owned here so that the dependency runs one way: HostProcess
 * (host-process.ts) holds RemoteSlots and implements this; a slot never sees the rest of that class.
 */
export interface SlotHost {
  /** Its process runs and is not being closed. */
  readonly live: boolean;
  /** V8 gave up on one of its isolates: it takes no more work. */
  readonly draining: boolean;
  /** Every slot on the same process (contention counts the busy ones). */
  readonly slots: ReadonlyMap<number, RemoteSlot>;
  atRisk(): boolean;
  open(slot: RemoteSlot): void;
  release(slot: RemoteSlot): void;
  dispatch(slot: RemoteSlot, ex: Execution): void;
  /** The execution's end has been handled: its host no longer answers for it. */
  forget(execId: number): void;
}

interface Current {
  ex: Execution;
  resolve: (end: RunEnd) => void;
  startedAt: number;
  /** Isolate CPU the host last reported for this run: what it reports if the host dies. */
  cpuMs: number;
  /** Replies sent to its calls, and how many the host had received when it last said its isolate was idle. */
  replies: number;
  idleAtReplies: number | null;
}

export class RemoteSlot implements PoolSlot {
  readonly id: number;
  state: SlotState = 'starting';
  busySince = 0;
  executions = 0;
  readonly isolatesBuilt = 0;
  readonly referenceCount = 0;
  readonly cachedScripts = 0;
  current: Current | null = null;
  readonly host: SlotHost;
  private readonly hooks: SlotHooks;

  constructor(id: number, host: SlotHost, hooks: SlotHooks) {
    this.id = id;
    this.host = host;
    this.hooks = hooks;
  }

  get exposed(): boolean {
    return this.host.atRisk();
  }

  /** V8 gave up on an isolate of this slot's host: an idle slot takes no more work there. */
  hold(): void {
    if (this.state !== 'ready') return;
    this.state = 'starting';
    this.warming = false;
  }

  /** Its host is no longer at risk of an isolate that ended over its limits: an idle slot offers itself to waiting work. */
  offer(): void {
    if (this.state === 'ready' && !this.warming && !this.current) this.hooks.ready(this);
  }

  get live(): boolean {
    return this.state !== 'closed' && this.host.live;
  }

  get contention(): number {
    let n = 0;
    for (const slot of this.host.slots.values()) if (slot !== this && (slot.state === 'busy' || slot.warming)) n++;
    return n;
  }

  start(): void {
    this.host.open(this);
  }

  run(ex: Execution): Promise<RunEnd> {
    this.state = 'busy';
    this.executions++;
    this.busySince = performance.now();
    return new Promise((resolve) => {
      this.current = { ex, resolve, startedAt: this.busySince, cpuMs: 0, replies: 0, idleAtReplies: null };
      this.host.dispatch(this, ex);
    });
  }

  /**
   * Counts as ready but its host is still preparing the context (after a clean end): the next execution sent here
   * would wait for that (see onEnd and the pool's `free`).
   */
  warming = false;

  /** The host prepared a fresh context: a starting slot is ready, a warming one warm; either may take work now. */
  onReady(): void {
    const was = this.warming;
    this.warming = false;
    if (this.state === 'closed' || this.current || (this.state === 'ready' && !was) || this.host.draining) return;
    this.state = 'ready';
    this.hooks.ready(this);
  }

  /**
   * The execution ended in the host (or here: crashed, closed). After a clean end the host keeps its isolate and
   * prepares the next context at once, and it holds an execution sent meanwhile until that context is ready: the
   * slot counts as ready now, without waiting for a ready frame (a round trip per execution, with the host idle
   * in it), though still `warming` until that frame comes. After anything else it waits for the host's ready.
   */
  onEnd(end: RunEnd): void {
    const current = this.current;
    if (!current) return;
    this.current = null;
    this.host.forget(current.ex.id);
    const ready = end.recycle === null && this.state !== 'closed' && this.host.live && !this.host.draining;
    if (this.state !== 'closed') this.state = ready ? 'ready' : 'starting';
    this.warming = ready;
    this.hooks.finished(current.ex, end);
    if (!end.retry) current.ex.close();
    current.resolve(end);
    if (ready && this.state === 'ready' && !this.current) this.hooks.ready(this);
  }

  /**
   * The host's CPU sample for the running execution (heartbeat; null if it did not read). The host is less trusted
   * than the server: a figure that is not a number, shrinks, or exceeds the run's wall time so far is ignored.
   */
  sampledCpu(ms: number | null, idleAtReplies: number | null = null): void {
    const current = this.current;
    if (!current) return;
    current.idleAtReplies = idleAtReplies !== null && Number.isInteger(idleAtReplies) ? idleAtReplies : null;
    if (ms === null || !Number.isFinite(ms) || ms < current.cpuMs || ms > performance.now() - current.startedAt) return;
    current.cpuMs = ms;
  }

  /** A reply to one of its calls left for the host. */
  replied(): void {
    if (this.current) this.current.replies++;
  }

  /**
   * Its isolate was idle under its memory limit when the host last said so, and has received no reply since (the
   * only thing that resumes it): it has not grown since.
   */
  get idleUnderLimit(): boolean {
    const current = this.current;
    return current !== null && current.idleAtReplies === current.replies;
  }

  /** The host died under this slot: end its execution (or hand it back for a retry), and wait for the new host. */
  crashed(error: ExecutionError, retry: boolean): void {
    if (this.state !== 'closed') this.state = 'starting';
    if (!this.current) return;
    // Its host died with it: the CPU it had used, as last reported, is still charged (result and fairness).
    this.onEnd({ outcome: error, recycle: 'crashed', wallMs: performance.now() - this.current.startedAt, cpuMs: this.current.cpuMs, retry });
  }

  close(): Promise<void> {
    if (this.state === 'closed') return Promise.resolve();
    this.state = 'closed';
    this.host.release(this);
    this.onEnd({ outcome: { type: 'internal_error', message: 'The engine was closed while the script ran.' }, recycle: 'closed', wallMs: 0, cpuMs: 0 });
    return Promise.resolve();
  }
}
