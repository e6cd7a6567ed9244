// Grants, codes and tokens. A grant is one consent (client, user, organization, scopes, resource); its single-use
// code, its chain of rotating refresh tokens and its access tokens (claim `gid`) live and die together: a code
// replay or a refresh-token reuse revokes the grant, and every Bearer request checks that its grant still stands.
import type { AppDeps } from '../deps.ts';
import {
  hashSecret,
  newId,
  newSecret,
  issueAccessToken,
  type AccessTokenClaims,
  effectiveScopes,
  GRANTABLE_SCOPES,
  type Role,
  findMembership,
  mcpAccess,
  consumeCode,
  findCode,
  findGrant,
  findRefreshToken,
  grantState,
  insertCode,
  insertGrant,
  insertRefreshToken,
  purgeExpiredOAuthSecrets,
  revokeGrant,
  useRefreshToken,
  type ClientRow,
  type GrantRow,
} from '../../runtime-api/index.ts';
import { tokenSettings, type TokenCheck } from '../auth/token-caller.ts';
import { OAuthError } from './errors.ts';
import { OAUTH_LIFETIMES } from './metadata.ts';
import { verifyS256 } from './pkce.ts';

type Deps = Pick<AppDeps, 'sql' | 'clock' | 'keys' | 'config'>;

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

/** What a consent may grant in an organization: requested ∩ role ∩ maxScopes, plus offline_access if asked. */
export function grantableScopes(requested: readonly string[], role: Role, maxScopes: readonly string[]): string[] {
  const resource = effectiveScopes(role, requested, maxScopes);
  if (!resource.length) return [];
  return requested.includes('offline_access') ? [...resource, 'offline_access'] : resource;
}

export function parseScopeParam(value: string | undefined): string[] {
  if (value === undefined) return [...GRANTABLE_SCOPES];
  const words = [...new Set(value.split(' ').filter(Boolean))];
  const unknown = words.find((w) => !(GRANTABLE_SCOPES as readonly string[]).includes(w));
  if (unknown !== undefined) throw new OAuthError('invalid_scope', `unknown scope ${unknown} (supported: ${GRANTABLE_SCOPES.join(' ')})`);
  if (!words.length) throw new OAuthError('invalid_scope', 'the scope parameter is empty');
  return words;
}

/** After consent: the grant and its code. Returns the code (only its hash is stored). */
export async function createAuthorization(
  deps: Deps,
  input: {
    client: ClientRow;
    userId: string;
    orgId: string;
    scopes: readonly string[];
    resource: string;
    redirectUri: string;
    codeChallenge: string;
  },
): Promise<string> {
  const now = deps.clock.now();
  const code = newSecret();
  await deps.sql.begin(async (tx) => {
    const sql = tx as unknown as Deps['sql'];
    const grant = await insertGrant(sql, {
      id: newId('grt'),
      clientId: input.client.clientId,
      userId: input.userId,
      orgId: input.orgId,
      scope: input.scopes.join(' '),
      resource: input.resource,
      createdAt: now,
    });
    await insertCode(sql, {
      codeHash: hashSecret(code),
      grantId: grant.id,
      clientId: input.client.clientId,
      redirectUri: input.redirectUri,
      codeChallenge: input.codeChallenge,
      createdAt: now,
      expiresAt: new Date(now.getTime() + OAUTH_LIFETIMES.codeMs),
    });
  });
  await purgeExpiredOAuthSecrets(deps.sql, new Date(now.getTime() - 86400_000));
  return code;
}

/** The grant still stands: not revoked, its user still a member, its organization's MCP access not revoked. */
async function assertGrantUsable(deps: Deps, grant: GrantRow): Promise<void> {
  if (grant.revokedAt) throw new OAuthError('invalid_grant', 'the grant was revoked');
  if (!(await findMembership(deps.sql, grant.userId, grant.orgId))) {
    throw new OAuthError('invalid_grant', 'the user is no longer a member of the organization this grant is for');
  }
  if ((await mcpAccess(deps.sql, grant.orgId)).state === 'revoked') {
    throw new OAuthError('invalid_grant', 'MCP access of the organization is revoked');
  }
}

function checkResource(grant: GrantRow, resource: string | undefined): void {
  if (resource === undefined) return;
  if (resource.replace(/\/+$/, '') !== grant.resource) {
    throw new OAuthError('invalid_target', `resource must be ${grant.resource}, the resource this grant was authorized for`);
  }
}

async function issueTokens(deps: Deps, grant: GrantRow, scopes: readonly string[], parentHash: string | null, sql = deps.sql): Promise<TokenResponse> {
  const now = deps.clock.now();
  let refreshToken: string | undefined;
  if (grant.scope.split(' ').includes('offline_access')) {
    refreshToken = newSecret();
    const absoluteEnd = grant.createdAt.getTime() + OAUTH_LIFETIMES.grantAbsoluteMs;
    await insertRefreshToken(sql, {
      tokenHash: hashSecret(refreshToken),
      grantId: grant.id,
      parentHash,
      createdAt: now,
      expiresAt: new Date(Math.min(now.getTime() + OAUTH_LIFETIMES.refreshMs, absoluteEnd)),
    });
  }
  const access = await issueAccessToken(deps.keys, tokenSettings(deps), deps.clock, {
    userId: grant.userId,
    orgId: grant.orgId,
    scopes,
    clientId: grant.clientId,
    grantId: grant.id,
    audience: grant.resource,
  });
  return {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: access.expiresIn,
    scope: scopes.join(' '),
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
  };
}

