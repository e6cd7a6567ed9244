// The only writer of error bodies. ServiceErrors are written in their code's shape and locale; anything else is a
// 500 whose body hides internals, logged with the request id.
import type Koa from 'koa';
import { ServiceError, type ErrorCode, fromDatabaseError } from '../../runtime-api/index.ts';
import { routeNotFound } from '../http/messages.ts';
import type { Logger } from '../logger.ts';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** Normalise anything thrown into a ServiceError. */
export function toServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  const fromDatabase = fromDatabaseError(err);
  if (fromDatabase) return fromDatabase;
  const status = (err as { status?: unknown; expose?: unknown })?.status;
  if (typeof status === 'number' && status < 500 && STATUS_CODES[status]) {
    return new ServiceError(STATUS_CODES[status], { cause: err });
  }
  return new ServiceError('internal_error', { cause: err });
}

export function writeError(ctx: Koa.Context, error: ServiceError): void {
  ctx.status = error.status;
  // A refusal is about this request: no cache may hand it to another (404 and 405 are cacheable by default).
  ctx.set('Cache-Control', 'no-store');
  for (const [k, val] of Object.entries(error.headers ?? {})) ctx.set(k, val);
  ctx.remove('content-disposition');
  ctx.remove('content-range');
  ctx.body = error.toBody(ctx.state.locale);
}

function isJsonBody(body: unknown): body is object {
  if (body === null || typeof body !== 'object') return false;
  const proto = Object.getPrototypeOf(body);
  return Array.isArray(body) || proto === Object.prototype || proto === null;
}

export function errorHandler(logger: Logger): Koa.Middleware {
  return async function errorHandlerMiddleware(ctx, next) {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw routeNotFound(ctx.method, ctx.path);
      }
      // Every response states whether it may be stored: a route that said nothing answers for its caller only.
      if (!ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
      // Serialize JSON bodies here rather than in Koa's respond(), which runs after every middleware: a body that
      // cannot be serialized would otherwise become Koa's own plain-text 500, unseen by this handler and unlogged.
      if (isJsonBody(ctx.body)) ctx.body = JSON.stringify(ctx.body);
    } catch (err) {
      const error = toServiceError(err);
      if (error.status >= 500) {
        logger.error('request failed', { requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, code: error.code, err: error.cause ?? error });
      } else {
        logger.debug('request rejected', { requestId: ctx.state.requestId, code: error.code, message: error.message });
      }
      if (ctx.headerSent || !ctx.writable) {
        // Streaming already began: the connection is cut so the client sees a truncated body, never a silent success.
        ctx.req.socket.destroy();
        return;
      }
      writeError(ctx, error);
    }
  };
}
