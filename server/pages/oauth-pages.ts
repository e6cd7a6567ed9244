// The OAuth pages at /oauth/authorize: sign-in (when there is no session), consent with an organization picker,
// and the error page for requests that must not be redirected. Localized (en-US, pt-BR) through the shared layout.
import type Koa from 'koa';
import { type Locale, tr } from '../../runtime-api/index.ts';
import { escapeHtml, pageLocale, renderPage } from './layout.ts';
import { signInForm } from './sign-in.ts';

const SCOPE_TEXT: Record<string, [string, string]> = {
  'files:read': ['List, read and download the organization\'s files', 'Listar, ler e baixar os arquivos da organização'],
  'files:write': ['Upload, change, trash and delete files', 'Enviar, alterar, mover para a lixeira e excluir arquivos'],
  'org:read': ['See the organization, its members and invitations', 'Ver a organização, seus membros e convites'],
  'org:admin': ['Invite and remove members and change their roles', 'Convidar e remover membros e mudar seus papéis'],
  offline_access: ['Stay connected without asking you again (refresh tokens)', 'Continuar conectado sem perguntar de novo (tokens de renovação)'],
};

const ROLE_TEXT: Record<string, [string, string]> = {
  owner: ['owner', 'proprietário'], admin: ['admin', 'administrador'], member: ['member', 'membro'],
};

export function scopeLabel(locale: Locale, scope: string): string {
  const text = SCOPE_TEXT[scope];
  return text ? tr(locale, text[0], text[1]) : scope;
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
  } catch { /* keep 'self' only */ }
  ctx.set('Content-Security-Policy', csp.replace("form-action 'self'", `form-action 'self' ${source}`));
  // With `no-referrer` a browser sends `Origin: null` on the form post, which the origin check must refuse;
  // `same-origin` keeps the referrer (and the real Origin) for our own origin only.
  ctx.set('Referrer-Policy', 'same-origin');
}

export function oauthErrorPage(ctx: Koa.Context, code: string, description: string, status = 400): void {
  const locale = pageLocale(ctx);
  const t = (en: string, pt: string) => escapeHtml(tr(locale, en, pt));
  renderPage(ctx, {
    locale, status,
    title: tr(locale, 'This authorization request cannot be completed', 'Este pedido de autorização não pode ser concluído'),
    body: `<p>${t('The application that sent you here made an invalid request, so you were not sent back to it.', 'O aplicativo que enviou você até aqui fez um pedido inválido, por isso você não foi mandado de volta para ele.')}</p>
<p class="note"><code>${escapeHtml(code)}</code>: ${escapeHtml(description)}</p>`,
  });
}

