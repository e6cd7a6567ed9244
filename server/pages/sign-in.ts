// The sign-in page: an e-mail field that asks for a magic link (POST /auth/sign-in/magic-link, JSON), carrying a
// same-site return path (e.g. an OAuth authorize request to resume after signing in).
import type Koa from 'koa';
import type { Locale } from '../../runtime-api/index.ts';
import { escapeHtml, pageLocale, renderPage, texts } from './layout.ts';
import { SIGN_IN } from './texts.ts';

/** The magic-link form and its script, shared by this page and the OAuth sign-in step. `sentText` is what the
 * user reads once the link is on its way. */
export function signInForm(locale: Locale, returnTo: string, sentText: string): { body: string; script: string } {
  const t = texts(locale);
  const failed = JSON.stringify(SIGN_IN.sendFailed[locale]);
  return {
    body: `<form id="signin" data-return="${escapeHtml(returnTo)}"><label for="email">${t(SIGN_IN.email)}</label>
<input id="email" name="email" type="email" autocomplete="email" required>
<button type="submit">${t(SIGN_IN.send)}</button></form>
<p id="msg" role="status"></p><noscript><p>${t(SIGN_IN.needsScript)}</p></noscript>`,
    script: `document.getElementById('signin').addEventListener('submit', async (e) => {
  e.preventDefault();
  const msg = document.getElementById('msg');
  const res = await fetch('/auth/sign-in/magic-link', { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-locale': ${JSON.stringify(locale)} },
    body: JSON.stringify({ email: document.getElementById('email').value, callbackURL: e.target.dataset.return }) });
  const body = await res.json().catch(() => ({}));
  msg.textContent = res.ok ? ${JSON.stringify(sentText)} : ${failed} + ((body.error && body.error.resolution) || res.status);
});`,
  };
}

export function signInPage(ctx: Koa.Context, returnTo: string): void {
  const locale = pageLocale(ctx);
  const form = signInForm(locale, returnTo, SIGN_IN.sent[locale]);
  renderPage(ctx, { locale, title: SIGN_IN.title[locale], body: form.body, script: form.script });
}
