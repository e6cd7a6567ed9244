// POST /auth/sign-in/magic-link: mail a one-time sign-in link. The same answer for every well-formed address (no
// account enumeration), limited per address and per client IP.
import * as v from 'valibot';
import { type ServiceError, type Locale, normalizeEmail, requestMagicLink, sameSitePath, EmailSchema } from '../../../../runtime-api/index.ts';
import type { AppDeps } from '../../../deps.ts';
import { defineRoute, type RouteDef } from '../../../http/route.ts';
import { readJson } from '../../../http/body.ts';
import { validateIn } from '../../../i18n/validation.ts';
import { memoryRateLimitStore, postgresRateLimitStore, type RateLimitStore } from '../../../middleware/rate-limit.ts';
import { CONSOLE_HOME } from '../../../pages/console/layout.ts';
import { callbackNotThisSite, tooManySignInLinks } from './messages.ts';

/** Sending limits (besides the global 120/min): per normalized address and per client IP, in a 15-minute window. */
export const MAGIC_LINK_LIMITS = { perEmail: 5, perIp: 50, windowMs: 15 * 60_000 };

const SignInBody = v.object({
  email: EmailSchema,
  /** A same-site path (or an absolute URL on the public origin) to land on after signing in. */
  callbackURL: v.optional(v.pipe(v.string(), v.maxLength(2048))),
});

function tooMany(locale: Locale, resetAt: number, now: number): ServiceError {
  const seconds = Math.max(1, Math.ceil((resetAt - now) / 1000));
  return tooManySignInLinks(locale, seconds);
}

/** Where the link lands: the console unless the request names a path on this site; another site is refused. */
function returnPath(deps: AppDeps, locale: Locale, callbackURL: string | undefined): string {
  const returnTo = callbackURL === undefined ? CONSOLE_HOME : sameSitePath(callbackURL, deps.config.publicBaseUrl);
  if (returnTo === null) throw callbackNotThisSite(locale);
  return returnTo;
}

export function magicLinkRoute(deps: AppDeps): RouteDef {
  const { config, sql, clock, mailer } = deps;
  const limiter: RateLimitStore = config.rateLimit.store === 'postgres' ? postgresRateLimitStore(sql, clock) : memoryRateLimitStore(clock);

  async function limit(key: string, max: number, locale: Locale, now: number): Promise<void> {
    const hit = await limiter.hit(key, MAGIC_LINK_LIMITS.windowMs);
    if (hit.count > max) throw tooMany(locale, hit.resetAt, now);
  }

  return defineRoute({
    method: 'POST',
    path: '/auth/sign-in/magic-link',
    operationId: 'signInMagicLink',
    summary: 'Send a one-time sign-in link to an e-mail address',
    description:
      'Always 200 `{status: true}` for a well-formed address (no account enumeration); the user is created when the link is used. The mail is in the `x-service-locale` language. The link is valid 10 minutes, once. At most 5 links per address and 50 per client IP in 15 minutes.',
    tags: ['session'],
    auth: 'none',
    body: { contentType: 'application/json', schema: SignInBody },
    responses: {
      200: {
        description: 'The link was sent (or would have been: the answer never reveals whether the address has an account).',
        schema: v.object({ status: v.boolean() }),
      },
    },
    errors: ['invalid_input', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'ORIGIN_NOT_ALLOWED', 'rate_limited'],
    async handle(ctx) {
      const locale: Locale = ctx.state.locale;
      const now = clock.now().getTime();
      await limit(`magic-ip:${ctx.ip}`, MAGIC_LINK_LIMITS.perIp, locale, now);
      const body = validateIn(locale, SignInBody, await readJson(ctx, 8192));
      const email = normalizeEmail(body.email);
      const returnTo = returnPath(deps, locale, body.callbackURL);
      await limit(`magic-email:${email}`, MAGIC_LINK_LIMITS.perEmail, locale, now);
      await requestMagicLink({ sql, clock, mailer, publicBaseUrl: config.publicBaseUrl }, { email, locale, returnTo });
      ctx.body = { status: true };
    },
  });
}
