// Sessions: a row per signed-in browser, found by the SHA-256 of its cookie value. Expired rows stay for a while so
// that an expired cookie can be told apart from an unknown one (SESSION_EXPIRED vs plain 401).
import type { Sql } from 'postgres';
import type { Role } from '../identity/scopes.ts';

export interface SessionRow {
  id: string;
  userId: string;
  activeOrgId: string | null;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date;
}

/** A session joined with its user and the membership it acts on (the active organization's, else the first). */
export interface ResolvedSessionRow extends SessionRow {
  email: string;
  name: string;
  image: string | null;
  memberId: string | null;
  memberOrgId: string | null;
  memberRole: Role | null;
}

export async function insertSession(
  sql: Sql,
  row: { id: string; tokenHash: string; userId: string; activeOrgId: string | null; now: Date; expiresAt: Date },
): Promise<SessionRow> {
  const [session] = await sql<SessionRow[]>`insert into sessions (id, token_hash, user_id, active_org_id, created_at, expires_at, last_used_at)
    values (${row.id}, ${row.tokenHash}, ${row.userId}, ${row.activeOrgId}, ${row.now}, ${row.expiresAt}, ${row.now})
    returning id, user_id as "userId", active_org_id as "activeOrgId", created_at as "createdAt",
      expires_at as "expiresAt", last_used_at as "lastUsedAt"`;
  return session;
}

export async function findSessionByTokenHash(sql: Sql, tokenHash: string): Promise<ResolvedSessionRow | null> {
  const [row] = await sql<ResolvedSessionRow[]>`
    select s.id, s.user_id as "userId", s.active_org_id as "activeOrgId", s.created_at as "createdAt",
      s.expires_at as "expiresAt", s.last_used_at as "lastUsedAt",
      u.email::text as email, u.name, u.image,
      m.id as "memberId", m.org_id as "memberOrgId", m.role as "memberRole"
    from sessions s
    join users u on u.id = s.user_id
    left join lateral (
      select id, org_id, role from members
      where user_id = s.user_id
      order by (org_id = s.active_org_id) is true desc, created_at, id
      limit 1
    ) m on true
    where s.token_hash = ${tokenHash}`;
  return row ?? null;
}

/** Sliding expiry: push `expires_at` forward. */
export async function touchSession(sql: Sql, id: string, now: Date, expiresAt: Date): Promise<void> {
  await sql`update sessions set last_used_at = ${now}, expires_at = ${expiresAt} where id = ${id} and expires_at > ${now}`;
}

export async function setActiveOrganization(sql: Sql, id: string, orgId: string | null): Promise<void> {
  await sql`update sessions set active_org_id = ${orgId} where id = ${id}`;
}

/** Sign-out. Returns whether a row was deleted. */
export async function deleteSessionByTokenHash(sql: Sql, tokenHash: string): Promise<boolean> {
  const rows = await sql`delete from sessions where token_hash = ${tokenHash} returning id`;
  return rows.length > 0;
}

/** Forget sessions that expired long ago (after that an old cookie is simply unknown). */
export async function purgeExpiredSessions(sql: Sql, before: Date): Promise<number> {
  const rows = await sql`delete from sessions where expires_at < ${before} returning id`;
  return rows.length;
}
