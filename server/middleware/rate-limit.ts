// 120 requests per 60 s window per bearer token, else per client IP (X-Forwarded-For only when TRUST_PROXY).
// Every response, errors included, carries RateLimit-Limit/-Remaining/-Reset and RateLimit-Policy; over the
// limit: 429 rate_limited with Retry-After. The memory store is per instance (bounded LRU); the postgres store
// is shared by every instance on the database.
import type Koa from 'koa';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Sql } from 'postgres';
import type { Clock } from '../../runtime-api/index.ts';
import { rateLimited } from '../http/messages.ts';

export interface Hit {
  count: number;
  /** When the current window ends (ms since epoch). */
  resetAt: number;
}

export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<Hit>;
}

export function memoryRateLimitStore(clock: Clock, maxKeys = 50_000): RateLimitStore & { size(): number } {
  const windows = new LRUCache<string, Hit>({ max: maxKeys });
  return {
    size: () => windows.size,
    async hit(key, windowMs) {
      const now = clock.now().getTime();
      const current = windows.get(key);
      if (!current || current.resetAt <= now) {
        const fresh = { count: 1, resetAt: now + windowMs };
        windows.set(key, fresh);
        return fresh;
      }
      current.count += 1;
      return current;
    },
  };
}

export function postgresRateLimitStore(sql: Sql, clock: Clock): RateLimitStore {
  return {
    async hit(key, windowMs) {
      const now = clock.now();
      const expiredBefore = new Date(now.getTime() - windowMs);
      // One statement: a new window when the key is unknown or its window ended, else one more in the same window.
      const [row] = await sql`
        insert into rate_limits as r (key, window_start, count) values (${key}, ${now}, 1)
        on conflict (key) do update set
          count = case when r.window_start <= ${expiredBefore} then 1 else r.count + 1 end,
          window_start = case when r.window_start <= ${expiredBefore} then ${now} else r.window_start end
        returning count, window_start`;
      return { count: row.count as number, resetAt: (row.window_start as Date).getTime() + windowMs };
    },
  };
}

export function rateLimitKey(ctx: Koa.Context): string {
  const auth = ctx.get('authorization');
  const bearer = /^Bearer\s+(\S+)/i.exec(auth)?.[1];
  if (bearer) return `token:${createHash('sha256').update(bearer).digest('base64url').slice(0, 32)}`;
  return `ip:${ctx.ip}`;
}

export function rateLimit(options: { store: RateLimitStore; max: number; windowSeconds: number; clock: Clock }): Koa.Middleware {
  const { store, max, windowSeconds, clock } = options;
  const policy = `${max};w=${windowSeconds}`;
  return async function rateLimitMiddleware(ctx, next) {
    const { count, resetAt } = await store.hit(rateLimitKey(ctx), windowSeconds * 1000);
    const reset = Math.max(0, Math.ceil((resetAt - clock.now().getTime()) / 1000));
    ctx.set('RateLimit-Limit', String(max));
    ctx.set('RateLimit-Remaining', String(Math.max(0, max - count)));
    ctx.set('RateLimit-Reset', String(reset));
    ctx.set('RateLimit-Policy', policy);
    if (count > max) {
      throw rateLimited(max, windowSeconds, reset);
    }
    await next();
  };
}
