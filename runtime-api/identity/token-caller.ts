// A bearer credential (an OAuth access token or an organization API key) → the Caller it stands for. The user, the
// active membership and the organization's MCP ceiling are read from the database on every request, so a removed
// member, a lowered ceiling or a revocation takes effect at once.
import type { Sql } from 'postgres';
import type { Clock } from '../clock.ts';
import type { Locale } from '../errors.ts';
import type { Caller } from './caller.ts';
import { verifyAccessToken, InvalidTokenError, type AccessTokenClaims, type TokenSettings } from './access-tokens.ts';
import { apiKeyClaims, isApiKey } from './api-keys.ts';
import { effectiveScopes } from './scopes.ts';
import type { SigningKeys } from './signing-keys.ts';
import { mcpAccess, tokenSubject, type McpAccessRow } from '../store/organizations.ts';
import { mcpAccessRevoked, tokenMembershipLost, type BearerCredential } from './messages.ts';

export interface TokenCaller {
  caller: Caller;
  claims: AccessTokenClaims;
  mcp: McpAccessRow;
}

/** A credential refused for `reason` (English, as `WWW-Authenticate` carries it): the HTTP face answers 401. */
export class CredentialRefused extends Error {
  readonly reason: string;
  /** Which kind was refused: the resolution says how to get a new one of that kind. */
  readonly credential: BearerCredential;
  constructor(reason: string, credential: BearerCredential) {
    super(reason);
    this.reason = reason;
    this.credential = credential;
    this.name = 'CredentialRefused';
  }
}

/** Extra checks on a verified token (the OAuth server adds grant revocation): a reason to refuse it, or null. */
export type TokenCheck = (claims: AccessTokenClaims) => Promise<string | null>;

export interface TokenCallerDeps {
  sql: Sql;
  clock: Clock;
  keys: SigningKeys;
  settings: TokenSettings;
}

export async function resolveTokenCaller(deps: TokenCallerDeps, token: string, locale: Locale, checks: readonly TokenCheck[] = []): Promise<TokenCaller> {
  const credential: BearerCredential = isApiKey(token) ? 'api-key' : 'access-token';
  const claims = await claimsOf(deps, token, credential);
  for (const check of checks) {
    const problem = await check(claims);
    if (problem) throw new CredentialRefused(problem, credential);
  }
  // One round trip on the hot path: the user, the membership and the MCP access record together.
  const found = await tokenSubject(deps.sql, claims.sub, claims.org);
  if (!found) throw new CredentialRefused("the token's user no longer exists", credential);
  const { user, membership } = found;
  if (!membership) throw tokenMembershipLost(credential);
  const mcp = found.mcp ?? (await mcpAccess(deps.sql, claims.org));
  // Every token caller passes here, whatever the route (MCP, transfers, /app/v1, organizations): a revoked
  // organization's tokens are refused everywhere, not only where one route remembered to look.
  if (mcp.state === 'revoked') throw mcpAccessRevoked(credential);
  return {
    claims,
    mcp,
    caller: {
      kind: 'token',
      userId: user.id,
      email: user.email,
      membership: { orgId: membership.orgId, memberId: membership.memberId, role: membership.role },
      scopes: effectiveScopes(membership.role, claims.scope.split(' '), mcp.maxScopes),
      locale,
      clientId: claims.client_id,
      credentialId: claims.jti,
    },
  };
}

/** An organization API key stands for claims like a JWT's, so everything after this applies to both alike. */
async function claimsOf(deps: TokenCallerDeps, token: string, credential: BearerCredential): Promise<AccessTokenClaims> {
  if (credential === 'api-key') {
    const found = await apiKeyClaims(deps.sql, deps.clock, token);
    if (!found) throw new CredentialRefused('unknown, expired or revoked API key', credential);
    return found;
  }
  try {
    return await verifyAccessToken(deps.keys, deps.settings, deps.clock, token);
  } catch (err) {
    if (err instanceof InvalidTokenError) throw new CredentialRefused(err.message, credential);
    throw err;
  }
}
