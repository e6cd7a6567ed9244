// Console home: who you are, your organizations and your role in each (switch the active one), create one, and the
// invitations addressed to you.
import type { Locale, Role } from '../../../runtime-api/index.ts';
import { actionForm, escapeHtml, timeTag, roleLabel, table, texts, valueAttr, type Prefill } from './layout.ts';
import { HOME } from './texts.ts';

export interface HomeData {
  email: string;
  activeOrganizationId: string | null;
  organizations: { organizationId: string; name: string; slug: string; role: Role }[];
  invitations: { invitationId: string; organizationName: string; role: Role; expiresAt: string }[];
  prefill?: Prefill;
}

export function homeBody(locale: Locale, csrf: string, d: HomeData): string {
  const t = texts(locale);
  const form = (action: string, inner: string, inline = true) => actionForm(action, csrf, inner, { inline, locale });
  const rows = d.organizations.map((o) => [
    escapeHtml(o.name),
    `<code>${escapeHtml(o.slug)}</code>`,
    escapeHtml(roleLabel(locale, o.role)),
    o.organizationId === d.activeOrganizationId
      ? `<strong>${t(HOME.active)}</strong>`
      : form(
          'organization-switch',
          `<input type="hidden" name="organizationId" value="${escapeHtml(o.organizationId)}"><button type="submit" class="secondary" aria-label="${t(HOME.makeActiveLabel(o.name))}">${t(HOME.makeActive)}</button>`,
        ),
  ]);
  const organizations = d.organizations.length
    ? table([{ label: t(HOME.name) }, { label: t(HOME.slug) }, { label: t(HOME.yourRole) }, { label: t(HOME.status) }], rows, {
        caption: t(HOME.activeExplained),
      })
    : `<p>${t(HOME.noOrganization)}</p>`;
  const invitations = d.invitations.length
    ? `<ul>${d.invitations
        .map(
          (i) => `<li><strong>${escapeHtml(i.organizationName)}</strong> — ${escapeHtml(roleLabel(locale, i.role))}
<span class="note">(${t(HOME.expires)} ${timeTag(i.expiresAt)})</span>
${form('invitation-accept', `<input type="hidden" name="invitationId" value="${escapeHtml(i.invitationId)}"><button type="submit" aria-label="${t(HOME.acceptLabel(i.organizationName))}">${t(HOME.accept)}</button>`)}
${form('invitation-reject', `<input type="hidden" name="invitationId" value="${escapeHtml(i.invitationId)}"><button type="submit" class="secondary" aria-label="${t(HOME.declineLabel(i.organizationName))}">${t(HOME.decline)}</button>`)}</li>`,
        )
        .join('\n')}</ul>`
    : `<p class="note">${t(HOME.noInvitation)}</p>`;
  return `<section aria-labelledby="you"><h2 id="you">${t(HOME.you)}</h2><p>${t(HOME.signedInAs)} <strong>${escapeHtml(d.email)}</strong>.</p></section>
<section aria-labelledby="orgs"><h2 id="orgs">${t(HOME.yourOrganizations)}</h2>${organizations}</section>
<section aria-labelledby="invs"><h2 id="invs">${t(HOME.invitationsForYou)}</h2>${invitations}</section>
<section aria-labelledby="create"><h2 id="create">${t(HOME.createOrganization)}</h2>
${form(
  'organization-create',
  `<label>${t(HOME.name)} <input name="name" id="org-name" required maxlength="100" autocomplete="organization"${valueAttr(d.prefill, 'organization-create', 'name')}></label>
<label>${t(HOME.slugField)} <input name="slug" id="org-slug" required minlength="2" maxlength="48" pattern="[a-z0-9](?:[a-z0-9-]*[a-z0-9])?"${valueAttr(d.prefill, 'organization-create', 'slug')}></label>
<button type="submit">${t(HOME.create)}</button>`,
  false,
)}
<p class="note">${t(HOME.becomeOwner)}</p></section>`;
}
