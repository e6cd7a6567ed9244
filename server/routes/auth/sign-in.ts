// Passwordless sign-in over HTTP: request a link (same answer for every well-formed address, limited per address
// and per IP), the landing page the mail opens (consumes nothing), and verify (GET per spec, or the landing page's
// POST), which consumes the token once, opens a fresh session and redirects to a same-site path only.
import type Koa from 'koa';
import * as v from 'valibot';
import { ServiceError, type Locale, tr, MAGIC_TOKEN_MAX_LENGTH, normalizeEmail, requestMagicLink, sameSitePath, verifyMagicLink, EmailSchema } from '../../../runtime-api/index.ts';
import type { AppDeps } from '../../deps.ts';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import { isForm, isJson, readFormText, readJson } from '../../http/body.ts';
import { validateIn } from '../../i18n/validation.ts';
import { memoryRateLimitStore, postgresRateLimitStore, type RateLimitStore } from '../../middleware/rate-limit.ts';
import { setSessionCookie } from '../../auth/session.ts';
import { magicLinkInvalidPage, magicLinkLandingPage } from '../../pages/magic-link.ts';
import { signInPage } from '../../pages/sign-in.ts';
import { CONSOLE_HOME } from '../../pages/console/layout.ts';

/** Sending limits (besides the global 120/min): per normalized address and per client IP, in a 15-minute window. */
export const MAGIC_LINK_LIMITS = { perEmail: 5, perIp: 50, windowMs: 15 * 60_000 };

const SignInBody = v.object({
  email: EmailSchema,
  /** A same-site path (or an absolute URL on the public origin) to land on after signing in. */
  callbackURL: v.optional(v.pipe(v.string(), v.maxLength(2048))),
});
const TokenSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(MAGIC_TOKEN_MAX_LENGTH));
const VerifyQuery = v.object({ token: TokenSchema });
const VerifyBody = v.object({ token: TokenSchema });
const LandingQuery = v.object({ token: v.optional(v.string()), lang: v.optional(v.string()) });
const SignInPageQuery = v.object({ returnTo: v.optional(v.string()), lang: v.optional(v.string()) });

function invalidToken(locale: Locale): ServiceError {
  return new ServiceError('unauthorized', {
    resolution: tr(locale, 'The sign-in link is invalid, expired or already used; request a new one (POST /auth/sign-in/magic-link).',
      'O link de acesso é inválido, expirou ou já foi usado; peça um novo (POST /auth/sign-in/magic-link).'),
  });
}

function tooMany(locale: Locale, resetAt: number, now: number): ServiceError {
  const seconds = Math.max(1, Math.ceil((resetAt - now) / 1000));
  return new ServiceError('rate_limited', {
    resolution: tr(locale, `Too many sign-in links requested; wait ${seconds} s and try again.`,
      `Foram pedidos links de acesso demais; espere ${seconds} s e tente de novo.`),
    headers: { 'Retry-After': String(seconds) },
  });
}

function wantsHtml(ctx: Koa.Context): boolean {
  return ctx.accepts('json', 'html') === 'html';
}

function isPrefetch(ctx: Koa.Context): boolean {
  return /prefetch|prerender/i.test(`${ctx.get('sec-purpose')} ${ctx.get('purpose')} ${ctx.get('x-moz')}`);
}

