// The session cookie: its name and attributes, and its resolution into ctx.state.caller.
//
// Attributes: HttpOnly; SameSite=Lax; Path=/; Max-Age = the session lifetime (re-sent when it slides).
// Secure: always when the public base URL is https (the cookie is then named `__Host-session`), and also on plain
// http for loopback hosts (127.0.0.1, ::1, localhost): browsers treat those origins as potentially trustworthy and
// keep Secure cookies there (Chromium, Firefox; older Safari did not), so dev and tests run with the production
// attributes. Only plain http on a non-loopback host omits Secure, since the browser would drop the cookie.
import type Koa from 'koa';
import { resolveSession, sessionCaller } from '../../runtime-api/index.ts';
import type { AppDeps } from '../deps.ts';
import type { Config } from '../config.ts';

export interface CookieSettings {
  name: string;
  secure: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function cookieSettings(config: Pick<Config, 'publicBaseUrl'>): CookieSettings {
  const url = new URL(config.publicBaseUrl);
  const https = url.protocol === 'https:';
  return { name: https ? '__Host-session' : 'session', secure: https || LOOPBACK.has(url.hostname) };
}

function serialize(settings: CookieSettings, value: string, maxAgeSeconds: number): string {
  const parts = [`${settings.name}=${value}`, 'Path=/', `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax'];
  if (maxAgeSeconds === 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (settings.secure) parts.push('Secure');
  return parts.join('; ');
}

/** Replace any session cookie this response already sets (e.g. a slide) with `value`. */
function putCookie(ctx: Koa.Context, settings: CookieSettings, value: string): void {
  const existing = ctx.response.get('Set-Cookie') as unknown as string[] | string | undefined;
  const others = (Array.isArray(existing) ? existing : existing ? [existing] : []).filter((c) => !c.startsWith(`${settings.name}=`));
  ctx.set('Set-Cookie', [...others, value]);
}

/** Written by hand: Koa's cookie helper refuses `Secure` on a plain-http connection (the loopback case above). */
export function setSessionCookie(ctx: Koa.Context, config: Pick<Config, 'publicBaseUrl'>, token: string, maxAgeMs: number): void {
  const settings = cookieSettings(config);
  putCookie(ctx, settings, serialize(settings, token, Math.floor(maxAgeMs / 1000)));
}

export function clearSessionCookie(ctx: Koa.Context, config: Pick<Config, 'publicBaseUrl'>): void {
  const settings = cookieSettings(config);
  putCookie(ctx, settings, serialize(settings, '', 0));
}

/** The raw session cookie value, if the request carries one. */
export function readSessionCookie(ctx: Koa.Context, config: Pick<Config, 'publicBaseUrl'>): string | undefined {
  const { name } = cookieSettings(config);
  const header = ctx.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Resolve the session cookie (when no Bearer token was sent): a valid session sets ctx.state.caller (kind
 * `session`, acting on the active organization) and ctx.state.session; an expired or unknown one only records
 * ctx.state.sessionProblem, so public routes still work and guarded ones answer SESSION_EXPIRED or 401.
 */
export async function resolveSessionCookie(deps: AppDeps, ctx: Koa.Context): Promise<void> {
  const token = readSessionCookie(ctx, deps.config);
  if (token === undefined) return;
  const result = await resolveSession(deps.sql, deps.clock, deps.config.sessionTtlMs, token);
  if (result.status !== 'valid') {
    ctx.state.sessionProblem = result.status;
    return;
  }
  ctx.state.session = { id: result.row.id, token, row: result.row };
  ctx.state.caller = sessionCaller(result.row, ctx.state.locale);
  if (result.refreshed) setSessionCookie(ctx, deps.config, token, deps.config.sessionTtlMs);
}
