// Sign a user in through the real flow — POST /auth/sign-in/magic-link, the mail over SMTP, the landing page,
// the landing page's POST to /auth/magic-link/verify — and return a cookie jar for further requests.
import type { TestApp } from './app.ts';
import type { SmtpCatcher, CaughtMail } from './smtp-catcher.ts';
import { http, type JsonResponse } from './http.ts';

export interface SessionJar {
  email: string;
  /** The session cookie's raw value. */
  token: string;
  /** `name=value`, ready for a Cookie header. */
  cookie: string;
  /** The verify response (its Set-Cookie and Location). */
  verify: JsonResponse;
  /** Headers of a browser on the app's own origin: the cookie, Origin, and the locale when given. */
  headers(extra?: Record<string, string>): Record<string, string>;
  get<T = any>(path: string, extra?: Record<string, string>): Promise<JsonResponse<T>>;
  post<T = any>(path: string, json?: unknown, extra?: Record<string, string>): Promise<JsonResponse<T>>;
}

export function setCookies(res: JsonResponse): string[] {
  const raw = res.headers['set-cookie'];
  return Array.isArray(raw) ? raw : raw ? [raw] : [];
}

/** The first `name=value` of the session cookie set by `res`, or null. */
export function sessionCookieOf(res: JsonResponse): { name: string; value: string; attributes: string } | null {
  for (const c of setCookies(res)) {
    const m = /^((?:__Host-)?session)=([^;]*)(.*)$/.exec(c);
    if (m) return { name: m[1], value: m[2], attributes: m[3] };
  }
  return null;
}

export function tokenOf(mail: CaughtMail): string {
  const link = mail.links.find((l) => l.includes('/auth/magic-link'));
  if (!link) throw new Error(`no magic link in mail: ${mail.text}`);
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

/** Ask for a link and return the mail (and its token). */
export async function requestLink(app: TestApp, smtp: SmtpCatcher, email: string, options: { locale?: string; callbackURL?: string } = {}) {
  const known = smtp.to(email.trim()).length;
  const res = await http(`${app.url}/auth/sign-in/magic-link`, {
    json: { email, ...(options.callbackURL !== undefined ? { callbackURL: options.callbackURL } : {}) },
    headers: { origin: app.url, ...(options.locale ? { 'x-service-locale': options.locale } : {}) },
  });
  if (res.status !== 200) throw new Error(`sign-in request answered ${res.status}: ${res.text}`);
  const mail = await smtp.next(email.trim(), known);
  return { res, mail, token: tokenOf(mail), link: mail.links.find((l) => l.includes('/auth/magic-link'))! };
}

export function jar(app: TestApp, email: string, token: string, verify: JsonResponse, name = 'session'): SessionJar {
  const cookie = `${name}=${token}`;
  const headers = (extra: Record<string, string> = {}) => ({ cookie, origin: app.url, ...extra });
  return {
    email,
    token,
    cookie,
    verify,
    headers,
    get: (path, extra) => http(`${app.url}${path}`, { headers: headers(extra) }),
    post: (path, json, extra) => http(`${app.url}${path}`, { method: 'POST', ...(json !== undefined ? { json } : {}), headers: headers(extra) }),
  };
}

/** The whole flow, as a browser does it. */
export async function signIn(app: TestApp, smtp: SmtpCatcher, email: string, options: { locale?: string; callbackURL?: string } = {}): Promise<SessionJar> {
  const { link, token } = await requestLink(app, smtp, email, options);
  const landing = await http(link);
  if (landing.status !== 200) throw new Error(`landing page answered ${landing.status}`);
  const verify = await http(`${app.url}/auth/magic-link/verify`, {
    method: 'POST',
    body: `token=${encodeURIComponent(token)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url, accept: 'text/html' },
  });
  const cookie = sessionCookieOf(verify);
  if (verify.status !== 303 || !cookie) throw new Error(`verify answered ${verify.status} without a session cookie: ${verify.text.slice(0, 200)}`);
  return jar(app, email, cookie.value, verify, cookie.name);
}
