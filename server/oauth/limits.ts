// Per-endpoint limits besides the global 120/min: dynamic registration 5/min per client IP, token requests 20/min
// per client. Same store kind as the global limiter (shared through PostgreSQL when configured).
import type { AppDeps } from '../deps.ts';
import { endpointRateLimited } from '../http/messages.ts';
import { memoryRateLimitStore, postgresRateLimitStore, type RateLimitStore } from '../middleware/rate-limit.ts';

export const OAUTH_LIMITS = {
  register: { max: 5, windowMs: 60_000 },
  token: { max: 20, windowMs: 60_000 },
};

export function oauthLimiter(deps: Pick<AppDeps, 'config' | 'sql' | 'clock'>) {
  const store: RateLimitStore =
    deps.config.rateLimit.store === 'postgres' ? postgresRateLimitStore(deps.sql, deps.clock) : memoryRateLimitStore(deps.clock, 10_000);
  return async function hit(key: string, limit: { max: number; windowMs: number }): Promise<void> {
    const { count, resetAt } = await store.hit(`oauth:${key}`, limit.windowMs);
    if (count <= limit.max) return;
    const seconds = Math.max(1, Math.ceil((resetAt - deps.clock.now().getTime()) / 1000));
    throw endpointRateLimited(limit.max, limit.windowMs / 1000, seconds);
  };
}
