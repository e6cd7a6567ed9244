// Organization API keys: long-lived Bearer credentials for CI jobs and headless agents. The secret is 256 random
// bits behind a recognisable prefix (so the auth layer knows it is not a JWT, and secret scanners can spot a leak);
// only its SHA-256 is stored. A key acts as the admin who created it, with scopes never beyond the creator's, the
// caller's, or the organization's maxScopes at creation, and intersected again with the ceiling on every use.
import type { Sql } from 'postgres';
import { API_KEY_CLIENT_ID, isApiKeyCaller, type Caller } from './caller.ts';
import type { Clock } from '../clock.ts';
import { hashSecret, newId, newSecret } from '../ids.ts';
import { SCOPES, parseScopes, type Scope } from './scopes.ts';
import { mcpAccess } from '../store/organizations.ts';
import { insertApiKey, revokeApiKey, useApiKey, type ApiKeyRow } from '../store/api-keys.ts';
import type { AccessTokenClaims } from './access-tokens.ts';
import { apiKeyCannotCreateKeys, apiKeyNotFound, apiKeyScopesBeyond } from './messages.ts';

export const API_KEY_PREFIX = 'slk_';
export const DEFAULT_API_KEY_DAYS = 90;
export const MAX_API_KEY_DAYS = 365;

export function isApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

export function apiKeyView(row: ApiKeyRow, now: Date) {
  const state = row.revokedAt ? 'revoked' : row.expiresAt <= now ? 'expired' : 'active';
  return {
    id: row.id,
    keyId: row.id,
    name: row.name,
    scopes: parseScopes(row.scopes),
    state,
    createdBy: row.createdByEmail,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  } as const;
}

export async function createApiKey(sql: Sql, clock: Clock, caller: Caller, input: { name: string; scopes: readonly Scope[]; expiresInDays?: number }) {
  const orgId = caller.membership!.orgId;
  // A key minting keys would outlive the key itself: only people (sessions, OAuth tokens) create keys.
  if (isApiKeyCaller(caller)) throw apiKeyCannotCreateKeys();
  const ceiling = (await mcpAccess(sql, orgId)).maxScopes;
  const allowed = SCOPES.filter((s) => caller.scopes.includes(s) && ceiling.includes(s));
  const beyond = input.scopes.filter((s) => !allowed.includes(s));
  if (beyond.length) throw apiKeyScopesBeyond(beyond, allowed);
  const secret = `${API_KEY_PREFIX}${newSecret()}`;
  const now = clock.now();
  const days = input.expiresInDays ?? DEFAULT_API_KEY_DAYS;
  const row = await insertApiKey(sql, {
    id: newId('key'),
    orgId,
    createdBy: caller.userId,
    name: input.name,
    scopes: SCOPES.filter((s) => input.scopes.includes(s)),
    secretHash: hashSecret(secret),
    now,
    expiresAt: new Date(now.getTime() + days * 86_400_000),
  });
  return { ...apiKeyView(row, now), key: secret };
}

export async function revokeKey(sql: Sql, clock: Clock, caller: Caller, keyId: string) {
  const row = await revokeApiKey(sql, caller.membership!.orgId, keyId, clock.now());
  if (!row) throw apiKeyNotFound(keyId);
  return apiKeyView(row, clock.now());
}

/**
 * The claims an API key stands for, shaped as an access token's so that the rest of the Bearer path (membership,
 * ceiling, revocation, scopes) is the same code for both. Null for an unknown, revoked or expired key.
 */
export async function apiKeyClaims(sql: Sql, clock: Clock, token: string): Promise<AccessTokenClaims | null> {
  const row = await useApiKey(sql, hashSecret(token), clock.now());
  if (!row) return null;
  return {
    sub: row.createdBy,
    org: row.orgId,
    scope: row.scopes.join(' '),
    client_id: API_KEY_CLIENT_ID,
    jti: row.id,
    iat: Math.floor(row.createdAt.getTime() / 1000),
    exp: Math.floor(row.expiresAt.getTime() / 1000),
  };
}
