// OAuth authorization-server storage: registered clients, grants (token families), single-use authorization codes
// and rotating refresh tokens. Single use is enforced by conditional UPDATEs (one winner), never read-then-write.
import type { Sql } from 'postgres';

export interface ClientRow {
  clientId: string;
  clientName: string | null;
  redirectUris: string[];
  grantTypes: string[];
  responseTypes: string[];
  tokenEndpointAuthMethod: 'none';
  applicationType: 'native' | 'web';
  scope: string | null;
  metadata: Record<string, unknown>;
  createdAt: Date;
}

export interface GrantRow {
  id: string;
  clientId: string;
  userId: string;
  orgId: string;
  scope: string;
  resource: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface CodeRow {
  codeHash: string;
  grantId: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  expiresAt: Date;
  consumedAt: Date | null;
}

export interface RefreshTokenRow {
  tokenHash: string;
  grantId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

const CLIENT_COLUMNS = (sql: Sql) => sql`client_id as "clientId", client_name as "clientName", redirect_uris as "redirectUris",
  grant_types as "grantTypes", response_types as "responseTypes", token_endpoint_auth_method as "tokenEndpointAuthMethod",
  application_type as "applicationType", scope, metadata, created_at as "createdAt"`;

const GRANT_COLUMNS = (sql: Sql) => sql`id, client_id as "clientId", user_id as "userId", org_id as "orgId", scope, resource,
  created_at as "createdAt", revoked_at as "revokedAt"`;

export async function insertClient(sql: Sql, row: Omit<ClientRow, 'tokenEndpointAuthMethod'>): Promise<ClientRow> {
  const [client] = await sql<ClientRow[]>`insert into oauth_clients
      (client_id, client_name, redirect_uris, grant_types, response_types, application_type, scope, metadata, created_at)
    values (${row.clientId}, ${row.clientName}, ${row.redirectUris}, ${row.grantTypes}, ${row.responseTypes}, ${row.applicationType},
      ${row.scope}, ${sql.json(row.metadata as never)}, ${row.createdAt})
    returning ${CLIENT_COLUMNS(sql)}`;
  return client;
}

export async function findClient(sql: Sql, clientId: string): Promise<ClientRow | null> {
  if (!clientId || clientId.length > 200) return null;
  const [row] = await sql<ClientRow[]>`select ${CLIENT_COLUMNS(sql)} from oauth_clients where client_id = ${clientId}`;
  return row ?? null;
}

export async function insertGrant(sql: Sql, row: Omit<GrantRow, 'revokedAt'>): Promise<GrantRow> {
  const [grant] = await sql<GrantRow[]>`insert into oauth_grants (id, client_id, user_id, org_id, scope, resource, created_at)
    values (${row.id}, ${row.clientId}, ${row.userId}, ${row.orgId}, ${row.scope}, ${row.resource}, ${row.createdAt})
    returning ${GRANT_COLUMNS(sql)}`;
  return grant;
}

export async function findGrant(sql: Sql, id: string): Promise<GrantRow | null> {
  const [row] = await sql<GrantRow[]>`select ${GRANT_COLUMNS(sql)} from oauth_grants where id = ${id}`;
  return row ?? null;
}

/** Revoke a grant (its codes, refresh tokens and, through the `gid` check, its access tokens). Idempotent. */
export async function revokeGrant(sql: Sql, id: string, reason: string, now: Date): Promise<void> {
  await sql`update oauth_grants set revoked_at = ${now}, revoked_reason = ${reason} where id = ${id} and revoked_at is null`;
}

/** `active`, `revoked`, or `missing` (deleted with its client, user or organization). */
export async function grantState(sql: Sql, id: string): Promise<'active' | 'revoked' | 'missing'> {
  const [row] = await sql<{ revoked: boolean }[]>`select revoked_at is not null as revoked from oauth_grants where id = ${id}`;
  return !row ? 'missing' : row.revoked ? 'revoked' : 'active';
}

export async function insertCode(sql: Sql, row: Omit<CodeRow, 'consumedAt'> & { createdAt: Date }): Promise<void> {
  await sql`insert into oauth_codes (code_hash, grant_id, client_id, redirect_uri, code_challenge, created_at, expires_at)
    values (${row.codeHash}, ${row.grantId}, ${row.clientId}, ${row.redirectUri}, ${row.codeChallenge}, ${row.createdAt}, ${row.expiresAt})`;
}

export async function findCode(sql: Sql, codeHash: string): Promise<CodeRow | null> {
  const [row] = await sql<CodeRow[]>`select code_hash as "codeHash", grant_id as "grantId", client_id as "clientId",
    redirect_uri as "redirectUri", code_challenge as "codeChallenge", expires_at as "expiresAt", consumed_at as "consumedAt"
    from oauth_codes where code_hash = ${codeHash}`;
  return row ?? null;
}

/** Mark the code used; true for exactly one caller, false when it was already used (a replay or a lost race). */
export async function consumeCode(sql: Sql, codeHash: string, now: Date): Promise<boolean> {
  const rows = await sql`update oauth_codes set consumed_at = ${now} where code_hash = ${codeHash} and consumed_at is null returning code_hash`;
  return rows.length === 1;
}

export async function insertRefreshToken(
  sql: Sql,
  row: { tokenHash: string; grantId: string; parentHash: string | null; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await sql`insert into oauth_refresh_tokens (token_hash, grant_id, parent_hash, created_at, expires_at)
    values (${row.tokenHash}, ${row.grantId}, ${row.parentHash}, ${row.createdAt}, ${row.expiresAt})`;
}

export async function findRefreshToken(sql: Sql, tokenHash: string): Promise<RefreshTokenRow | null> {
  const [row] = await sql<RefreshTokenRow[]>`select token_hash as "tokenHash", grant_id as "grantId", expires_at as "expiresAt", used_at as "usedAt"
    from oauth_refresh_tokens where token_hash = ${tokenHash}`;
  return row ?? null;
}

/** Rotate away a refresh token; true for exactly one caller. */
export async function useRefreshToken(sql: Sql, tokenHash: string, now: Date): Promise<boolean> {
  const rows = await sql`update oauth_refresh_tokens set used_at = ${now} where token_hash = ${tokenHash} and used_at is null returning token_hash`;
  return rows.length === 1;
}

/** Forget codes and refresh tokens that expired before `before` (kept a while so a late replay is still recognised). */
export async function purgeExpiredOAuthSecrets(sql: Sql, before: Date): Promise<void> {
  await sql`delete from oauth_codes where expires_at < ${before}`;
  await sql`delete from oauth_refresh_tokens where expires_at < ${before}`;
}

export interface OrgGrantRow {
  id: string;
  clientId: string;
  clientName: string | null;
  userEmail: string;
  scope: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/**
 * The organization's standing grants (consents that still hold tokens), newest first. Last use is the latest refresh
 * or script execution by that client for that user here: access tokens themselves are verified without a write.
 */
export async function listOrgGrants(sql: Sql, orgId: string): Promise<OrgGrantRow[]> {
  return sql<OrgGrantRow[]>`select g.id, g.client_id as "clientId", c.client_name as "clientName", u.email::text as "userEmail", g.scope,
      g.created_at as "createdAt",
      nullif(greatest(
        coalesce((select max(r.created_at) from oauth_refresh_tokens r where r.grant_id = g.id and r.parent_hash is not null), '-infinity'),
        coalesce((select max(e.created_at) from executions e where e.org_id = g.org_id and e.user_id = g.user_id and e.client_id = g.client_id and e.created_at >= g.created_at), '-infinity')
      ), '-infinity') as "lastUsedAt"
    from oauth_grants g join oauth_clients c on c.client_id = g.client_id join users u on u.id = g.user_id
    where g.org_id = ${orgId} and g.revoked_at is null order by g.created_at desc, g.id`;
}

/** Revoke a grant of this organization; false when it is unknown here or already revoked. */
export async function revokeOrgGrant(sql: Sql, orgId: string, id: string, reason: string, now: Date): Promise<boolean> {
  const rows = await sql`update oauth_grants set revoked_at = ${now}, revoked_reason = ${reason}
    where id = ${id} and org_id = ${orgId} and revoked_at is null returning id`;
  return rows.length === 1;
}
