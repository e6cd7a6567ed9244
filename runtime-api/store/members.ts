// Members of organizations, with their users' e-mail and name; the organization row lock that serializes every
// membership change of one organization (last-owner rule); the caller's organizations with roles.
import type { Sql } from 'postgres';
import { newId } from '../ids.ts';
import type { Role } from '../identity/scopes.ts';

export interface MemberRow {
  id: string;
  orgId: string;
  userId: string;
  email: string;
  name: string;
  image: string | null;
  role: Role;
  createdAt: Date;
}

export interface UserOrganizationRow {
  id: string;
  name: string;
  slug: string;
  metadata: Record<string, unknown>;
  createdAt: Date;
  role: Role;
  /** When the user joined it (the list's order). */
  joinedAt: Date;
}

const SELECT_MEMBER = (sql: Sql) => sql`select m.id, m.org_id as "orgId", m.user_id as "userId", u.email::text as email, u.name, u.image,
  m.role, m.created_at as "createdAt" from members m join users u on u.id = m.user_id`;

export async function listMembers(sql: Sql, orgId: string): Promise<MemberRow[]> {
  return sql<MemberRow[]>`${SELECT_MEMBER(sql)} where m.org_id = ${orgId} order by m.created_at, m.id`;
}

export async function findMemberById(sql: Sql, orgId: string, memberId: string): Promise<MemberRow | null> {
  const [row] = await sql<MemberRow[]>`${SELECT_MEMBER(sql)} where m.org_id = ${orgId} and m.id = ${memberId}`;
  return row ?? null;
}

/** Case-insensitive (users.email is citext). */
export async function findMemberByEmail(sql: Sql, orgId: string, email: string): Promise<MemberRow | null> {
  const [row] = await sql<MemberRow[]>`${SELECT_MEMBER(sql)} where m.org_id = ${orgId} and u.email = ${email}`;
  return row ?? null;
}

export async function findMemberByUser(sql: Sql, orgId: string, userId: string): Promise<MemberRow | null> {
  const [row] = await sql<MemberRow[]>`${SELECT_MEMBER(sql)} where m.org_id = ${orgId} and m.user_id = ${userId}`;
  return row ?? null;
}

/** Take the organization's row lock for the rest of the transaction; false when the organization is gone. */
export async function lockOrganization(tx: Sql, orgId: string): Promise<boolean> {
  const rows = await tx`select id from organizations where id = ${orgId} for update`;
  return rows.length > 0;
}

export async function countOwners(tx: Sql, orgId: string): Promise<number> {
  const [row] = await tx<{ n: number }[]>`select count(*)::int as n from members where org_id = ${orgId} and role = 'owner'`;
  return row.n;
}

/** Insert a membership; an existing one is kept as it is (returns null then). */
export async function insertMember(tx: Sql, orgId: string, userId: string, role: Role): Promise<string | null> {
  const [row] = await tx<{ id: string }[]>`insert into members (id, org_id, user_id, role) values (${newId('mem')}, ${orgId}, ${userId}, ${role})
    on conflict (org_id, user_id) do nothing returning id`;
  return row?.id ?? null;
}

export async function updateMemberRole(tx: Sql, orgId: string, memberId: string, role: Role): Promise<void> {
  await tx`update members set role = ${role} where org_id = ${orgId} and id = ${memberId}`;
}

export async function deleteMember(tx: Sql, orgId: string, memberId: string): Promise<void> {
  await tx`delete from members where org_id = ${orgId} and id = ${memberId}`;
}

export async function listUserOrganizations(sql: Sql, userId: string): Promise<UserOrganizationRow[]> {
  return sql<UserOrganizationRow[]>`select o.id, o.name, o.slug, o.metadata, o.created_at as "createdAt", m.role, m.created_at as "joinedAt"
    from members m join organizations o on o.id = m.org_id
    where m.user_id = ${userId} order by m.created_at, o.id`;
}
