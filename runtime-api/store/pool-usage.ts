// How full this process's PostgreSQL pool is. postgres.js keeps its connection queues private, so the handle made by
// connect() is wrapped once here and counts what asks for a connection: a transaction (sql.begin) or a reservation
// (sql.reserve) holds one from the moment it gets it until it ends; a plain query from when it is sent until it settles.
import type { Sql } from 'postgres';

export interface PoolUsage {
  max: number;
  /** Connections busy: held by transactions and reservations, plus plain queries running, at most `max`. */
  inUse: number;
  /** Requests waiting for a connection: transactions and reservations not yet given one, plus plain queries beyond `max`. */
  waiting: number;
}

interface Counts {
  max: number;
  holding: number;
  waitingHolders: number;
  plain: number;
}

const usage = new WeakMap<object, Counts>();

/** The pool's use now, or undefined for a handle not made by connect(). */
export function poolUsage(sql: Sql): PoolUsage | undefined {
  const c = usage.get(sql);
  if (!c) return undefined;
  // postgres.js pipelines plain queries on busy connections; a query queued behind another on its connection is
  // waiting for it as much as one in the pool's own queue, so everything past `max` counts as waiting.
  const busy = c.holding + c.plain;
  return { max: c.max, inUse: Math.min(c.max, busy), waiting: c.waitingHolders + Math.max(0, busy - c.max) };
}

/** A postgres.js query is a lazy promise: counted only once it is sent (a fragment embedded in another never is). */
function countWhenSent(c: Counts, result: unknown): unknown {
  const q = result as { handle?: () => unknown; executed?: boolean } | null;
  if (!(q instanceof Promise) || typeof q.handle !== 'function') return result;
  const handle = q.handle;
  q.handle = function (this: typeof q) {
    if (!this.executed) {
      c.plain++;
      const done = () => {
        c.plain--;
      };
      // The plain Promise.then (its species is Promise): observes the settlement without sending anything.
      Promise.prototype.then.call(this, done, done);
    }
    return handle.call(this);
  };
  return result;
}

/** Move one holder from waiting to holding (once), and out of whichever it is in when it ends. */
function holder(c: Counts) {
  let state: 'waiting' | 'holding' | 'done' = 'waiting';
  c.waitingHolders++;
  return {
    acquired() {
      if (state === 'waiting') {
        c.waitingHolders--;
        c.holding++;
        state = 'holding';
      }
    },
    ended() {
      if (state === 'waiting') c.waitingHolders--;
      else if (state === 'holding') c.holding--;
      state = 'done';
    },
  };
}

export function trackPoolUsage(sql: Sql, max: number): Sql {
  const c: Counts = { max, holding: 0, waitingHolders: 0, plain: 0 };
  const begin = (...args: unknown[]) => {
    const h = holder(c);
    const fn = args.at(-1) as (tx: unknown) => unknown;
    // The callback runs once the transaction's BEGIN has a connection; the promise settles after COMMIT/ROLLBACK.
    args[args.length - 1] = (tx: unknown) => {
      h.acquired();
      return fn(tx);
    };
    const p = (sql.begin as (...a: unknown[]) => Promise<unknown>)(...args);
    p.then(h.ended, h.ended);
    return p;
  };
  const reserve = async () => {
    const h = holder(c);
    let reserved: Awaited<ReturnType<Sql['reserve']>>;
    try {
      reserved = await sql.reserve();
    } catch (err) {
      h.ended();
      throw err;
    }
    h.acquired();
    const release = reserved.release;
    reserved.release = () => {
      h.ended();
      release();
    };
    return reserved;
  };
  const wrapped = new Proxy(sql, {
    apply: (target, self, args) => countWhenSent(c, Reflect.apply(target, self, args)),
    get(target, key, receiver) {
      if (key === 'begin') return begin;
      if (key === 'reserve') return reserve;
      const value = Reflect.get(target, key, receiver);
      if (key === 'unsafe' || key === 'file') return (...args: unknown[]) => countWhenSent(c, (value as (...a: unknown[]) => unknown).apply(target, args));
      return value;
    },
  });
  usage.set(wrapped, c);
  return wrapped;
}
