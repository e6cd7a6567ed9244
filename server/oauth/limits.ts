// Per-endpoint limits besides the global 120/min: dynamic registration 5/min per client IP, token requests 20/min
// per client. Same store kind as the global limiter (shared through PostgreSQL when configured).
import type { AppDeps } from '../deps.ts';
import { ServiceError, l10n } from '../../runtime-api/index.ts';
import { memoryRateLimitStore, postgresRateLimitStore, type RateLimitStore } from '../middleware/rate-limit.ts';

export const OAUTH_LIMITS = {
  register: { max: 5, windowMs: 60_000 },
  token: { max: 20, windowMs: 60_000 },
};

export function oauthLimiter(deps: Pick<AppDeps, 'config' | 'sql' | 'clock'>) {
  const store: RateLimitStore = deps.config.rateLimit.store === 'postgres' ? postgresRateLimitStore(deps.sql, deps.clock) : memoryRateLimitStore(deps.clock, 10_000);
  return async function hit(key: string, limit: { max: number; windowMs: number }): Promise<void> {
    const { count, resetAt } = await store.hit(`oauth:${key}`, limit.windowMs);
    if (count <= limit.max) return;
    const seconds = Math.max(1, Math.ceil((resetAt - deps.clock.now().getTime()) / 1000));
    throw new ServiceError('rate_limited', {
      resolution: l10n(`At most ${limit.max} requests per ${limit.windowMs / 1000} s here; retry in ${seconds} s.`,
        `No máximo ${limit.max} requisições a cada ${limit.windowMs / 1000} s aqui; tente de novo em ${seconds} s.`),
      headers: { 'Retry-After': String(seconds) },
    });
  };
}
