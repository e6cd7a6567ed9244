// Passwordless sign-in: a 256-bit single-use token per request, stored only as its SHA-256, valid 10 minutes,
// mailed in the requested locale. Nothing is looked up at request time (no account enumeration); the user is
// created when the link is used. Consumption is one conditional UPDATE: concurrent verifies have one winner.
import type { Sql } from 'postgres';
import type { Clock } from '../clock.ts';
import type { Mailer } from '../define.ts';
import type { Locale } from '../errors.ts';
import { hashSecret, newSecret } from '../ids.ts';
import { consumeMagicLink, insertMagicLink, purgeMagicLinks } from '../store/magic-links.ts';
import { ensureUser, type UserRow } from '../store/users.ts';
import { createSession } from './sessions.ts';
import type { SessionRow } from '../store/sessions.ts';
import { mailHtml } from '../mail-html.ts';
import { MAGIC_LINK_MAIL } from './messages.ts';

export const MAGIC_LINK_TTL_MS = 10 * 60_000;
/** Longest token accepted for lookup (ours are 43 characters). */
export const MAGIC_TOKEN_MAX_LENGTH = 256;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A same-site return path, or null. Accepts `/path?query` (not `//host` or `/\host`) and absolute URLs on the
 * public origin (turned into their path). Control characters are refused.
 */
export function sameSitePath(value: string, publicBaseUrl: string): string | null {
  if (!value || value.length > 2048 || /[\u0000-\u001f\u007f\\]/.test(value)) return null;
  const base = new URL(publicBaseUrl);
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('/') && !path.startsWith('//') ? path : null;
}

export function magicLinkMail(locale: Locale, link: string) {
  const subject = MAGIC_LINK_MAIL.subject[locale],
    lead = MAGIC_LINK_MAIL.lead[locale];
  const button = MAGIC_LINK_MAIL.button[locale],
    note = MAGIC_LINK_MAIL.note[locale];
  return { subject, text: `${lead}\n\n${link}\n\n${note}\n`, html: mailHtml(locale, { lead, button, link, note }) };
}

export interface SignInDeps {
  sql: Sql;
  clock: Clock;
  mailer: Mailer;
  publicBaseUrl: string;
}

/** Store a new link for `email` and mail it. The link opens the landing page, which consumes nothing. */
export async function requestMagicLink(deps: SignInDeps, req: { email: string; locale: Locale; returnTo: string }): Promise<void> {
  const token = newSecret();
  const now = deps.clock.now();
  const email = normalizeEmail(req.email);
  await insertMagicLink(deps.sql, {
    tokenHash: hashSecret(token),
    email,
    locale: req.locale,
    returnTo: req.returnTo,
    now,
    expiresAt: new Date(now.getTime() + MAGIC_LINK_TTL_MS),
  });
  await purgeMagicLinks(deps.sql, new Date(now.getTime() - 86400_000));
  const link = `${deps.publicBaseUrl}/auth/magic-link?token=${encodeURIComponent(token)}&lang=${req.locale}`;
  await deps.mailer.send({ to: email, ...magicLinkMail(req.locale, link) });
}

export interface VerifiedSignIn {
  user: UserRow;
  token: string;
  session: SessionRow;
  returnTo: string;
  locale: Locale;
}

/** Consume the token and open a session (creating the user on first sign-in); null when the token is not usable. */
export async function verifyMagicLink(deps: { sql: Sql; clock: Clock; sessionTtlMs: number }, token: string): Promise<VerifiedSignIn | null> {
  if (!token || token.length > MAGIC_TOKEN_MAX_LENGTH) return null;
  const link = await consumeMagicLink(deps.sql, hashSecret(token), deps.clock.now());
  if (!link) return null;
  const user = await ensureUser(deps.sql, link.email);
  const { token: sessionToken, session } = await createSession(deps.sql, deps.clock, deps.sessionTtlMs, user.id);
  return { user, token: sessionToken, session, returnTo: link.returnTo, locale: link.locale };
}
