// Console home: who you are, your organizations and your role in each (switch the active one), create one, and the
// invitations addressed to you.
import type { Locale, Role } from '../../../runtime-api/index.ts';
import { actionForm, escapeHtml, timeTag, roleLabel, texts } from './layout.ts';

export interface HomeData {
  email: string;
  activeOrganizationId: string | null;
  organizations: { id: string; name: string; slug: string; role: Role }[];
  invitations: { id: string; organizationName: string; role: Role; expiresAt: string }[];
}

export function homeBody(locale: Locale, csrf: string, d: HomeData): string {
  const t = texts(locale);
  const form = (action: string, inner: string, inline = true) => actionForm(action, csrf, inner, { inline, locale });
  const rows = d.organizations.map((o) => `<tr><td>${escapeHtml(o.name)}</td><td><code>${escapeHtml(o.slug)}</code></td><td>${escapeHtml(roleLabel(locale, o.role))}</td>
<td>${o.id === d.activeOrganizationId ? `<strong>${t('Active', 'Ativa')}</strong>`
    : form('organization-switch', `<input type="hidden" name="organizationId" value="${escapeHtml(o.id)}"><button type="submit" class="secondary" aria-label="${t(`Make ${o.name} active`, `Tornar ${o.name} ativa`)}">${t('Make active', 'Tornar ativa')}</button>`)}</td></tr>`).join('\n');
  const organizations = d.organizations.length
    ? `<table><caption class="note">${t('The active organization is the one the console and your browser calls act on.', 'A organização ativa é aquela em que o console e as chamadas do seu navegador atuam.')}</caption>
<thead><tr><th scope="col">${t('Name', 'Nome')}</th><th scope="col">${t('Slug', 'Identificador')}</th><th scope="col">${t('Your role', 'Seu papel')}</th><th scope="col">${t('Status', 'Situação')}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p>${t('You do not belong to any organization yet. Create one below, or accept an invitation.', 'Você ainda não faz parte de nenhuma organização. Crie uma abaixo ou aceite um convite.')}</p>`;
  const invitations = d.invitations.length
    ? `<ul>${d.invitations.map((i) => `<li><strong>${escapeHtml(i.organizationName)}</strong> — ${escapeHtml(roleLabel(locale, i.role))}
<span class="note">(${t('expires', 'expira em')} ${timeTag(i.expiresAt)})</span>
${form('invitation-accept', `<input type="hidden" name="invitationId" value="${escapeHtml(i.id)}"><button type="submit" aria-label="${t(`Accept the invitation to ${i.organizationName}`, `Aceitar o convite para ${i.organizationName}`)}">${t('Accept', 'Aceitar')}</button>`)}
${form('invitation-reject', `<input type="hidden" name="invitationId" value="${escapeHtml(i.id)}"><button type="submit" class="secondary" aria-label="${t(`Decline the invitation to ${i.organizationName}`, `Recusar o convite para ${i.organizationName}`)}">${t('Decline', 'Recusar')}</button>`)}</li>`).join('\n')}</ul>`
    : `<p class="note">${t('No invitation is waiting for you.', 'Nenhum convite está esperando por você.')}</p>`;
  return `<section aria-labelledby="you"><h2 id="you">${t('You', 'Você')}</h2><p>${t('Signed in as', 'Conectado como')} <strong>${escapeHtml(d.email)}</strong>.</p></section>
<section aria-labelledby="orgs"><h2 id="orgs">${t('Your organizations', 'Suas organizações')}</h2>${organizations}</section>
<section aria-labelledby="invs"><h2 id="invs">${t('Invitations for you', 'Convites para você')}</h2>${invitations}</section>
<section aria-labelledby="create"><h2 id="create">${t('Create an organization', 'Criar uma organização')}</h2>
${form('organization-create', `<label>${t('Name', 'Nome')} <input name="name" id="org-name" required maxlength="100" autocomplete="organization"></label>
<label>${t('Slug (lower-case letters, digits, hyphens)', 'Identificador (letras minúsculas, dígitos, hifens)')} <input name="slug" id="org-slug" required minlength="2" maxlength="48" pattern="[a-z0-9](?:[a-z0-9-]*[a-z0-9])?"></label>
<button type="submit">${t('Create', 'Criar')}</button>`, false)}
<p class="note">${t('You become its owner, and it becomes your active organization.', 'Você se torna proprietário, e ela se torna sua organização ativa.')}</p></section>`;
}