export function oauthSignInPage(ctx: Koa.Context, opts: { clientName: string; returnTo: string; expired: boolean }): void {
  const locale = pageLocale(ctx);
  const t = (en: string, pt: string) => escapeHtml(tr(locale, en, pt));
  const form = signInForm(locale, opts.returnTo, tr(locale, 'Check your e-mail: we sent you a sign-in link. Opening it brings you back to this authorization.',
    'Confira seu e-mail: enviamos um link de acesso. Ao abri-lo, você volta para esta autorização.'));
  renderPage(ctx, {
    locale, title: tr(locale, 'Sign in to continue', 'Entre para continuar'),
    body: `${opts.expired ? `<p class="note">${t('Your session has expired.', 'Sua sessão expirou.')}</p>` : ''}
<p><strong>${escapeHtml(opts.clientName)}</strong> ${t('wants to access your Siglata workspace. Sign in first; we will e-mail you a link.', 'quer acessar seu espaço de trabalho na Siglata. Entre primeiro; enviaremos um link por e-mail.')}</p>
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

export function oauthConsentPage(ctx: Koa.Context, opts: {
  clientName: string; redirectUri: string; email: string; ticket: string; organizations: ConsentOrganization[]; selected: string | null; error?: string;
}): void {
  const locale = pageLocale(ctx);
  const t = (en: string, pt: string) => escapeHtml(tr(locale, en, pt));
  const client = `<strong>${escapeHtml(opts.clientName)}</strong>`;
  const selectable = opts.organizations.filter((o) => o.scopes.length && !o.mcpRevoked);
  const selected = selectable.find((o) => o.id === opts.selected)?.id ?? selectable[0]?.id;
  const orgs = opts.organizations.map((o) => {
    const disabled = !o.scopes.length || o.mcpRevoked;
    const role = ROLE_TEXT[o.role] ? tr(locale, ROLE_TEXT[o.role][0], ROLE_TEXT[o.role][1]) : o.role;
    const detail = o.mcpRevoked
      ? `<p class="note">${t('MCP access is revoked for this organization.', 'O acesso MCP está revogado para esta organização.')}</p>`
      : !o.scopes.length
        ? `<p class="note">${t('None of the requested permissions can be granted here.', 'Nenhuma das permissões pedidas pode ser concedida aqui.')}</p>`
        : `<ul>${o.scopes.map((s) => `<li data-scope="${escapeHtml(s)}">${escapeHtml(scopeLabel(locale, s))}</li>`).join('')}</ul>`;
    return `<div class="org"><label><input type="radio" name="organization_id" value="${escapeHtml(o.id)}"${o.id === selected ? ' checked' : ''}${disabled ? ' disabled' : ''}>
<strong>${escapeHtml(o.name)}</strong> <span class="note">(${escapeHtml(role)})</span></label>${detail}</div>`;
  }).join('\n');
  const none = `<p>${t('You do not belong to any organization yet. Create one below (or ask for an invitation to an existing one).', 'Você ainda não faz parte de nenhuma organização. Crie uma abaixo (ou peça um convite para uma existente).')}</p>`;
  // Newcomers create their first organization here instead of hitting a dead end; others may add one too.
  const create = `<details${opts.organizations.length ? '' : ' open'}><summary>${t('Create an organization', 'Criar uma organização')}</summary>
<p><label>${t('Name', 'Nome')} <input name="new_organization_name" maxlength="100"></label></p>
<p><label>${t('Short name (letters, digits, hyphens)', 'Nome curto (letras, dígitos, hífens)')} <input name="new_organization_slug" maxlength="48" pattern="[a-z0-9]([a-z0-9-]*[a-z0-9])?"></label></p>
<button type="submit" name="decision" value="create" class="secondary" formnovalidate>${t('Create and select it', 'Criar e selecioná-la')}</button>
</details>`;
  renderPage(ctx, {
    locale, status: opts.error ? 400 : 200,
    title: tr(locale, `Authorize ${opts.clientName}`, `Autorizar ${opts.clientName}`),
    body: `${opts.error ? `<p class="note" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<p>${client} ${t('asks to use Siglata on your behalf, with the permissions below, in the organization you choose.', 'pede para usar a Siglata em seu nome, com as permissões abaixo, na organização que você escolher.')}</p>
<p class="note">${t('Signed in as', 'Conectado como')} ${escapeHtml(opts.email)}. ${t('You will be sent back to', 'Você será enviado de volta para')} <code>${escapeHtml(destination(opts.redirectUri))}</code>. ${t('Allow only applications you trust.', 'Autorize apenas aplicativos em que você confia.')}</p>
<form method="post" action="/oauth/authorize">
<input type="hidden" name="csrf_token" value="${escapeHtml(opts.ticket)}">
<fieldset style="border:0;padding:0;margin:0 0 1rem"><legend><strong>${t('Organization', 'Organização')}</strong></legend>
${opts.organizations.length ? orgs : none}
${create}
</fieldset>
${selectable.length ? `<button type="submit" name="decision" value="approve">${t('Allow', 'Permitir')}</button> ` : ''}<button type="submit" name="decision" value="deny" class="secondary">${t('Deny', 'Negar')}</button>
</form>`,
  });
  allowFormTarget(ctx, opts.redirectUri);
}
