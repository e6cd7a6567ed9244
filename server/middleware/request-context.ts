// Per-request basics: a request id (echoed as x-request-id), the locale (x-service-locale, else Accept-Language), and
// a one-line access log.
import type Koa from 'koa';
import { randomUUID } from 'node:crypto';
import type { Locale } from '../../runtime-api/index.ts';
import type { Logger } from '../logger.ts';

export function localeOf(header: string | undefined): Locale {
  const value = (header ?? '').trim().toLowerCase();
  return value === 'pt-br' || value === 'pt' ? 'pt-BR' : 'en-US';
}

/**
 * The request's locale: `x-service-locale` when sent (spec section 5), else the best of Accept-Language by its
 * q-values (any `pt` is pt-BR, any `en` en-US), else en-US.
 */
export function requestLocale(ctx: Koa.Context): Locale {
  const stated = ctx.get('x-service-locale');
  if (stated) return localeOf(stated);
  if (!ctx.get('accept-language')) return 'en-US';
  const best = ctx.acceptsLanguages('en-US', 'en', 'pt-BR', 'pt');
  return typeof best === 'string' && best.startsWith('pt') ? 'pt-BR' : 'en-US';
}

export function requestContext(logger: Logger): Koa.Middleware {
  return async function requestContextMiddleware(ctx, next) {
    const incoming = ctx.get('x-request-id');
    const requestId = /^[A-Za-z0-9._-]{8,128}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.locale = requestLocale(ctx);
    ctx.set('x-request-id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      logger.debug('request', { requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 });
    }
  };
}
