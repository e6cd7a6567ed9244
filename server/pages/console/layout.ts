// The console's frame: header with navigation and the signed-in user, a notice or error, the page's sections.
// Strict CSP (no inline script or style at all), never cached, never framed.
import type Koa from 'koa';
import { ROLE_NAMES, type Locale, type Role } from '../../../runtime-api/index.ts';
import { escapeHtml, texts } from '../layout.ts';
import { FRAME } from './texts.ts';
import { assetUrl } from './assets.ts';

export { escapeHtml, texts };

export type ConsolePageName = 'home' | 'files' | 'file' | 'trash' | 'activity' | 'members' | 'agents';

export const CONSOLE_PATHS: Record<ConsolePageName, string> = {
  home: '/console',
  files: '/console/files',
  file: '/console/files/details',
  trash: '/console/files/trash',
  activity: '/console/activity',
  members: '/console/members',
  agents: '/console/agents',
};

/** Where the magic link lands by default. */
export const CONSOLE_HOME = CONSOLE_PATHS.home;

type NavItem = 'home' | 'files' | 'activity' | 'members' | 'agents';
const NAV: readonly NavItem[] = ['home', 'files', 'activity', 'members', 'agents'];
/** The navigation entry a page belongs under. */
const SECTION: Record<ConsolePageName, NavItem> = {
  home: 'home',
  files: 'files',
  file: 'files',
  trash: 'files',
  activity: 'activity',
  members: 'members',
  agents: 'agents',
};

/** A console URL: the page's path with `query` (empty values left out) and the language. */
export function pageUrl(page: ConsolePageName, locale: Locale, query: Record<string, string | undefined> = {}): string {
  const q = new URLSearchParams({ lang: locale });
  for (const [k, val] of Object.entries(query)) if (val !== undefined && val !== '' && k !== 'lang') q.set(k, val);
  return `${CONSOLE_PATHS[page]}?${q}`;
}

export function roleLabel(locale: Locale, role: Role): string {
  return ROLE_NAMES[role][locale];
}

/** A UTC instant as `YYYY-MM-DD HH:MM UTC` in a <time> element; `none` when there is none. */
export function timeTag(iso: string | null, none = ''): string {
  return iso ? `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.slice(0, 16).replace('T', ' '))} UTC</time>` : none;
}

/** What a failed form left for the page it shows again: the fields as typed, so nothing typed is lost. */
export interface Prefill {
  action: string;
  values: URLSearchParams;
}

/** The value `field` had in the failed form `action`, if that form is the one being shown again. */
export function typed(prefill: Prefill | undefined, action: string, field: string): string | undefined {
  return prefill?.action === action ? (prefill.values.get(field) ?? undefined) : undefined;
}

/** ` value="…"` for an input: what was typed, else `fallback`. */
export function valueAttr(prefill: Prefill | undefined, action: string, field: string, fallback = ''): string {
  const value = typed(prefill, action, field) ?? fallback;
  return value ? ` value="${escapeHtml(value)}"` : '';
}

export interface Column {
  /** The header's text, already escaped ('' for a column of buttons). */
  label: string;
  num?: boolean;
  /** The column the rows are sorted by. */
  ariaSort?: 'ascending' | 'descending';
}

/**
 * A table whose rows become cards on a phone (console.css `table.stack`): each cell carries its column's name, shown
 * above it when the header row is hidden. Cells are HTML.
 */
export function table(columns: readonly Column[], rows: readonly (readonly string[])[], opts: { caption?: string; id?: string } = {}): string {
  const head = columns.map((c) => `<th scope="col"${c.num ? ' class="num"' : ''}${c.ariaSort ? ` aria-sort="${c.ariaSort}"` : ''}>${c.label}</th>`).join('');
  const body = rows
    .map(
      (cells) =>
        `<tr>${cells
          .map((cell, i) => {
            const c = columns[i];
            // The column's name as text: a sortable header's label is a link.
            const name = c?.label.replace(/<[^>]*>/g, '').replace(/ [↑↓]$/, '');
            return `<td${c?.num ? ' class="num"' : ''}${name ? ` data-label="${name}"` : ''}>${cell}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('\n');
  return `<table class="stack"${opts.id ? ` id="${opts.id}"` : ''}>${opts.caption ? `<caption class="note">${opts.caption}</caption>` : ''}<thead><tr>${head}</tr></thead><tbody>
${body}</tbody></table>`;
}

/** A form that posts to a console action, with the session's CSRF token. */
export function actionForm(
  action: string,
  csrf: string,
  inner: string,
  opts: { inline?: boolean; confirm?: string; confirmNoScopes?: string; locale: Locale; id?: string },
): string {
  const attrs = [
    opts.id ? ` id="${opts.id}"` : '',
    opts.inline ? ' class="inline"' : '',
    opts.confirm ? ` data-confirm="${escapeHtml(opts.confirm)}"` : '',
    // console.js asks this (already escaped) question before a form whose scope boxes are all unchecked is sent.
    opts.confirmNoScopes ? ` data-confirm-no-scopes="${opts.confirmNoScopes}"` : '',
  ].join('');
  return `<form method="post" action="/console/actions/${action}?lang=${opts.locale}"${attrs}>
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
  /** The page's own query (without `lang`): kept by the language switch, and the address a failed form goes back to. */
  query?: Record<string, string | undefined>;
  notice?: string;
  error?: string;
  /** HTML shown under the error (a way out the refusal suggests, e.g. a form to resend an invitation). */
  errorAction?: string;
  /** A caution that is not a refusal. */
  warning?: string;
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
  const current = SECTION[frame.page];
  const nav = NAV.map(
    (name) =>
      `<a href="${CONSOLE_PATHS[name]}?lang=${locale}"${name === current ? ` aria-current="${name === frame.page ? 'page' : 'true'}"` : ''}>${t(FRAME.nav[name])}</a>`,
  ).join('');
  const other: Locale = locale === 'en-US' ? 'pt-BR' : 'en-US';
  const here = pageUrl(frame.page, locale, frame.query);
  ctx.body = `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(frame.title)} · Siglata</title>
<link rel="stylesheet" href="${assetUrl('console.css')}"><script src="${assetUrl('console.js')}" defer></script>
</head><body data-page-url="${escapeHtml(here)}" data-locale="${locale}">
<a class="skip" href="#content">${t(FRAME.skip)}</a>
<header><a href="/?lang=${locale}"><strong>Siglata</strong></a><nav aria-label="${t(FRAME.console)}">${nav}</nav>
<div class="who"><span>${escapeHtml(frame.email)}${frame.organizationName ? ` · ${escapeHtml(frame.organizationName)}` : ''}</span>
<a href="${escapeHtml(pageUrl(frame.page, other, frame.query))}" lang="${other}" hreflang="${other}">${other === 'pt-BR' ? 'Português' : 'English'}</a>
${actionForm('sign-out', frame.csrf, `<button type="submit" class="secondary">${t(FRAME.signOut)}</button>`, { inline: true, locale })}</div></header>
<main id="content"><h1>${escapeHtml(frame.title)}</h1>
${frame.notice ? `<p class="notice" role="status">${escapeHtml(frame.notice)}</p>` : ''}
${frame.error ? `<div class="error" role="alert"><p>${escapeHtml(frame.error)}</p>${frame.errorAction ?? ''}</div>` : ''}
${frame.warning ? `<p class="warning" role="status">${escapeHtml(frame.warning)}</p>` : ''}
${body}
</main></body></html>`;
}
