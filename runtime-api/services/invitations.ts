// Invitations: created by an owner or admin (48 h, one pending per address), mailed in the inviter's locale,
// accepted or rejected by a signed-in user with the same e-mail (case-insensitive), cancelled by an admin.
import type { Sql } from 'postgres';
import type { Caller } from '../identity/caller.ts';
import type { Mailer } from '../define.ts';
import type { Locale } from '../errors.ts';
import { newId } from '../ids.ts';
import { mailHtml } from '../mail-html.ts';
import type { Role } from '../identity/scopes.ts';
import { findMembership, findOrganization } from '../store/organizations.ts';
import { findMemberByEmail, findMemberByUser, insertMember, lockOrganization } from '../store/members.ts';
import {
  expireLapsed,
  findInvitation,
  findPendingFor,
  insertInvitation,
  refreshInvitation,
  settleInvitation,
  type InvitationRow,
} from '../store/invitations.ts';
import { findUserById } from '../store/users.ts';
import { memberView, type MemberView } from './membership.ts';
import { INVITATION_MAIL, alreadyMember, invitationNotFound, invitationPending, notRecipient, ownerRequired } from './organization-messages.ts';
import { organizationNotFound } from '../identity/messages.ts';
import { callerForOrganization, requireAdmin } from '../identity/organization-caller.ts';

export const INVITATION_TTL_MS = 48 * 3600_000;

export interface InvitationView {
  id: string;
  invitationId: string;
  organizationId: string;
  email: string;
  role: Role;
  status: InvitationRow['status'];
  inviterId: string | null;
  expiresAt: string;
  createdAt: string;
}

export function invitationView(i: InvitationRow): InvitationView {
  return {
    id: i.id,
    invitationId: i.id,
    organizationId: i.orgId,
    email: i.email,
    role: i.role,
    status: i.status,
    inviterId: i.inviterId,
    expiresAt: i.expiresAt.toISOString(),
    createdAt: i.createdAt.toISOString(),
  };
}

export function invitationMail(locale: Locale, v: { orgName: string; inviter: string; role: Role; link: string }) {
  const subject = INVITATION_MAIL.subject(v.orgName)[locale];
  const lead = INVITATION_MAIL.lead(v.inviter, v.orgName, v.role)[locale];
  const button = INVITATION_MAIL.button[locale],
    open = INVITATION_MAIL.open[locale],
    note = INVITATION_MAIL.note[locale];
  return { subject, text: `${lead}\n\n${open}\n${v.link}\n\n${note}\n`, html: mailHtml(locale, { lead, button, link: v.link, note }) };
}

export function invitationLink(publicBaseUrl: string, id: string, locale: Locale): string {
  return `${publicBaseUrl}/auth/organization/invitation?id=${encodeURIComponent(id)}&lang=${locale}`;
}

/** Invite `email` with `role`; `resend` refreshes an existing pending invitation instead of answering 409. */
export async function inviteMember(
  deps: { sql: Sql; clock: { now(): Date }; mailer: Mailer; publicBaseUrl: string },
  caller: Caller,
  input: { email: string; role: Role; resend?: boolean },
): Promise<InvitationRow> {
  const { orgId, role: callerRole } = requireAdmin(caller);
  if (input.role === 'owner' && callerRole !== 'owner') throw ownerRequired(caller.locale);
  const email = input.email.trim().toLowerCase();
  const now = deps.clock.now();
  const org = await findOrganization(deps.sql, orgId);
  if (!org) throw organizationNotFound(caller.locale);
  const inviter = await findUserById(deps.sql, caller.userId);
  // The mail is sent inside the transaction: if delivery fails, no invitation is left behind.
  return deps.sql.begin(async (txx) => {
    const tx = txx as unknown as Sql;
    if (await findMemberByEmail(tx, orgId, email)) {
      throw alreadyMember();
    }
    await expireLapsed(tx, orgId, email, now);
    const pending = await findPendingFor(tx, orgId, email, now);
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
    let invitation: InvitationRow;
    if (pending && !input.resend) {
      throw invitationPending();
    } else if (pending) {
      invitation = await refreshInvitation(tx, pending.id, { role: input.role, locale: caller.locale, inviterId: caller.userId, now, expiresAt });
    } else {
      invitation = await insertInvitation(tx, {
        id: newId('inv'),
        orgId,
        email,
        role: input.role,
        inviterId: caller.userId,
        locale: caller.locale,
        now,
        expiresAt,
      });
    }
    const mail = invitationMail(caller.locale, {
      orgName: org.name,
      inviter: inviter?.name && inviter.name !== inviter.email.split('@')[0] ? `${inviter.name} (${inviter.email})` : (inviter?.email ?? caller.email),
      role: input.role,
      link: invitationLink(deps.publicBaseUrl, invitation.id, caller.locale),
    });
    await deps.mailer.send({ to: email, ...mail });
    return invitation;
  }) as Promise<InvitationRow>;
}

