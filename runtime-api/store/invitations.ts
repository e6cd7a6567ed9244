// Invitations: pending → accepted | rejected | canceled | expired. State changes are conditional UPDATEs on
// `status = 'pending'` (and the expiry), so a second accept, or an accept racing a cancel, finds nothing.
import type { Sql } from 'postgres';
import type { Locale } from '../errors.ts';
import type { Role } from '../identity/scopes.ts';

export type InvitationStatus = 'pending' | 'accepted' | 'rejected' | 'canceled' | 'expired';

export interface InvitationRow {
  id: string;
  orgId: string;
  email: string;
  role: Role;
  status: InvitationStatus;
  inviterId: string | null;
  locale: Locale;
  createdAt: Date;
  expiresAt: Date;
}

const RETURNING = (sql: Sql) => sql`id, org_id as "orgId", email::text as email, role, status, inviter_id as "inviterId", locale,
  created_at as "createdAt", expires_at as "expiresAt"`;

export async function findInvitation(sql: Sql, id: string): Promise<InvitationRow | null> {
  const [row] = await sql<InvitationRow[]>`select ${RETURNING(sql)} from invitations where id = ${id}`;
  return row ?? null;
}

/** Pending and unexpired invitations of an organization. */
export async function listPendingInvitations(sql: Sql, orgId: string, now: Date): Promise<InvitationRow[]> {
  return sql<InvitationRow[]>`select ${RETURNING(sql)} from invitations
    where org_id = ${orgId} and status = 'pending' and expires_at > ${now} order by created_at, id`;
}

/** Mark lapsed pending invitations for an address as expired (frees the one-pending-per-address index). */
export async function expireLapsed(tx: Sql, orgId: string, email: string, now: Date): Promise<void> {
  await tx`update invitations set status = 'expired', updated_at = ${now}
    where org_id = ${orgId} and email = ${email} and status = 'pending' and expires_at <= ${now}`;
}

export async function findPendingFor(tx: Sql, orgId: string, email: string, now: Date): Promise<InvitationRow | null> {
  const [row] = await tx<InvitationRow[]>`select ${RETURNING(tx)} from invitations
    where org_id = ${orgId} and email = ${email} and status = 'pending' and expires_at > ${now} for update`;
  return row ?? null;
}

export async function insertInvitation(
  tx: Sql,
  row: { id: string; orgId: string; email: string; role: Role; inviterId: string; locale: Locale; now: Date; expiresAt: Date },
): Promise<InvitationRow> {
  const [inv] = await tx<InvitationRow[]>`insert into invitations (id, org_id, email, role, status, inviter_id, locale, created_at, expires_at, updated_at)
    values (${row.id}, ${row.orgId}, ${row.email}, ${row.role}, 'pending', ${row.inviterId}, ${row.locale}, ${row.now}, ${row.expiresAt}, ${row.now})
    returning ${RETURNING(tx)}`;
  return inv;
}

/** Resend: refresh the expiry (and role, locale) of a pending invitation. */
export async function refreshInvitation(
  tx: Sql,
  id: string,
  patch: { role: Role; locale: Locale; inviterId: string; now: Date; expiresAt: Date },
): Promise<InvitationRow> {
  const [inv] = await tx<InvitationRow[]>`update invitations set role = ${patch.role}, locale = ${patch.locale}, inviter_id = ${patch.inviterId},
    expires_at = ${patch.expiresAt}, updated_at = ${patch.now}
    where id = ${id} returning ${RETURNING(tx)}`;
  return inv;
}

/**
 * Move a pending, unexpired invitation to `status`. `orgId` (when given) must match: an id from another
 * organization finds nothing. Returns null when nothing matched.
 */
export async function settleInvitation(
  tx: Sql,
  id: string,
  status: Exclude<InvitationStatus, 'pending' | 'expired'>,
  now: Date,
  orgId?: string,
): Promise<InvitationRow | null> {
  const [inv] = await tx<InvitationRow[]>`update invitations set status = ${status}, updated_at = ${now}
    where id = ${id} and status = 'pending' and expires_at > ${now} ${orgId ? tx`and org_id = ${orgId}` : tx``}
    returning ${RETURNING(tx)}`;
  return inv ?? null;
}

/** Pending and unexpired invitations addressed to an e-mail address, with the inviting organization's name. */
export async function listPendingForEmail(sql: Sql, email: string, now: Date): Promise<(InvitationRow & { orgName: string })[]> {
  return sql<(InvitationRow & { orgName: string })[]>`select i.id, i.org_id as "orgId", i.email::text as email, i.role, i.status,
    i.inviter_id as "inviterId", i.locale, i.created_at as "createdAt", i.expires_at as "expiresAt", o.name as "orgName"
    from invitations i join organizations o on o.id = i.org_id
    where i.email = ${email} and i.status = 'pending' and i.expires_at > ${now} order by i.created_at, i.id`;
}
