// The few HTML pages (sign-in, magic-link landing, invitation): one layout, strict security headers, a per-response
// script nonce, no referrer (the magic-link token sits in the URL), never cached, never framed.
import type Koa from 'koa';
import { randomBytes } from 'node:crypto';
import { type Locale, type Localized, escapeHtml } from '../../runtime-api/index.ts';
import { localeOf } from '../middleware/request-context.ts';

export { escapeHtml };

/** Reads a page's texts (texts.ts) in `locale`, escaped for HTML. */
export function texts(locale: Locale): (text: Localized) => string {
  return (text) => escapeHtml(text[locale]);
}

/** Page language: `?lang=`, else the request's (x-service-locale, then Accept-Language by its q-values), else en-US. */
export function pageLocale(ctx: Koa.Context): Locale {
  const lang = typeof ctx.query.lang === 'string' ? ctx.query.lang : '';
  return lang ? localeOf(lang) : ctx.state.locale;
}

export function renderPage(ctx: Koa.Context, opts: { locale: Locale; title: string; body: string; status?: number; script?: string }): void {
  const nonce = randomBytes(16).toString('base64');
  ctx.status = opts.status ?? 200;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  );
  // same-origin, not no-referrer: with no-referrer a browser posts this page's forms with `Origin: null`, which
  // the origin check must refuse; the token in the URL still never leaves the site.
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = `<!doctype html>
<html lang="${opts.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(opts.title)}</title>
<style>body{font-family:system-ui,sans-serif;color:#1d2330;background:#f6f7f9;margin:0}main{max-width:28rem;margin:12vh auto;background:#fff;padding:2rem;border-radius:10px;box-shadow:0 1px 4px #0002}
h1{font-size:1.35rem;margin:0 0 1rem}p{line-height:1.5}button{font:inherit;background:#1f4fd1;color:#fff;border:0;border-radius:6px;padding:.7rem 1.2rem;cursor:pointer}
button.secondary{background:#e4e7ee;color:#1d2330}input{font:inherit;padding:.6rem;width:100%;box-sizing:border-box;margin:.4rem 0 1rem;border:1px solid #c5cad3;border-radius:6px}.note{color:#555;font-size:.9rem}
input[type=radio],input[type=checkbox]{width:auto;margin:0 .45rem 0 0;padding:0;vertical-align:middle}</style>
</head><body><main>
<h1>${escapeHtml(opts.title)}</h1>
${opts.body}
</main>${opts.script ? `<script nonce="${nonce}">${opts.script}</script>` : ''}</body></html>`;
}
