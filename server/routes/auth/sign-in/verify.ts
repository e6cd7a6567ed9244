// /auth/magic-link/verify, GET (the link itself, per spec) and POST (the landing page's button): consumes the token
// once, opens a fresh session and redirects to a same-site path only.
import type Koa from 'koa';
import * as v from 'valibot';
import { MAGIC_TOKEN_MAX_LENGTH, sameSitePath, verifyMagicLink } from '../../../../runtime-api/index.ts';
import type { AppDeps } from '../../../deps.ts';
import { defineRoute, type RouteDef } from '../../../http/route.ts';
import { isForm, isJson, readFormText, readJson } from '../../../http/body.ts';
import { validateIn } from '../../../i18n/validation.ts';
import { setSessionCookie } from '../../../auth/session.ts';
import { magicLinkInvalidPage, magicLinkLandingPage } from '../../../pages/magic-link.ts';
import { CONSOLE_HOME } from '../../../pages/console/layout.ts';
import { signInLinkUnusable, verifyBodyType } from './messages.ts';

const TokenSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(MAGIC_TOKEN_MAX_LENGTH));
const VerifyQuery = v.object({ token: TokenSchema });
const VerifyBody = v.object({ token: TokenSchema });

function wantsHtml(ctx: Koa.Context): boolean {
  return ctx.accepts('json', 'html') === 'html';
}

/** A browser fetching ahead of the user must not use the link up. */
function isPrefetch(ctx: Koa.Context): boolean {
  return /prefetch|prerender/i.test(`${ctx.get('sec-purpose')} ${ctx.get('purpose')} ${ctx.get('x-moz')}`);
}

/** The landing page's post: a form, or JSON from a script. */
async function readVerifyBody(ctx: Koa.Context): Promise<unknown> {
  if (isJson(ctx)) return readJson(ctx, 4096);
  if (isForm(ctx)) return Object.fromEntries(new URLSearchParams(await readFormText(ctx, 4096)));
  throw verifyBodyType(ctx.state.locale);
}

/** Use the token: a fresh session cookie and a redirect to the return path, or "invalid" as a page or an error. */
async function signIn(deps: AppDeps, ctx: Koa.Context, token: string, redirectStatus: 302 | 303): Promise<void> {
  const { config } = deps;
  const result = await verifyMagicLink({ sql: deps.sql, clock: deps.clock, sessionTtlMs: config.sessionTtlMs }, token);
  if (!result) {
    if (wantsHtml(ctx)) return magicLinkInvalidPage(ctx);
    throw signInLinkUnusable(ctx.state.locale);
  }
  setSessionCookie(ctx, config, result.token, config.sessionTtlMs);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.redirect(sameSitePath(result.returnTo, config.publicBaseUrl) ?? CONSOLE_HOME);
  ctx.status = redirectStatus;
}

export function verifyRoute(deps: AppDeps): RouteDef {
  return defineRoute({
    method: 'GET',
    path: '/auth/magic-link/verify',
    operationId: 'verifyMagicLink',
    summary: 'Use a sign-in link: sets the session cookie and redirects',
    description:
      'Consumes the token once (concurrent uses: exactly one wins), creates the user on first sign-in, sets a fresh HTTP-only, SameSite=Lax session cookie and redirects (302) to the same-site path given when the link was requested. HEAD and prefetches (`Sec-Purpose: prefetch`) consume nothing. An unusable link is 401 `unauthorized` (an HTML page when the client prefers text/html).',
    tags: ['session'],
    auth: 'none',
    query: VerifyQuery,
    responses: {
      302: { description: 'Signed in; redirect to the return path.', headers: { 'Set-Cookie': 'The session cookie.', Location: 'A same-site path.' } },
    },
    errors: ['invalid_input', 'unauthorized'],
    async handle(ctx) {
      if (ctx.method === 'HEAD' || isPrefetch(ctx)) {
        ctx.set('Cache-Control', 'no-store');
        return magicLinkLandingPage(ctx, typeof ctx.query.token === 'string' ? ctx.query.token : '');
      }
      const { token } = validateIn(ctx.state.locale, VerifyQuery, ctx.query);
      await signIn(deps, ctx, token, 302);
    },
  });
}

export function verifyPostRoute(deps: AppDeps): RouteDef {
  return defineRoute({
    method: 'POST',
    path: '/auth/magic-link/verify',
    operationId: 'verifyMagicLinkPost',
    summary: 'Use a sign-in link from the landing page (form or JSON `{token}`)',
    description:
      'Same as the GET form; answers 303 so the browser follows with a GET. An unusable link is 401 `unauthorized` (an HTML page when the client prefers text/html).',
    tags: ['session'],
    auth: 'none',
    body: { contentType: 'application/x-www-form-urlencoded', schema: VerifyBody },
    responses: {
      303: { description: 'Signed in; redirect to the return path.', headers: { 'Set-Cookie': 'The session cookie.', Location: 'A same-site path.' } },
    },
    errors: ['invalid_input', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'ORIGIN_NOT_ALLOWED'],
    async handle(ctx) {
      const { token } = validateIn(ctx.state.locale, VerifyBody, await readVerifyBody(ctx));
      await signIn(deps, ctx, token, 303);
    },
  });
}
