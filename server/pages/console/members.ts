// Members and invitations of the active organization. The rules the bindings enforce are shown before anyone
// tries: the last owner's controls are disabled with the reason, and only owners may touch the owner role.
import type { Locale, Role } from '../../../runtime-api/index.ts';
import { actionForm, escapeHtml, timeTag, roleLabel, roleOptions, texts } from './layout.ts';
import { MEMBERS } from './texts.ts';

export interface MembersData {
  viewerRole: Role;
  viewerUserId: string;
  members: { memberId: string; userId: string; email: string; name: string; role: Role }[];
  /** Null when the viewer may not see them (members). */
  invitations: { invitationId: string; email: string; role: Role; expiresAt: string }[] | null;
}

export function membersBody(locale: Locale, csrf: string, d: MembersData): string {
  const t = texts(locale);
  const form = (action: string, inner: string, confirm?: string) => actionForm(action, csrf, inner, { inline: true, locale, ...(confirm ? { confirm } : {}) });
  const admin = d.viewerRole !== 'member';
  const owners = d.members.filter((m) => m.role === 'owner').length;
  const rows = d.members
    .map((m) => {
      const who = `${escapeHtml(m.name)} &lt;${escapeHtml(m.email)}&gt;${m.userId === d.viewerUserId ? ` <span class="note">(${t(MEMBERS.you)})</span>` : ''}`;
      if (!admin) return `<tr><td>${who}</td><td>${escapeHtml(roleLabel(locale, m.role))}</td><td></td></tr>`;
      const reason = m.role === 'owner' && owners === 1 ? t(MEMBERS.lastOwner) : m.role === 'owner' && d.viewerRole !== 'owner' ? t(MEMBERS.ownerOnly) : '';
      const locked = reason ? ' disabled' : '';
      const note = reason ? `<p class="note" id="why-${escapeHtml(m.memberId)}">${reason}</p>` : '';
      const described = reason ? ` aria-describedby="why-${escapeHtml(m.memberId)}"` : '';
      const change = form(
        'member-role',
        `<input type="hidden" name="memberId" value="${escapeHtml(m.memberId)}">
<label>${t(MEMBERS.roleOf(m.email))} <select name="role"${locked}${described}>${roleOptions(locale, m.role, d.viewerRole === 'owner')}</select></label>
<button type="submit"${locked}${described}>${t(MEMBERS.changeRole)}</button>`,
      );
      const remove = form(
        'member-remove',
        `<input type="hidden" name="memberId" value="${escapeHtml(m.memberId)}">
<button type="submit" class="danger"${locked}${described} aria-label="${t(MEMBERS.removeLabel(m.email))}">${t(MEMBERS.remove)}</button>`,
        MEMBERS.removeConfirm(m.email)[locale],
      );
      return `<tr><td>${who}</td><td>${escapeHtml(roleLabel(locale, m.role))}</td><td>${change} ${remove}${note}</td></tr>`;
    })
    .join('\n');
  const members = `<section aria-labelledby="members"><h2 id="members">${t(MEMBERS.members)}</h2>
<table><thead><tr><th scope="col">${t(MEMBERS.member)}</th><th scope="col">${t(MEMBERS.role)}</th><th scope="col">${admin ? t(MEMBERS.manage) : ''}</th></tr></thead><tbody>${rows}</tbody></table>
${admin ? '' : `<p class="note">${t(MEMBERS.adminsManage)}</p>`}</section>`;
  if (!admin || !d.invitations) return members;
  const pending = d.invitations.length
    ? `<table><thead><tr><th scope="col">${t(MEMBERS.email)}</th><th scope="col">${t(MEMBERS.role)}</th><th scope="col">${t(MEMBERS.expires)}</th><th scope="col"></th></tr></thead><tbody>
${d.invitations
  .map(
    (i) => `<tr><td>${escapeHtml(i.email)}</td><td>${escapeHtml(roleLabel(locale, i.role))}</td><td>${timeTag(i.expiresAt)}</td>
<td>${form('invitation-cancel', `<input type="hidden" name="invitationId" value="${escapeHtml(i.invitationId)}"><button type="submit" class="secondary" aria-label="${t(MEMBERS.cancelLabel(i.email))}">${t(MEMBERS.cancel)}</button>`)}</td></tr>`,
  )
  .join('\n')}</tbody></table>`
    : `<p class="note">${t(MEMBERS.noPending)}</p>`;
  return `${members}
<section aria-labelledby="invite"><h2 id="invite">${t(MEMBERS.inviteSomeone)}</h2>
${actionForm(
  'member-invite',
  csrf,
  `<label>${t(MEMBERS.email)} <input type="email" name="email" id="invite-email" required maxlength="254" autocomplete="off"></label>
<label>${t(MEMBERS.role)} <select name="role" id="invite-role">${roleOptions(locale, 'member', d.viewerRole === 'owner')}</select></label>
<button type="submit">${t(MEMBERS.sendInvitation)}</button>`,
  { locale },
)}
<p class="note">${t(MEMBERS.invitationMailed)}</p></section>
<section aria-labelledby="pending"><h2 id="pending">${t(MEMBERS.pendingInvitations)}</h2>${pending}</section>`;
}
