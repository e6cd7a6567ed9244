// The console's frame: header with navigation and the signed-in user, a notice or error, the page's sections.
// Strict CSP (no inline script or style at all), never cached, never framed.
import type Koa from 'koa';
import { ROLE_NAMES, type Locale, type Role } from '../../../runtime-api/index.ts';
import { escapeHtml, texts } from '../layout.ts';
import { FRAME } from './texts.ts';
import { assetUrl } from './assets.ts';

export { escapeHtml, texts };

export type ConsolePageName = 'home' | 'members' | 'files' | 'agents';

export const CONSOLE_PATHS: Record<ConsolePageName, string> = {
  home: '/console',
  members: '/console/members',
  files: '/console/files',
  agents: '/console/agents',
};

/** Where the magic link lands by default. */
export const CONSOLE_HOME = CONSOLE_PATHS.home;

const NAV: readonly ConsolePageName[] = ['home', 'members', 'files', 'agents'];

export function roleLabel(locale: Locale, role: Role): string {
  return ROLE_NAMES[role][locale];
}

/** A UTC instant as `YYYY-MM-DD HH:MM UTC` in a <time> element; `none` when there is none. */
export function timeTag(iso: string | null, none = ''): string {
  return iso ? `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.slice(0, 16).replace('T', ' '))} UTC</time>` : none;
}

/** A form that posts to a console action, with the session's CSRF token. */
export function actionForm(action: string, csrf: string, inner: string, opts: { inline?: boolean; confirm?: string; locale: Locale }): string {
  return `<form method="post" action="/console/actions/${action}?lang=${opts.locale}"${opts.inline ? ' class="inline"' : ''}${opts.confirm ? ` data-confirm="${escapeHtml(opts.confirm)}"` : ''}>
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">${inner}</form>`;
}

export function roleOptions(locale: Locale, selected: Role, canGrantOwner: boolean): string {
  return (['member', 'admin', 'owner'] as const)
    .map(
      (r) =>
        `<option value="${r}"${r === selected ? ' selected' : ''}${r === 'owner' && !canGrantOwner ? ' disabled' : ''}>${escapeHtml(roleLabel(locale, r))}</option>`,
    )
    .join('');
}

export interface ConsoleFrame {
  locale: Locale;
  page: ConsolePageName;
  title: string;
  email: string;
  csrf: string;
  organizationName: string | null;
  notice?: string;
  error?: string;
  status?: number;
}

/**
 * The headers of every page served with the console's stylesheet: a CSP without any inline script or style, never
 * cached, never framed.
 */
export function strictPageHeaders(ctx: Koa.Context, status: number): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  // same-origin keeps the real Origin on our form posts (no-referrer would make it `null`, which the check refuses).
  ctx.set('Referrer-Policy', 'same-origin');
}

export function renderConsole(ctx: Koa.Context, frame: ConsoleFrame, body: string): void {
  const { locale } = frame;
  const t = texts(locale);
  strictPageHeaders(ctx, frame.status ?? 200);
  const nav = NAV.map(
    (name) => `<a href="${CONSOLE_PATHS[name]}?lang=${locale}"${name === frame.page ? ' aria-current="page"' : ''}>${t(FRAME.nav[name])}</a>`,
  ).join('');
  const other: Locale = locale === 'en-US' ? 'pt-BR' : 'en-US';
  ctx.body = `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(frame.title)} · Siglata</title>
<link rel="stylesheet" href="${assetUrl('console.css')}"><script src="${assetUrl('console.js')}" defer></script>
</head><body>
<a class="skip" href="#content">${t(FRAME.skip)}</a>
<header><strong>Siglata</strong><nav aria-label="${t(FRAME.console)}">${nav}</nav>
<div class="who"><span>${escapeHtml(frame.email)}${frame.organizationName ? ` · ${escapeHtml(frame.organizationName)}` : ''}</span>
<a href="${CONSOLE_PATHS[frame.page]}?lang=${other}" lang="${other}" hreflang="${other}">${other === 'pt-BR' ? 'Português' : 'English'}</a>
${actionForm('sign-out', frame.csrf, `<button type="submit" class="secondary">${t(FRAME.signOut)}</button>`, { inline: true, locale })}</div></header>
<main id="content"><h1>${escapeHtml(frame.title)}</h1>
${frame.notice ? `<p class="notice" role="status">${escapeHtml(frame.notice)}</p>` : ''}
${frame.error ? `<p class="error" role="alert">${escapeHtml(frame.error)}</p>` : ''}
${body}
</main></body></html>`;
}