/** grant_type=authorization_code. Every check passes before the code is consumed; a used code revokes its grant. */
export async function exchangeCode(
  deps: Deps,
  client: ClientRow,
  params: { code?: string; redirectUri?: string; codeVerifier?: string; resource?: string },
): Promise<TokenResponse> {
  if (!params.code) throw new OAuthError('invalid_request', 'code is required');
  if (!params.redirectUri) throw new OAuthError('invalid_request', 'redirect_uri is required');
  if (!params.codeVerifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
  const now = deps.clock.now();
  const codeHash = hashSecret(params.code);
  const code = params.code.length <= 256 ? await findCode(deps.sql, codeHash) : null;
  if (!code) throw new OAuthError('invalid_grant', 'the authorization code is invalid');
  if (code.consumedAt) {
    await revokeGrant(deps.sql, code.grantId, 'code_replay', now);
    throw new OAuthError('invalid_grant', 'the authorization code was already used; the tokens issued for it are revoked');
  }
  if (code.expiresAt.getTime() <= now.getTime()) throw new OAuthError('invalid_grant', 'the authorization code has expired');
  if (code.clientId !== client.clientId) throw new OAuthError('invalid_grant', 'the authorization code was issued to another client');
  if (code.redirectUri !== params.redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri differs from the one of the authorization request');
  if (!verifyS256(params.codeVerifier, code.codeChallenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
  const grant = await findGrant(deps.sql, code.grantId);
  if (!grant) throw new OAuthError('invalid_grant', 'the authorization code is invalid');
  checkResource(grant, params.resource);
  await assertGrantUsable(deps, grant);
  if (!(await consumeCode(deps.sql, codeHash, now))) {
    await revokeGrant(deps.sql, code.grantId, 'code_replay', now);
    throw new OAuthError('invalid_grant', 'the authorization code was already used; the tokens issued for it are revoked');
  }
  return issueTokens(deps, grant, grant.scope.split(' '), null);
}

/** grant_type=refresh_token: rotation; presenting a rotated token again revokes the grant (reuse detection). */
export async function refreshTokens(
  deps: Deps,
  client: ClientRow,
  params: { refreshToken?: string; scope?: string; resource?: string },
): Promise<TokenResponse> {
  if (!params.refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required');
  const now = deps.clock.now();
  const tokenHash = hashSecret(params.refreshToken);
  const row = params.refreshToken.length <= 256 ? await findRefreshToken(deps.sql, tokenHash) : null;
  if (!row) throw new OAuthError('invalid_grant', 'the refresh token is invalid');
  const grant = await findGrant(deps.sql, row.grantId);
  if (!grant || grant.clientId !== client.clientId) throw new OAuthError('invalid_grant', 'the refresh token is invalid');
  if (row.usedAt) {
    await revokeGrant(deps.sql, grant.id, 'refresh_reuse', now);
    throw new OAuthError('invalid_grant', 'the refresh token was already used; the grant is revoked');
  }
  if (row.expiresAt.getTime() <= now.getTime()) throw new OAuthError('invalid_grant', 'the refresh token has expired');
  const granted = grant.scope.split(' ');
  let scopes = granted;
  if (params.scope !== undefined) {
    const asked = [...new Set(params.scope.split(' ').filter(Boolean))];
    const wider = asked.find((s) => !granted.includes(s));
    if (wider !== undefined) throw new OAuthError('invalid_scope', `the scope ${wider} was not granted; ask for a subset of "${grant.scope}"`);
    if (!asked.length) throw new OAuthError('invalid_scope', 'the scope parameter is empty');
    scopes = asked;
  }
  checkResource(grant, params.resource);
  await assertGrantUsable(deps, grant);
  return deps.sql.begin(async (tx) => {
    const sql = tx as unknown as Deps['sql'];
    if (!(await useRefreshToken(sql, tokenHash, now))) {
      await revokeGrant(deps.sql, grant.id, 'refresh_reuse', now);
      throw new OAuthError('invalid_grant', 'the refresh token was already used; the grant is revoked');
    }
    return issueTokens(deps, grant, scopes, tokenHash, sql);
  }) as Promise<TokenResponse>;
}

/** RFC 7009: revoke the grant behind a refresh token or an access token of this client; unknown tokens are ignored. */
export async function revokeToken(deps: Deps, client: ClientRow, token: string, verify: (token: string) => Promise<AccessTokenClaims | null>): Promise<void> {
  const now = deps.clock.now();
  if (token.length <= 256) {
    const row = await findRefreshToken(deps.sql, hashSecret(token));
    if (row) {
      const grant = await findGrant(deps.sql, row.grantId);
      if (grant && grant.clientId === client.clientId) await revokeGrant(deps.sql, grant.id, 'revoked_by_client', now);
      return;
    }
  }
  const claims = await verify(token);
  if (claims?.gid && claims.client_id === client.clientId) await revokeGrant(deps.sql, claims.gid, 'revoked_by_client', now);
}

/** Bearer check: an access token from a grant works only while that grant stands. */
export function grantCheck(deps: Pick<AppDeps, 'sql'>): TokenCheck {
  return async (claims) => {
    if (!claims.gid) return null;
    const state = await grantState(deps.sql, claims.gid);
    return state === 'active' ? null : 'the grant behind this token was revoked';
  };
}
