// The magic-link landing page: opening the mailed link (or a mail scanner fetching it) consumes nothing; the
// button posts the token to /auth/magic-link/verify, which signs in.
import type Koa from 'koa';
import { escapeHtml, pageLocale, renderPage, texts } from './layout.ts';
import { MAGIC_LINK } from './texts.ts';

export function magicLinkLandingPage(ctx: Koa.Context, token: string): void {
  const locale = pageLocale(ctx);
  const t = texts(locale);
  if (!token) {
    renderPage(ctx, {
      locale,
      status: 400,
      title: MAGIC_LINK.incompleteTitle[locale],
      body: `<p>${t(MAGIC_LINK.incomplete)}</p>
<p><a href="/auth/sign-in?lang=${locale}">${t(MAGIC_LINK.signIn)}</a></p>`,
    });
    return;
  }
  renderPage(ctx, {
    locale,
    title: MAGIC_LINK.title[locale],
    body: `<p>${t(MAGIC_LINK.pressButton)}</p>
<form method="post" action="/auth/magic-link/verify">
<input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="lang" value="${locale}">
<button type="submit">${t(MAGIC_LINK.continue)}</button></form>
<p class="note">${t(MAGIC_LINK.singleUse)}</p>`,
  });
}

export function magicLinkInvalidPage(ctx: Koa.Context): void {
  const locale = pageLocale(ctx);
  const t = texts(locale);
  renderPage(ctx, {
    locale,
    status: 401,
    title: MAGIC_LINK.unusableTitle[locale],
    body: `<p>${t(MAGIC_LINK.unusable)}</p>
<p><a href="/auth/sign-in?lang=${locale}">${t(MAGIC_LINK.newLink)}</a></p>`,
  });
}
