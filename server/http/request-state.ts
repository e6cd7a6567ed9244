// What a request carries once the middleware has run, typed for every route: Koa's own state type is `any`.
import type Koa from 'koa';
import type { Caller, Locale, ResolvedSessionRow, TokenCaller } from '../../runtime-api/index.ts';

export type SessionProblem = 'expired' | 'unknown';

declare module 'koa' {
  interface DefaultState {
    /** Set by request-context from Accept-Language (or the console's cookie) before anything else runs. */
    locale: Locale;
    requestId: string;
    /** Who is calling, when a credential was sent and accepted (auth middleware). */
    caller?: Caller;
    /** The bearer credential behind `caller`, when it came from one. */
    token?: TokenCaller;
    /** The session behind `caller`, when it came from the session cookie. */
    session?: { id: string; token: string; row: ResolvedSessionRow };
    /** Why a session cookie sent was not accepted, for guarded routes to say so. */
    sessionProblem?: SessionProblem;
  }
}

/** The caller of a route whose declared auth guarantees one (requireAuth ran before it). */
export function callerOf(ctx: Koa.Context): Caller {
  const caller = ctx.state.caller;
  if (!caller) throw new Error('callerOf: no caller on a route that declares one');
  return caller;
}

/** The session of a route whose declared auth is `session` (requireAuth ran before it). */
export function sessionOf(ctx: Koa.Context): NonNullable<Koa.DefaultState['session']> {
  const session = ctx.state.session;
  if (!session) throw new Error('sessionOf: no session on a route that declares one');
  return session;
}
