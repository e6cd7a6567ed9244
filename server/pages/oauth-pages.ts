// The OAuth pages at /oauth/authorize: sign-in (when there is no session), consent with an organization picker,
// and the error page for requests that must not be redirected. Localized (en-US, pt-BR) through the shared layout.
import type Koa from 'koa';
import { ROLE_NAMES, type Locale, type Localized } from '../../runtime-api/index.ts';
import { escapeHtml, pageLocale, renderPage, texts } from './layout.ts';
import { signInForm } from './sign-in.ts';
import { OAUTH } from './texts.ts';

export function scopeLabel(locale: Locale, scope: string): string {
  return OAUTH.scopes[scope]?.[locale] ?? scope;
}

/** Where the app sends the browser back to, shown so the user can spot a look-alike app. */
function destination(redirectUri: string): string {
  try {
    const url = new URL(redirectUri);
    return url.host ? `${url.protocol}//${url.host}` : `${url.protocol}`;
  } catch {
    return redirectUri;
  }
}

/** The consent form posts to us and we redirect (303) to the client: form-action must allow that target too. */
function allowFormTarget(ctx: Koa.Context, redirectUri: string): void {
  const csp = String(ctx.response.get('Content-Security-Policy') ?? '');
  let source = "'self'";
  try {
    const url = new URL(redirectUri);
    source = url.host ? url.origin : url.protocol;
  } catch {
    /* keep 'self' only */
  }
  ctx.set('Content-Security-Policy', csp.replace("form-action 'self'", `form-action 'self' ${source}`));
  // With `no-referrer` a browser sends `Origin: null` on the form post, which the origin check must refuse;
  // `same-origin` keeps the referrer (and the real Origin) for our own origin only.
  ctx.set('Referrer-Policy', 'same-origin');
}

export function oauthErrorPage(ctx: Koa.Context, code: string, description: string, status = 400): void {
  const locale = pageLocale(ctx);
  const t = texts(locale);
  renderPage(ctx, {
    locale,
    status,
    title: OAUTH.errorTitle[locale],
    body: `<p>${t(OAUTH.notSentBack)}</p>
<p class="note"><code>${escapeHtml(code)}</code>: ${escapeHtml(description)}</p>`,
  });
}

export function oauthSignInPage(ctx: Koa.Context, opts: { clientName: string; returnTo: string; expired: boolean }): void {
  const locale = pageLocale(ctx);
  const t = texts(locale);
  const form = signInForm(locale, opts.returnTo, OAUTH.linkSent[locale]);
  renderPage(ctx, {
    locale,
    title: OAUTH.signInTitle[locale],
    body: `${opts.expired ? `<p class="note">${t(OAUTH.sessionExpired)}</p>` : ''}
<p><strong>${escapeHtml(opts.clientName)}</strong> ${t(OAUTH.wantsAccess)}</p>
${form.body}`,
    script: form.script,
  });
}

export interface ConsentOrganization {
  id: string;
  name: string;
  role: string;
  /** What this organization would grant (empty: not selectable). */
  scopes: string[];
  mcpRevoked: boolean;
}

export function oauthConsentPage(
  ctx: Koa.Context,
  opts: {
    clientName: string;
    redirectUri: string;
    email: string;
    ticket: string;
    organizations: ConsentOrganization[];
    selected: string | null;
    error?: string;
  },
): void {
  const locale = pageLocale(ctx);
  const t = texts(locale);
  const client = `<strong>${escapeHtml(opts.clientName)}</strong>`;
  const selectable = opts.organizations.filter((o) => o.scopes.length && !o.mcpRevoked);
  const selected = selectable.find((o) => o.id === opts.selected)?.id ?? selectable[0]?.id;
  const orgs = opts.organizations
    .map((o) => {
      const disabled = !o.scopes.length || o.mcpRevoked;
      const role = (ROLE_NAMES as Record<string, Localized>)[o.role]?.[locale] ?? o.role;
      const detail = o.mcpRevoked
        ? `<p class="note">${t(OAUTH.mcpRevoked)}</p>`
        : !o.scopes.length
          ? `<p class="note">${t(OAUTH.nothingGrantable)}</p>`
          : `<ul>${o.scopes.map((s) => `<li data-scope="${escapeHtml(s)}">${escapeHtml(scopeLabel(locale, s))}</li>`).join('')}</ul>`;
      return `<div class="org"><label><input type="radio" name="organization_id" value="${escapeHtml(o.id)}"${o.id === selected ? ' checked' : ''}${disabled ? ' disabled' : ''}>
<strong>${escapeHtml(o.name)}</strong> <span class="note">(${escapeHtml(role)})</span></label>${detail}</div>`;
    })
    .join('\n');
  const none = `<p>${t(OAUTH.noOrganization)}</p>`;
  // Newcomers create their first organization here instead of hitting a dead end; others may add one too.
  const create = `<details${opts.organizations.length ? '' : ' open'}><summary>${t(OAUTH.createOrganization)}</summary>
<p><label>${t(OAUTH.name)} <input name="new_organization_name" maxlength="100"></label></p>
<p><label>${t(OAUTH.shortName)} <input name="new_organization_slug" maxlength="48" pattern="[a-z0-9]([a-z0-9-]*[a-z0-9])?"></label></p>
<button type="submit" name="decision" value="create" class="secondary" formnovalidate>${t(OAUTH.createAndSelect)}</button>
</details>`;
  renderPage(ctx, {
    locale,
    status: opts.error ? 400 : 200,
    title: OAUTH.consentTitle(opts.clientName)[locale],
    body: `${opts.error ? `<p class="note" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<p>${client} ${t(OAUTH.asks)}</p>
<p class="note">${t(OAUTH.signedInAs)} ${escapeHtml(opts.email)}. ${t(OAUTH.sentBackTo)} <code>${escapeHtml(destination(opts.redirectUri))}</code>. ${t(OAUTH.trustedOnly)}</p>
<form method="post" action="/oauth/authorize">
<input type="hidden" name="csrf_token" value="${escapeHtml(opts.ticket)}">
<fieldset style="border:0;padding:0;margin:0 0 1rem"><legend><strong>${t(OAUTH.organization)}</strong></legend>
${opts.organizations.length ? orgs : none}
${create}
</fieldset>
${selectable.length ? `<button type="submit" name="decision" value="approve">${t(OAUTH.allow)}</button> ` : ''}<button type="submit" name="decision" value="deny" class="secondary">${t(OAUTH.deny)}</button>
</form>`,
  });
  allowFormTarget(ctx, opts.redirectUri);
}
