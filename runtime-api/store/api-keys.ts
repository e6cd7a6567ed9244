// Organization API keys (migrations/0010): rows keyed by id, looked up by the SHA-256 of the secret. A lookup also
// records the use, in the same statement, so `lastUsedAt` costs no extra round trip on the request path.
import type { Sql } from 'postgres';

export interface ApiKeyRow {
  id: string;
  orgId: string;
  createdBy: string;
  createdByEmail: string;
  name: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

const COLUMNS = (sql: Sql) => sql`k.id, k.org_id as "orgId", k.created_by as "createdBy", u.email::text as "createdByEmail", k.name,
  k.scopes, k.created_at as "createdAt", k.expires_at as "expiresAt", k.revoked_at as "revokedAt", k.last_used_at as "lastUsedAt"`;

export async function insertApiKey(
  sql: Sql,
  row: { id: string; orgId: string; createdBy: string; name: string; scopes: readonly string[]; secretHash: string; now: Date; expiresAt: Date },
): Promise<ApiKeyRow> {
  await sql`insert into api_keys (id, org_id, created_by, name, scopes, secret_hash, created_at, expires_at)
    values (${row.id}, ${row.orgId}, ${row.createdBy}, ${row.name}, ${sql.array([...row.scopes])}, ${row.secretHash}, ${row.now}, ${row.expiresAt})`;
  return (await findApiKey(sql, row.orgId, row.id))!;
}

export async function findApiKey(sql: Sql, orgId: string, id: string): Promise<ApiKeyRow | null> {
  const [row] = await sql<ApiKeyRow[]>`select ${COLUMNS(sql)} from api_keys k join users u on u.id = k.created_by
    where k.org_id = ${orgId} and k.id = ${id}`;
  return row ?? null;
}

/** Newest first; revoked and expired keys stay listed (with their dates) so an admin sees what ended when. */
export async function listApiKeys(sql: Sql, orgId: string): Promise<ApiKeyRow[]> {
  return sql<ApiKeyRow[]>`select ${COLUMNS(sql)} from api_keys k join users u on u.id = k.created_by
    where k.org_id = ${orgId} order by k.created_at desc, k.id`;
}

/** Revoke once; revoking a revoked key keeps its first revocation date. Null when the key is not the org's. */
export async function revokeApiKey(sql: Sql, orgId: string, id: string, now: Date): Promise<ApiKeyRow | null> {
  await sql`update api_keys set revoked_at = coalesce(revoked_at, ${now}) where org_id = ${orgId} and id = ${id}`;
  return findApiKey(sql, orgId, id);
}

/** The live key with this secret hash, its use recorded; null when unknown, revoked or expired. */
export async function useApiKey(
  sql: Sql,
  secretHash: string,
  now: Date,
): Promise<{ id: string; orgId: string; createdBy: string; scopes: string[]; createdAt: Date; expiresAt: Date } | null> {
  const [row] = await sql<{ id: string; orgId: string; createdBy: string; scopes: string[]; createdAt: Date; expiresAt: Date }[]>`
    update api_keys set last_used_at = ${now}
    where secret_hash = ${secretHash} and revoked_at is null and expires_at > ${now}
    returning id, org_id as "orgId", created_by as "createdBy", scopes, created_at as "createdAt", expires_at as "expiresAt"`;
  return row ?? null;
}
