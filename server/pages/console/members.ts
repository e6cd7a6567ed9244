// Members and invitations of the active organization. The rules the bindings enforce are shown before anyone
// tries: the last owner's controls are disabled with the reason, and only owners may touch the owner role. A pending
// invitation can be sent again from its row (what the API calls `resend`).
import type { Locale, Role } from '../../../runtime-api/index.ts';
import { actionForm, escapeHtml, timeTag, roleLabel, roleOptions, table, texts, typed, valueAttr, type Prefill } from './layout.ts';
import { MEMBERS } from './texts.ts';

export interface MembersData {
  viewerRole: Role;
  viewerUserId: string;
  members: { memberId: string; userId: string; email: string; name: string; role: Role }[];
  /** Null when the viewer may not see them (members). */
  invitations: { invitationId: string; email: string; role: Role; expiresAt: string }[] | null;
  prefill?: Prefill;
}

/** The form that sends a pending invitation again (the refusal of a second invitation offers it too). */
export function resendForm(locale: Locale, csrf: string, invitation: { email: string; role: Role }): string {
  const t = texts(locale);
  return actionForm(
    'invitation-resend',
    csrf,
    `<input type="hidden" name="email" value="${escapeHtml(invitation.email)}"><input type="hidden" name="role" value="${invitation.role}">
<button type="submit" class="secondary" aria-label="${t(MEMBERS.resendLabel(invitation.email))}">${t(MEMBERS.resend)}</button>`,
    { inline: true, locale },
  );
}

export function membersBody(locale: Locale, csrf: string, d: MembersData): string {
  const t = texts(locale);
  const form = (action: string, inner: string, confirm?: string) => actionForm(action, csrf, inner, { inline: true, locale, ...(confirm ? { confirm } : {}) });
  const admin = d.viewerRole !== 'member';
  const owners = d.members.filter((m) => m.role === 'owner').length;
  const rows = d.members.map((m) => {
    const who = `${escapeHtml(m.name)} &lt;${escapeHtml(m.email)}&gt;${m.userId === d.viewerUserId ? ` <span class="note">(${t(MEMBERS.you)})</span>` : ''}`;
    if (!admin) return [who, escapeHtml(roleLabel(locale, m.role))];
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
    return [who, escapeHtml(roleLabel(locale, m.role)), `${change} ${remove}${note}`];
  });
  const columns = [{ label: t(MEMBERS.member) }, { label: t(MEMBERS.role) }, ...(admin ? [{ label: t(MEMBERS.manage) }] : [])];
  const members = `<section aria-labelledby="members"><h2 id="members">${t(MEMBERS.members)}</h2>
${table(columns, rows)}
${admin ? '' : `<p class="note">${t(MEMBERS.adminsManage)}</p>`}</section>`;
  if (!admin || !d.invitations) return members;
  const pending = d.invitations.length
    ? table(
        [{ label: t(MEMBERS.email) }, { label: t(MEMBERS.role) }, { label: t(MEMBERS.expires) }, { label: '' }],
        d.invitations.map((i) => [
          escapeHtml(i.email),
          escapeHtml(roleLabel(locale, i.role)),
          timeTag(i.expiresAt),
          `${resendForm(locale, csrf, i)} ${form(
            'invitation-cancel',
            `<input type="hidden" name="invitationId" value="${escapeHtml(i.invitationId)}"><button type="submit" class="secondary" aria-label="${t(MEMBERS.cancelLabel(i.email))}">${t(MEMBERS.cancel)}</button>`,
          )}`,
        ]),
      )
    : `<p class="note">${t(MEMBERS.noPending)}</p>`;
  const invitedRole = (typed(d.prefill, 'member-invite', 'role') as Role | undefined) ?? 'member';
  return `${members}
<section aria-labelledby="invite"><h2 id="invite">${t(MEMBERS.inviteSomeone)}</h2>
${actionForm(
  'member-invite',
  csrf,
  `<label>${t(MEMBERS.email)} <input type="email" name="email" id="invite-email" required maxlength="254" autocomplete="off"${valueAttr(d.prefill, 'member-invite', 'email')}></label>
<label>${t(MEMBERS.role)} <select name="role" id="invite-role">${roleOptions(locale, invitedRole, d.viewerRole === 'owner')}</select></label>
<button type="submit">${t(MEMBERS.sendInvitation)}</button>`,
  { locale },
)}
<p class="note">${t(MEMBERS.invitationMailed)}</p></section>
<section aria-labelledby="pending"><h2 id="pending">${t(MEMBERS.pendingInvitations)}</h2>${pending}</section>`;
}
