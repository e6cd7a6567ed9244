// The invitation page the invitation e-mail links to: what the invitation is, and Accept / Decline buttons that call
// /auth/organization/accept-invitation or reject-invitation (JSON, same origin). Not signed in → the sign-in page,
// which brings the user back here.
import type Koa from 'koa';
import { type Locale, type Role, tr } from '../../runtime-api/index.ts';
import { escapeHtml, pageLocale, renderPage } from './layout.ts';

const ROLE: Record<Locale, Record<Role, string>> = {
  'en-US': { member: 'member', admin: 'admin', owner: 'owner' },
  'pt-BR': { member: 'membro', admin: 'administrador', owner: 'proprietário' },
};

export function invitationPage(ctx: Koa.Context, inv: { id: string; orgName: string; role: Role; email: string } | null): void {
  const locale = pageLocale(ctx);
  const t = (en: string, pt: string) => escapeHtml(tr(locale, en, pt));
  if (!inv) {
    renderPage(ctx, {
      locale, status: 404, title: tr(locale, 'Invitation not available', 'Convite indisponível'),
      body: `<p>${t('The invitation is unknown, cancelled, expired or already answered. Ask for a new one.', 'O convite é desconhecido, foi cancelado, expirou ou já foi respondido. Peça um novo.')}</p>`,
    });
    return;
  }
  const here = `/auth/organization/invitation?id=${encodeURIComponent(inv.id)}&lang=${locale}`;
  const strings = {
    joined: tr(locale, 'You joined the organization.', 'Você entrou na organização.'),
    declined: tr(locale, 'You declined the invitation.', 'Você recusou o convite.'),
  };
  renderPage(ctx, {
    locale, title: tr(locale, `Join ${inv.orgName}`, `Participar de ${inv.orgName}`),
    body: `<p>${t(`You are invited to join ${inv.orgName} as ${ROLE[locale][inv.role]}.`, `Você foi convidado para participar de ${inv.orgName} como ${ROLE[locale][inv.role]}.`)}</p>
<p class="note">${t(`Sign in as ${inv.email} to answer.`, `Entre como ${inv.email} para responder.`)}</p>
<p><button id="accept">${t('Accept', 'Aceitar')}</button> <button id="reject" class="secondary">${t('Decline', 'Recusar')}</button></p>
<p id="msg" role="status"></p>`,
    script: `const id = ${JSON.stringify(inv.id)}, here = ${JSON.stringify(here)}, strings = ${JSON.stringify(strings)};
async function answer(action) {
  const res = await fetch('/auth/organization/' + action + '-invitation', { method: 'POST', credentials: 'same-origin',
    headers: { 'content-type': 'application/json', 'x-service-locale': ${JSON.stringify(locale)} }, body: JSON.stringify({ invitationId: id }) });
  if (res.status === 401) { location.href = '/auth/sign-in?lang=${locale}&returnTo=' + encodeURIComponent(here); return; }
  const body = await res.json().catch(() => ({}));
  document.getElementById('msg').textContent = res.ok ? strings[action === 'accept' ? 'joined' : 'declined'] : ((body.error && body.error.resolution) || body.message || res.status);
}
document.getElementById('accept').addEventListener('click', () => answer('accept'));
document.getElementById('reject').addEventListener('click', () => answer('reject'));`,
  });
}
