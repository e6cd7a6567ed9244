// Who may use the console: a signed-in browser session, never a Bearer token. Every console form carries a
// per-session CSRF token (derived from the session cookie's secret, so it needs no storage and dies with the
// session) and must come from our own Origin.
import type Koa from 'koa';
import { createHash, timingSafeEqual } from 'node:crypto';
import { type Caller, sessionExpired, sessionUnauthorized } from '../../runtime-api/index.ts';
import type { Config } from '../config.ts';
import { originNotAllowed } from '../http/messages.ts';
import { isAllowedOrigin } from '../middleware/origin.ts';
import type { AppDeps } from '../deps.ts';
import { bearerRefused, csrfMismatch } from './messages.ts';

export interface ConsoleSession {
  caller: Caller;
  /** The session cookie's value (secret): only its one-way derivative ever reaches a page. */
  token: string;
  csrf: string;
}

export function csrfToken(sessionToken: string): string {
  return createHash('sha256').update(`siglata-console-csrf\0${sessionToken}`).digest('base64url');
}

/** The console's session, or null when the browser is not signed in; a Bearer token is refused outright. */
export function consoleSession(ctx: Koa.Context): ConsoleSession | null {
  if (ctx.state.token) throw bearerRefused(ctx.state.locale);
  const caller: Caller | undefined = ctx.state.caller;
  if (!caller || caller.kind !== 'session' || !ctx.state.session) return null;
  return { caller, token: ctx.state.session.token, csrf: csrfToken(ctx.state.session.token) };
}

/** A console form post: a session (else 401 / SESSION_EXPIRED), our Origin, and the session's CSRF token. */
export function requireConsolePost(deps: AppDeps, ctx: Koa.Context, given: unknown): ConsoleSession {
  const session = consoleSession(ctx);
  if (!session) throw ctx.state.sessionProblem === 'expired' ? sessionExpired(ctx.state.locale) : sessionUnauthorized(ctx.state.locale);
  checkConsoleRequest(deps, ctx, session, given);
  return session;
}

/** Our Origin and the session's CSRF token (a form field, or the upload script's X-CSRF-Token header). */
export function checkConsoleRequest(deps: AppDeps, ctx: Koa.Context, session: ConsoleSession, given: unknown): void {
  checkFormOrigin(ctx, deps.config);
  const expected = Buffer.from(session.csrf);
  const actual = Buffer.from(typeof given === 'string' ? given : '');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) throw csrfMismatch(ctx.state.locale);
}

/** Browsers always send Origin on form posts; its absence means a non-browser client or a stripped header: refuse. */
function checkFormOrigin(ctx: Koa.Context, config: Pick<Config, 'allowedOrigins'>): void {
  const origin = ctx.get('origin');
  if (!isAllowedOrigin(config, origin)) throw originNotAllowed(ctx.state.locale, origin);
}