export function signInRoutes(deps: AppDeps): RouteDef[] {
  const { config, sql, clock, mailer } = deps;
  const limiter: RateLimitStore = config.rateLimit.store === 'postgres' ? postgresRateLimitStore(sql, clock) : memoryRateLimitStore(clock);

  async function verify(ctx: Koa.Context, token: string, redirectStatus: 302 | 303): Promise<void> {
    const result = await verifyMagicLink({ sql, clock, sessionTtlMs: config.sessionTtlMs }, token);
    if (!result) {
      if (wantsHtml(ctx)) return magicLinkInvalidPage(ctx);
      throw invalidToken(ctx.state.locale);
    }
    setSessionCookie(ctx, config, result.token, config.sessionTtlMs);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.redirect(sameSitePath(result.returnTo, config.publicBaseUrl) ?? CONSOLE_HOME);
    ctx.status = redirectStatus;
  }

  return [
    defineRoute({
      method: 'POST',
      path: '/auth/sign-in/magic-link',
      operationId: 'signInMagicLink',
      summary: 'Send a one-time sign-in link to an e-mail address',
      description: 'Always 200 `{status: true}` for a well-formed address (no account enumeration); the user is created when the link is used. The mail is in the `x-service-locale` language. The link is valid 10 minutes, once. At most 5 links per address and 50 per client IP in 15 minutes.',
      tags: ['session'],
      auth: 'none',
      body: { contentType: 'application/json', schema: SignInBody },
      responses: { 200: { description: 'The link was sent (or would have been: the answer never reveals whether the address has an account).', schema: v.object({ status: v.boolean() }) } },
      errors: ['invalid_input', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'ORIGIN_NOT_ALLOWED', 'rate_limited'],
      async handle(ctx) {
        const locale: Locale = ctx.state.locale;
        const now = clock.now().getTime();
        const ip = await limiter.hit(`magic-ip:${ctx.ip}`, MAGIC_LINK_LIMITS.windowMs);
        if (ip.count > MAGIC_LINK_LIMITS.perIp) throw tooMany(locale, ip.resetAt, now);
        const body = validateIn(locale, SignInBody, await readJson(ctx, 8192));
        const email = normalizeEmail(body.email);
        const returnTo = body.callbackURL === undefined ? CONSOLE_HOME : sameSitePath(body.callbackURL, config.publicBaseUrl);
        if (returnTo === null) {
          throw new ServiceError('invalid_input', {
            resolution: tr(locale, '`callbackURL`: must be a path on this site (e.g. /app), never another site.',
              '`callbackURL`: precisa ser um caminho deste site (ex.: /app), nunca outro site.'),
          });
        }
        const perEmail = await limiter.hit(`magic-email:${email}`, MAGIC_LINK_LIMITS.windowMs);
        if (perEmail.count > MAGIC_LINK_LIMITS.perEmail) throw tooMany(locale, perEmail.resetAt, now);
        await requestMagicLink({ sql, clock, mailer, publicBaseUrl: config.publicBaseUrl }, { email, locale, returnTo });
        ctx.body = { status: true };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/auth/magic-link',
      operationId: 'magicLinkLanding',
      summary: 'Landing page of the mailed sign-in link (consumes nothing)',
      description: 'Opening the link, or a mail scanner fetching it, does not use the token; the page\'s button posts it to /auth/magic-link/verify. Localized by `lang`.',
      tags: ['session'],
      auth: 'none',
      query: LandingQuery,
      responses: { 200: { description: 'The landing page.', contentType: 'text/html' }, 400: { description: 'The link is incomplete.', contentType: 'text/html' } },
      errors: [],
      async handle(ctx) {
        const query = v.safeParse(LandingQuery, ctx.query);
        const token = query.success ? (query.output.token ?? '') : '';
        magicLinkLandingPage(ctx, token.length <= MAGIC_TOKEN_MAX_LENGTH ? token : '');
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/auth/magic-link/verify',
      operationId: 'verifyMagicLink',
      summary: 'Use a sign-in link: sets the session cookie and redirects',
      description: 'Consumes the token once (concurrent uses: exactly one wins), creates the user on first sign-in, sets a fresh HTTP-only, SameSite=Lax session cookie and redirects (302) to the same-site path given when the link was requested. HEAD and prefetches (`Sec-Purpose: prefetch`) consume nothing. An unusable link is 401 `unauthorized` (an HTML page when the client prefers text/html).',
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
        await verify(ctx, token, 302);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/auth/magic-link/verify',
      operationId: 'verifyMagicLinkPost',
      summary: 'Use a sign-in link from the landing page (form or JSON `{token}`)',
      description: 'Same as the GET form; answers 303 so the browser follows with a GET. An unusable link is 401 `unauthorized` (an HTML page when the client prefers text/html).',
      tags: ['session'],
      auth: 'none',
      body: { contentType: 'application/x-www-form-urlencoded', schema: VerifyBody },
      responses: {
        303: { description: 'Signed in; redirect to the return path.', headers: { 'Set-Cookie': 'The session cookie.', Location: 'A same-site path.' } },
      },
      errors: ['invalid_input', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'ORIGIN_NOT_ALLOWED'],
      async handle(ctx) {
        let raw: unknown;
        if (isJson(ctx)) raw = await readJson(ctx, 4096);
        else if (isForm(ctx)) raw = Object.fromEntries(new URLSearchParams(await readFormText(ctx, 4096)));
        else {
          throw new ServiceError('unsupported_media_type', {
            resolution: tr(ctx.state.locale, 'Send the token as application/x-www-form-urlencoded or application/json.',
              'Envie o token como application/x-www-form-urlencoded ou application/json.'),
          });
        }
        const { token } = validateIn(ctx.state.locale, VerifyBody, raw);
        await verify(ctx, token, 303);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/auth/sign-in',
      operationId: 'signInPage',
      summary: 'Sign-in page (asks for a magic link)',
      description: '`returnTo` is a same-site path to come back to after signing in (anything else is ignored). Localized by `lang`.',
      tags: ['session'],
      auth: 'none',
      query: SignInPageQuery,
      responses: { 200: { description: 'The sign-in page.', contentType: 'text/html' } },
      errors: [],
      async handle(ctx) {
        const query = v.safeParse(SignInPageQuery, ctx.query);
        const returnTo = query.success && query.output.returnTo ? sameSitePath(query.output.returnTo, config.publicBaseUrl) : null;
        signInPage(ctx, returnTo ?? CONSOLE_HOME);
      },
    }),
  ];
}