export async function cancelInvitation(sql: Sql, clock: { now(): Date }, caller: Caller, invitationId: string): Promise<InvitationRow> {
  const { orgId } = requireAdmin(caller);
  const row = await settleInvitation(sql, invitationId, 'canceled', clock.now(), orgId);
  if (!row) throw invitationNotFound(caller.locale);
  return row;
}

/** A pending, unexpired invitation addressed to the caller (case-insensitive), else 404 / 403. */
async function ownInvitation(sql: Sql, now: Date, caller: Caller, invitationId: string): Promise<InvitationRow> {
  const inv = await findInvitation(sql, invitationId);
  if (!inv || inv.status !== 'pending' || inv.expiresAt.getTime() <= now.getTime()) throw invitationNotFound(caller.locale);
  if (inv.email.toLowerCase() !== caller.email.toLowerCase()) throw notRecipient(caller.locale);
  return inv;
}

/** Accept: the invitation becomes `accepted` and the caller a member with its role, in one transaction. */
export async function acceptInvitation(
  sql: Sql,
  clock: { now(): Date },
  caller: Caller,
  invitationId: string,
): Promise<{ invitation: InvitationRow; member: MemberView }> {
  const now = clock.now();
  await ownInvitation(sql, now, caller, invitationId);
  return sql.begin(async (txx) => {
    const tx = txx as unknown as Sql;
    const invitation = await settleInvitation(tx, invitationId, 'accepted', now);
    if (!invitation) throw invitationNotFound(caller.locale);
    if (!(await lockOrganization(tx, invitation.orgId))) throw invitationNotFound(caller.locale);
    await insertMember(tx, invitation.orgId, caller.userId, invitation.role); // an existing membership is kept as is
    const member = await findMemberByUser(tx, invitation.orgId, caller.userId);
    return { invitation, member: memberView(member!) };
  }) as Promise<{ invitation: InvitationRow; member: MemberView }>;
}

export async function rejectInvitation(sql: Sql, clock: { now(): Date }, caller: Caller, invitationId: string): Promise<InvitationRow> {
  const now = clock.now();
  await ownInvitation(sql, now, caller, invitationId);
  const invitation = await settleInvitation(sql, invitationId, 'rejected', now);
  if (!invitation) throw invitationNotFound(caller.locale);
  return invitation;
}

/**
 * The Caller acting on an invitation's organization when the request names none (cancel-invitation): only if the
 * caller belongs to it; an invitation of another organization is answered as if it did not exist.
 */
export async function callerForInvitation(sql: Sql, caller: Caller, invitationId: string): Promise<Caller> {
  const inv = await findInvitation(sql, invitationId);
  if (!inv || !(await findMembership(sql, caller.userId, inv.orgId))) throw invitationNotFound(caller.locale);
  return callerForOrganization(sql, caller, inv.orgId);
}

/** What the page an invitation mail links to shows: a pending, unexpired invitation and its organization, else null. */
export async function invitationToShow(
  sql: Sql,
  clock: { now(): Date },
  invitationId: string,
): Promise<{ id: string; orgName: string; role: Role; email: string } | null> {
  const inv = await findInvitation(sql, invitationId);
  const live = inv && inv.status === 'pending' && inv.expiresAt.getTime() > clock.now().getTime();
  const org = live ? await findOrganization(sql, inv.orgId) : null;
  return live && org ? { id: inv.id, orgName: org.name, role: inv.role, email: inv.email } : null;
}
