// CSRF defence for cookie-authenticated requests. A state-changing request (POST/PUT/PATCH/DELETE) that a
// session cookie authenticates must come from an allowed Origin (403 ORIGIN_NOT_ALLOWED), and a POST must carry JSON (415);
// a cross-site page can send neither without a CORS preflight we never grant. The /auth/* routes (sign-in,
// verify, sign-out) get the Origin check too, against login CSRF, though they accept a same-origin form post.
// Requests without an Origin header come from non-browser clients (a browser always sends one on cross-site
// POSTs), unless Sec-Fetch-Site says cross-site.
import type Koa from 'koa';
import type { Config } from '../config.ts';
import type { RouteDef } from '../http/route.ts';
import { isJson } from '../http/body.ts';
import { notAWebOrigin, originNotAllowed, sessionJsonRequired } from '../http/messages.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The public base URL's origin and ALLOWED_ORIGINS (config.allowedOrigins already holds both). */
export function isAllowedOrigin(config: Pick<Config, 'allowedOrigins'>, origin: string): boolean {
  if (!origin || origin === 'null') return false;
  try {
    return config.allowedOrigins.includes(new URL(origin).origin);
  } catch {
    return false;
  }
}

/**
 * A web page's origin: http or https, in its serialized form. An opaque origin (`null`: sandboxed frames, files,
 * cross-origin redirects) names no page a user could recognise, so it is not one.
 */
export function isWebOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === origin;
  } catch {
    return false;
  }
}

/** Throws when an unsafe request's Origin (or Sec-Fetch-Site) is not allowed. */
export function checkOrigin(ctx: Koa.Context, config: Pick<Config, 'allowedOrigins'>): void {
  const origin = ctx.get('origin');
  if (origin) {
    if (!isAllowedOrigin(config, origin)) throw originNotAllowed(ctx.state.locale, origin);
  } else if (ctx.get('sec-fetch-site') === 'cross-site') {
    throw originNotAllowed(ctx.state.locale, '');
  }
}

function hasBody(ctx: Koa.Context): boolean {
  const length = ctx.get('content-length');
  return (length !== '' && Number(length) > 0) || ctx.get('transfer-encoding') !== '';
}

/** Per-route guard, mounted after requireAuth so that ctx.state.caller is known. */
export function originGuard(config: Pick<Config, 'allowedOrigins'>, route: Pick<RouteDef, 'auth' | 'authCheck' | 'path' | 'origin'>): Koa.Middleware {
  const authRoute = route.path.startsWith('/auth/');
  return async function originGuardMiddleware(ctx, next) {
    if (route.origin === 'always') checkOrigin(ctx, config);
    if (route.origin === 'web' && ctx.get('origin') && !isWebOrigin(ctx.get('origin'))) throw notAWebOrigin(ctx.state.locale, ctx.get('origin'));
    if (!UNSAFE.has(ctx.method)) return next();
    // A route enforcing its credential itself (a page, a form with its own CSRF ticket) keeps its own rules.
    const cookieAuthenticated = route.auth !== 'none' && !route.authCheck && ctx.state.caller?.kind === 'session';
    if (cookieAuthenticated || authRoute) checkOrigin(ctx, config);
    // Only a POST can carry a body cross-site without a preflight (an HTML form); a PUT or DELETE never can, so a
    // cookie-authenticated PUT may carry its own type (the console uploads parts as application/octet-stream).
    if (cookieAuthenticated && ctx.method === 'POST' && (ctx.get('content-type') || hasBody(ctx)) && !isJson(ctx)) {
      throw sessionJsonRequired(ctx.state.locale);
    }
    return next();
  };
}
