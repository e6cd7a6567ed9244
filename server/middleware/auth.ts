// Resolves ctx.state.caller from a Bearer token when one is sent (a bad one is 401 at once), and guards
// routes that need a caller. The session cookie resolver joins here (identity).
import type Koa from 'koa';
import type { AppDeps } from '../deps.ts';
import { bearerToken, callerFromToken, unauthorized, type TokenCheck } from '../auth/token-caller.ts';
import type { AuthKind } from '../http/route.ts';

export function resolveBearer(deps: AppDeps, checks: readonly TokenCheck[] = []): Koa.Middleware {
  return async function resolveBearerMiddleware(ctx, next) {
    const header = ctx.get('authorization');
    if (header) {
      const token = bearerToken(header);
      if (!token) throw unauthorized(deps, 'the Authorization header is not a Bearer token');
      const resolved = await callerFromToken(deps, token, ctx.state.locale, checks);
      ctx.state.caller = resolved.caller;
      ctx.state.token = resolved;
    }
    await next();
  };
}

/** Guard for a route's declared auth kind. */
export function requireAuth(deps: AppDeps, kind: AuthKind): Koa.Middleware {
  return async function requireAuthMiddleware(ctx, next) {
    if (kind === 'none') return next();
    const caller = ctx.state.caller;
    if (!caller) throw unauthorized(deps, kind === 'session' ? 'this route needs a signed-in session' : 'a Bearer access token is required');
    if (kind === 'bearer' && caller.kind !== 'token') throw unauthorized(deps, 'this route needs a Bearer access token');
    if (kind === 'session' && caller.kind !== 'session') throw unauthorized(deps, 'this route needs a signed-in session');
    return next();
  };
}
