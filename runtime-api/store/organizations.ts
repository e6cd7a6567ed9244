// Organizations, their members, and their MCP access record.
import type { Sql } from 'postgres';
import { newId } from '../ids.ts';
import type { Role } from '../identity/scopes.ts';

export interface OrganizationRow {
  id: string;
  name: string;
  slug: string;
  metadata: Record<string, unknown>;
  createdAt: Date;
}
export interface MembershipRow {
  memberId: string;
  orgId: string;
  userId: string;
  role: Role;
}
export interface McpAccessRow {
  orgId: string;
  state: 'testing' | 'active' | 'revoked';
  maxScopes: string[];
}

export async function findOrganization(sql: Sql, id: string): Promise<OrganizationRow | null> {
  const [row] = await sql<OrganizationRow[]>`select id, name, slug, metadata, created_at as "createdAt" from organizations where id = ${id}`;
  return row ?? null;
}

export async function findOrganizationBySlug(sql: Sql, slug: string): Promise<OrganizationRow | null> {
  const [row] = await sql<OrganizationRow[]>`select id, name, slug, metadata, created_at as "createdAt" from organizations where slug = ${slug}`;
  return row ?? null;
}

export interface NewOrganization {
  name: string;
  slug: string;
  ownerId: string;
  metadata?: Record<string, unknown>;
  createdAt?: Date;
}

/** Create an organization with `ownerId` as its owner (and creator), in one transaction. A taken slug raises 23505 (→ conflict). */
export async function createOrganization(sql: Sql, input: NewOrganization): Promise<OrganizationRow> {
  return sql.begin((tx) => insertOrganization(tx as unknown as Sql, input)) as Promise<OrganizationRow>;
}

/** The inserts of createOrganization, inside the caller's transaction. */
export async function insertOrganization(tx: Sql, input: NewOrganization): Promise<OrganizationRow> {
  const [org] = await tx<OrganizationRow[]>`insert into organizations (id, name, slug, metadata, created_by, created_at)
    values (${newId('org')}, ${input.name}, ${input.slug}, ${tx.json((input.metadata ?? {}) as never)}, ${input.ownerId}, ${input.createdAt ?? new Date()})
    returning id, name, slug, metadata, created_at as "createdAt"`;
  await tx`insert into members (id, org_id, user_id, role) values (${newId('mem')}, ${org.id}, ${input.ownerId}, 'owner')`;
  return org;
}

/** Organizations `userId` created: in all, and since `since` (the oldest of those first, to say when one frees up). */
export async function organizationsCreatedBy(sql: Sql, userId: string, since: Date): Promise<{ total: number; recent: number; oldestRecent: Date | null }> {
  const [row] = await sql<{ total: number; recent: number; oldestRecent: Date | null }[]>`
    select count(*)::int as total, (count(*) filter (where created_at >= ${since}))::int as recent,
      min(created_at) filter (where created_at >= ${since}) as "oldestRecent"
    from organizations where created_by = ${userId}`;
  return row;
}

export async function findMembership(sql: Sql, userId: string, orgId: string): Promise<MembershipRow | null> {
  const [row] = await sql<MembershipRow[]>`select id as "memberId", org_id as "orgId", user_id as "userId", role
    from members where user_id = ${userId} and org_id = ${orgId}`;
  return row ?? null;
}

/** The organization's MCP access record, created in state `testing` on first check (spec section 3). */
export async function mcpAccess(sql: Sql, orgId: string): Promise<McpAccessRow> {
  const [row] = await sql<McpAccessRow[]>`
    with ins as (
      insert into org_mcp_access (org_id) values (${orgId}) on conflict (org_id) do nothing
      returning org_id, state, max_scopes)
    select org_id as "orgId", state, max_scopes as "maxScopes" from ins
    union all
    select org_id, state, max_scopes from org_mcp_access where org_id = ${orgId}
    limit 1`;
  if (row) return row;
  // A concurrent first check inserted the row after this statement's snapshot: the insert above then did nothing and
  // the select could not see it. A new statement does.
  const [committed] = await sql<McpAccessRow[]>`
    select org_id as "orgId", state, max_scopes as "maxScopes" from org_mcp_access where org_id = ${orgId}`;
  if (!committed) throw new Error(`no MCP access record for organization ${orgId}`);
  return committed;
}

/** A token's subject in one query: the user, its membership of `orgId` (or null), and the org's MCP access record
 * (null until the first check creates it). Null when the user no longer exists. */
export async function tokenSubject(
  sql: Sql,
  userId: string,
  orgId: string,
): Promise<{
  user: { id: string; email: string };
  membership: MembershipRow | null;
  mcp: McpAccessRow | null;
} | null> {
  const [row] = await sql`
    select u.id, u.email::text as email, m.id as member_id, m.role, a.state, a.max_scopes
    from users u
    left join members m on m.user_id = u.id and m.org_id = ${orgId}
    left join org_mcp_access a on a.org_id = ${orgId}
    where u.id = ${userId}`;
  if (!row) return null;
  return {
    user: { id: row.id, email: row.email },
    membership: row.member_id ? { memberId: row.member_id, orgId, userId, role: row.role } : null,
    mcp: row.state ? { orgId, state: row.state, maxScopes: row.max_scopes } : null,
  };
}
