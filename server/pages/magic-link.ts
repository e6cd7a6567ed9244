// The magic-link landing page: opening the mailed link (or a mail scanner fetching it) consumes nothing; the
// button posts the token to /auth/magic-link/verify, which signs in.
import type Koa from 'koa';
import { tr } from '../../runtime-api/index.ts';
import { escapeHtml, pageLocale, renderPage } from './layout.ts';

export function magicLinkLandingPage(ctx: Koa.Context, token: string): void {
  const locale = pageLocale(ctx);
  const t = (en: string, pt: string) => escapeHtml(tr(locale, en, pt));
  if (!token) {
    renderPage(ctx, {
      locale, status: 400, title: tr(locale, 'Incomplete sign-in link', 'Link de acesso incompleto'),
      body: `<p>${t('Open the whole link from the e-mail, or ask for a new one.', 'Abra o link completo do e-mail, ou peça um novo.')}</p>
<p><a href="/auth/sign-in?lang=${locale}">${t('Sign in', 'Entrar')}</a></p>`,
    });
    return;
  }
  renderPage(ctx, {
    locale, title: tr(locale, 'Sign in to Siglata', 'Entrar na Siglata'),
    body: `<p>${t('Press the button to finish signing in on this device.', 'Aperte o botão para concluir o acesso neste dispositivo.')}</p>
<form method="post" action="/auth/magic-link/verify">
<input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="lang" value="${locale}">
<button type="submit">${t('Continue', 'Continuar')}</button></form>
<p class="note">${t('The link works once and expires 10 minutes after it was sent.', 'O link funciona uma única vez e expira 10 minutos após o envio.')}</p>`,
  });
}

export function magicLinkInvalidPage(ctx: Koa.Context): void {
  const locale = pageLocale(ctx);
  const t = (en: string, pt: string) => escapeHtml(tr(locale, en, pt));
  renderPage(ctx, {
    locale, status: 401, title: tr(locale, 'This sign-in link cannot be used', 'Este link de acesso não pode ser usado'),
    body: `<p>${t('It is invalid, expired or already used. Ask for a new one.', 'Ele é inválido, expirou ou já foi usado. Peça um novo.')}</p>
<p><a href="/auth/sign-in?lang=${locale}">${t('Get a new link', 'Receber um novo link')}</a></p>`,
  });
}
