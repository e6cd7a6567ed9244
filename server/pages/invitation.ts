// The invitation page the invitation e-mail links to: what the invitation is, and Accept / Decline buttons that call
// /auth/organization/accept-invitation or reject-invitation (JSON, same origin). Not signed in → the sign-in page,
// which brings the user back here.
import type Koa from 'koa';
import type { Role } from '../../runtime-api/index.ts';
import { pageLocale, renderPage, texts } from './layout.ts';
import { INVITATION } from './texts.ts';

export function invitationPage(ctx: Koa.Context, inv: { id: string; orgName: string; role: Role; email: string } | null): void {
  const locale = pageLocale(ctx);
  const t = texts(locale);
  if (!inv) {
    renderPage(ctx, {
      locale,
      status: 404,
      title: INVITATION.unavailableTitle[locale],
      body: `<p>${t(INVITATION.unavailable)}</p>`,
    });
    return;
  }
  const here = `/auth/organization/invitation?id=${encodeURIComponent(inv.id)}&lang=${locale}`;
  const strings = {
    joined: INVITATION.joined[locale],
    declined: INVITATION.declined[locale],
  };
  renderPage(ctx, {
    locale,
    title: INVITATION.title(inv.orgName)[locale],
    body: `<p>${t(INVITATION.invited(inv.orgName, inv.role))}</p>
<p class="note">${t(INVITATION.signInAs(inv.email))}</p>
<p><button id="accept">${t(INVITATION.accept)}</button> <button id="reject" class="secondary">${t(INVITATION.decline)}</button></p>
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
