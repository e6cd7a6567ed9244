// The pool: P slots pre-warmed at start, one execution per slot, and a bounded FIFO queue in front.
// A full queue or a wait longer than queueWaitMs answers `engine_busy` instead of piling up work.
import { Slot } from './slot.ts';
import { refusal, type ExecutionResult } from './result.ts';
import type { Execution } from './bridge.ts';
import type { ResolvedConfig } from './limits.ts';

interface Waiter {
  ex: Execution;
  resolve: (result: ExecutionResult) => void;
  timer: NodeJS.Timeout | undefined;
}

export interface PoolCounters {
  executions: number;
  busyRejections: number;
  recycled: Record<string, number>;
  catastrophicErrors: number;
}

export class Pool {
  readonly slots: Slot[];
  readonly counters: PoolCounters = { executions: 0, busyRejections: 0, recycled: {}, catastrophicErrors: 0 };
  private readonly queue: Waiter[] = [];
  private readonly config: ResolvedConfig;
  private readonly readyWaiters: (() => void)[] = [];
  private closed = false;

  constructor(config: ResolvedConfig) {
    this.config = config;
    const hooks = {
      ready: (slot: Slot) => this.onReady(slot),
      recycled: (reason: string) => { this.counters.recycled[reason] = (this.counters.recycled[reason] ?? 0) + 1; },
      catastrophic: (message: string) => {
        this.counters.catastrophicErrors++;
        if (config.onCatastrophicError) config.onCatastrophicError(message);
        else process.stderr.write(`engine: isolated-vm catastrophic error: ${message}\n`);
      },
    };
    this.slots = Array.from({ length: config.poolSize }, () => new Slot(config, hooks));
    for (const slot of this.slots) slot.start();
  }

  get queued(): number {
    return this.queue.length;
  }

  /** Resolves once every slot is idle with a prepared context (after start, or after a burst). */
  whenReady(): Promise<void> {
    if (this.closed || this.slots.every((s) => s.state === 'ready')) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  submit(ex: Execution): Promise<ExecutionResult> {
    if (this.closed) return Promise.resolve(refusal({ type: 'internal_error', message: 'The script engine is closed.' }));
    if (this.queue.length === 0) {
      const slot = this.slots.find((s) => s.state === 'ready');
      if (slot) return this.start(slot, ex);
    }
    if (this.queue.length >= this.config.queueMax) return Promise.resolve(this.busy(ex));
    return new Promise((resolve) => {
      const waiter: Waiter = { ex, resolve, timer: undefined };
      waiter.timer = setTimeout(() => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        resolve(this.busy(ex));
      }, this.config.queueWaitMs);
      this.queue.push(waiter);
    });
  }

  private busy(ex: Execution): ExecutionResult {
    this.counters.busyRejections++;
    return refusal({ type: 'engine_busy', message: 'The script engine is busy; retry in a moment.' }, performance.now() - ex.queuedAt);
  }

  private start(slot: Slot, ex: Execution): Promise<ExecutionResult> {
    this.counters.executions++;
    return slot.run(ex, performance.now() - ex.queuedAt);
  }

  private onReady(slot: Slot): void {
    const next = this.queue.shift();
    if (next) {
      clearTimeout(next.timer);
      this.start(slot, next.ex).then(next.resolve);
      return;
    }
    if (this.readyWaiters.length && this.slots.every((s) => s.state === 'ready')) {
      for (const resolve of this.readyWaiters.splice(0)) resolve();
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.queue.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.resolve(refusal({ type: 'engine_busy', message: 'The script engine is shutting down.' }, performance.now() - waiter.ex.queuedAt));
    }
    for (const slot of this.slots) slot.close();
    for (const resolve of this.readyWaiters.splice(0)) resolve();
  }
}
