// Resolves ctx.state.caller from a Bearer token when one is sent (a bad one is 401 at once), and guards
// routes that need a caller. The session cookie resolver joins here (identity). Every response to a
// request that resolved a caller says Cache-Control: no-store.
import type Koa from 'koa';
import type { AppDeps } from '../deps.ts';
import { bearerToken, callerFromToken, unauthorized, type TokenCheck } from '../auth/token-caller.ts';
import type { AuthKind } from '../http/route.ts';
import { resolveSessionCookie } from '../auth/session.ts';
import { sessionExpired, sessionUnauthorized } from '../../runtime-api/index.ts';

/**
 * `ignoresCredentials` names the public paths where a credential sent is ignored, never rejected (/ask): given by the
 * app, which knows its routes, so that this middleware depends on none of them.
 */
export function resolveBearer(deps: AppDeps, checks: readonly TokenCheck[] = [], ignoresCredentials: (path: string) => boolean = () => false): Koa.Middleware {
  return async function resolveBearerMiddleware(ctx, next) {
    if (ignoresCredentials(ctx.path)) return next();
    const header = ctx.get('authorization');
    if (header) {
      const token = bearerToken(header);
      if (!token) throw unauthorized(deps, 'the Authorization header is not a Bearer token', ctx.path);
      const resolved = await callerFromToken(deps, token, ctx.state.locale, checks, ctx.path);
      ctx.state.caller = resolved.caller;
      ctx.state.token = resolved;
    } else {
      await resolveSessionCookie(deps, ctx);
    }
    // Whatever an authenticated request answers is about its caller (a user, members' e-mails, files): never
    // stored by a shared or browser cache. A route may still set its own, stricter, header.
    if (ctx.state.caller) ctx.set('Cache-Control', 'no-store');
    await next();
  };
}

/** Guard for a route's declared auth kind. */
export function requireAuth(deps: AppDeps, kind: AuthKind): Koa.Middleware {
  return async function requireAuthMiddleware(ctx, next) {
    if (kind === 'none') return next();
    const caller = ctx.state.caller;
    if (!caller && kind !== 'bearer' && ctx.state.sessionProblem) {
      throw ctx.state.sessionProblem === 'expired' ? sessionExpired(ctx.state.locale) : sessionUnauthorized(ctx.state.locale, 'unknown');
    }
    if (!caller && kind === 'session') throw sessionUnauthorized(ctx.state.locale);
    if (!caller) throw unauthorized(deps, kind === 'session' ? 'this route needs a signed-in session' : 'a Bearer access token is required', ctx.path, false);
    if (kind === 'bearer' && caller.kind !== 'token') throw unauthorized(deps, 'this route needs a Bearer access token');
    // A token cannot stand in for the browser session these routes act on: say how to get a session, not a token.
    if (kind === 'session' && caller.kind !== 'session') throw sessionUnauthorized(ctx.state.locale);
    return next();
  };
}
