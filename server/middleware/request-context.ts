// Per-request basics: a request id (echoed as x-request-id), the locale from x-service-locale, and a one-line access log.
import type Koa from 'koa';
import { randomUUID } from 'node:crypto';
import type { Locale } from '../../runtime-api/index.ts';
import type { Logger } from '../logger.ts';

export function localeOf(header: string | undefined): Locale {
  const value = (header ?? '').trim().toLowerCase();
  return value === 'pt-br' || value === 'pt' ? 'pt-BR' : 'en-US';
}

export function requestContext(logger: Logger): Koa.Middleware {
  return async function requestContextMiddleware(ctx, next) {
    const incoming = ctx.get('x-request-id');
    const requestId = /^[A-Za-z0-9._-]{8,128}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.locale = localeOf(ctx.get('x-service-locale'));
    ctx.set('x-request-id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      logger.debug('request', { requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 });
    }
  };
}
