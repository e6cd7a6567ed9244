// The instance's lifecycle for a graceful roll: how many requests are in flight, and whether it drains. Once
// draining, readiness is false, new executions and new part uploads are refused with 503 `draining` and
// Retry-After, and what was already accepted (executions, part PUTs, downloads: any request) runs to its end.
import type Koa from 'koa';
import type { Engine } from '../../engine/index.ts';
import { ServiceError } from '../../runtime-api/index.ts';

/** Seconds a refused client should wait: enough for the load balancer to see readiness fail and route elsewhere. */
export const DRAIN_RETRY_AFTER_SECONDS = 5;

/** Paths that never count as work in flight (probes and scrapes answer during the whole drain). */
export const PROBE_PATHS = new Set(['/health/live', '/health/ready', '/metrics']);

export class Lifecycle {
  #draining = false;
  #inFlight = 0;
  #idleWaiters: (() => void)[] = [];

  get draining(): boolean {
    return this.#draining;
  }
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Stop taking new work. Idempotent. */
  beginDrain(): void {
    this.#draining = true;
  }

  refusal(): ServiceError {
    return new ServiceError('draining', { headers: { 'Retry-After': String(DRAIN_RETRY_AFTER_SECONDS) } });
  }

  /** Counts every request until its response is fully written or its socket closes (streamed downloads included). */
  tracker(): Koa.Middleware {
    return async (ctx, next) => {
      if (PROBE_PATHS.has(ctx.path)) return next();
      this.#inFlight++;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        if (--this.#inFlight === 0) for (const wake of this.#idleWaiters.splice(0)) wake();
      };
      ctx.res.once('close', finish);
      // Keep-alive clients move to another instance once this one drains.
      if (this.#draining) ctx.set('Connection', 'close');
      await next();
    };
  }

  /** A route guard: refuse a request that would start new work (a part upload) while draining. */
  refuseWhileDraining(): Koa.Middleware {
    return async (_ctx, next) => {
      if (this.#draining) throw this.refusal();
      await next();
    };
  }

  /** The engine, refusing new executions while draining (every way in: MCP, /app/v1, plan and apply). */
  guardEngine(engine: Engine): Engine {
    return {
      ...engine,
      execute: async (request) => {
        if (this.#draining) throw this.refusal();
        return engine.execute(request);
      },
      ready: () => engine.ready(),
      stats: () => engine.stats(),
      close: () => engine.close(),
    };
  }

  /** Resolves true when nothing is in flight, false if `timeoutMs` passed first. */
  async idle(timeoutMs: number): Promise<boolean> {
    if (this.#inFlight === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const woke = new Promise<boolean>((resolve) => {
      this.#idleWaiters.push(() => resolve(true));
    });
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([woke, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
