// Members and invitations of the active organization. The rules the bindings enforce are shown before anyone
// tries: the last owner's controls are disabled with the reason, and only owners may touch the owner role.
import { type Locale, type Role, tr } from '../../../runtime-api/index.ts';
import { actionForm, escapeHtml, timeTag, roleLabel, roleOptions, texts } from './layout.ts';

export interface MembersData {
  viewerRole: Role;
  viewerUserId: string;
  members: { id: string; userId: string; email: string; name: string; role: Role }[];
  /** Null when the viewer may not see them (members). */
  invitations: { id: string; email: string; role: Role; expiresAt: string }[] | null;
}

export function membersBody(locale: Locale, csrf: string, d: MembersData): string {
  const t = texts(locale);
  const form = (action: string, inner: string, confirm?: string) => actionForm(action, csrf, inner, { inline: true, locale, ...(confirm ? { confirm } : {}) });
  const admin = d.viewerRole !== 'member';
  const owners = d.members.filter((m) => m.role === 'owner').length;
  const rows = d.members.map((m) => {
    const who = `${escapeHtml(m.name)} &lt;${escapeHtml(m.email)}&gt;${m.userId === d.viewerUserId ? ` <span class="note">(${t('you', 'você')})</span>` : ''}`;
    if (!admin) return `<tr><td>${who}</td><td>${escapeHtml(roleLabel(locale, m.role))}</td><td></td></tr>`;
    const reason = m.role === 'owner' && owners === 1
      ? t('The last owner cannot be removed or demoted: make another member owner first.', 'O último proprietário não pode ser removido nem rebaixado: torne outro membro proprietário antes.')
      : m.role === 'owner' && d.viewerRole !== 'owner'
        ? t('Only an owner can change or remove an owner.', 'Somente um proprietário pode alterar ou remover um proprietário.')
        : '';
    const locked = reason ? ' disabled' : '';
    const note = reason ? `<p class="note" id="why-${escapeHtml(m.id)}">${reason}</p>` : '';
    const described = reason ? ` aria-describedby="why-${escapeHtml(m.id)}"` : '';
    const change = form('member-role', `<input type="hidden" name="memberId" value="${escapeHtml(m.id)}">
<label>${t(`Role of ${m.email}`, `Papel de ${m.email}`)} <select name="role"${locked}${described}>${roleOptions(locale, m.role, d.viewerRole === 'owner')}</select></label>
<button type="submit"${locked}${described}>${t('Change role', 'Mudar papel')}</button>`);
    const remove = form('member-remove', `<input type="hidden" name="memberId" value="${escapeHtml(m.id)}">
<button type="submit" class="danger"${locked}${described} aria-label="${t(`Remove ${m.email}`, `Remover ${m.email}`)}">${t('Remove', 'Remover')}</button>`,
    tr(locale, `Remove ${m.email} from the organization?`, `Remover ${m.email} da organização?`));
    return `<tr><td>${who}</td><td>${escapeHtml(roleLabel(locale, m.role))}</td><td>${change} ${remove}${note}</td></tr>`;
  }).join('\n');
  const members = `<section aria-labelledby="members"><h2 id="members">${t('Members', 'Membros')}</h2>
<table><thead><tr><th scope="col">${t('Member', 'Membro')}</th><th scope="col">${t('Role', 'Papel')}</th><th scope="col">${admin ? t('Manage', 'Gerenciar') : ''}</th></tr></thead><tbody>${rows}</tbody></table>
${admin ? '' : `<p class="note">${t('Only owners and admins manage members.', 'Somente proprietários e administradores gerenciam membros.')}</p>`}</section>`;
  if (!admin || !d.invitations) return members;
  const pending = d.invitations.length
    ? `<table><thead><tr><th scope="col">${t('E-mail', 'E-mail')}</th><th scope="col">${t('Role', 'Papel')}</th><th scope="col">${t('Expires', 'Expira')}</th><th scope="col"></th></tr></thead><tbody>
${d.invitations.map((i) => `<tr><td>${escapeHtml(i.email)}</td><td>${escapeHtml(roleLabel(locale, i.role))}</td><td>${timeTag(i.expiresAt)}</td>
<td>${form('invitation-cancel', `<input type="hidden" name="invitationId" value="${escapeHtml(i.id)}"><button type="submit" class="secondary" aria-label="${t(`Cancel the invitation of ${i.email}`, `Cancelar o convite de ${i.email}`)}">${t('Cancel', 'Cancelar')}</button>`)}</td></tr>`).join('\n')}</tbody></table>`
    : `<p class="note">${t('No pending invitation.', 'Nenhum convite pendente.')}</p>`;
  return `${members}
<section aria-labelledby="invite"><h2 id="invite">${t('Invite someone', 'Convidar alguém')}</h2>
${actionForm('member-invite', csrf, `<label>${t('E-mail', 'E-mail')} <input type="email" name="email" id="invite-email" required maxlength="254" autocomplete="off"></label>
<label>${t('Role', 'Papel')} <select name="role" id="invite-role">${roleOptions(locale, 'member', d.viewerRole === 'owner')}</select></label>
<button type="submit">${t('Send invitation', 'Enviar convite')}</button>`, { locale })}
<p class="note">${t('The invitation is e-mailed and expires after 48 hours.', 'O convite é enviado por e-mail e expira em 48 horas.')}</p></section>
<section aria-labelledby="pending"><h2 id="pending">${t('Pending invitations', 'Convites pendentes')}</h2>${pending}</section>`;
}

