// Bearer token → Caller: verify the JWT, then resolve the user, the active membership and the organization's MCP
// ceiling from the database on every request (a removed member, a lowered ceiling or a revocation takes effect at once).
import { ServiceError, l10n, type Locale, type Caller, verifyAccessToken, InvalidTokenError, mcpAudiences, type AccessTokenClaims, mcpAccess, tokenSubject, type McpAccessRow, effectiveScopes, apiKeyClaims, isApiKey } from '../../runtime-api/index.ts';
import type { AppDeps } from '../deps.ts';

export interface TokenCaller {
  caller: Caller;
  claims: AccessTokenClaims;
  mcp: McpAccessRow;
}

export function tokenSettings(deps: Pick<AppDeps, 'config'>) {
  return { issuer: deps.config.publicBaseUrl, audiences: mcpAudiences(deps.config.publicBaseUrl), ttlSeconds: deps.config.accessTokenTtlSeconds };
}

/** The protected resource a request path belongs to: the `/mcp` alias, else `/v1/mcp` (RFC 9728 metadata per path). */
export function resourcePathOf(requestPath = ''): '/mcp' | '/v1/mcp' {
  return requestPath === '/mcp' || requestPath.startsWith('/mcp/') ? '/mcp' : '/v1/mcp';
}

export function wwwAuthenticate(deps: Pick<AppDeps, 'config'>, extra = '', requestPath?: string): string {
  const metadata = `${deps.config.publicBaseUrl}/.well-known/oauth-protected-resource${resourcePathOf(requestPath)}`;
  return `Bearer resource_metadata="${metadata}"${extra}`;
}

/** The pt-BR wording of each reason a token is refused (the English one also goes into `WWW-Authenticate`). */
const REASONS_PT: Record<string, string> = {
  'malformed token': 'o token está malformado',
  'missing claims': 'faltam claims no token',
  'token expired': 'o token expirou',
  'token verification failed': 'a verificação do token falhou',
  'unexpected token type': 'o tipo do token é inesperado',
  'unknown signing key': 'a chave de assinatura é desconhecida',
  'the grant behind this token was revoked': 'a autorização por trás deste token foi revogada',
  'the token\'s user no longer exists': 'o usuário do token não existe mais',
  'the Authorization header is not a Bearer token': 'o cabeçalho Authorization não traz um token Bearer',
  'this route needs a signed-in session': 'esta rota exige uma sessão autenticada',
  'a Bearer access token is required': 'é preciso um token de acesso Bearer',
  'this route needs a Bearer access token': 'esta rota exige um token de acesso Bearer',
  'unknown, expired or revoked API key': 'a chave de API é desconhecida, expirou ou foi revogada',
};

/** 401; `error="invalid_token"` only when a token was actually sent (RFC 6750 section 3.1). */
export function unauthorized(deps: Pick<AppDeps, 'config'>, reason: string, requestPath?: string, tokenSent = true): ServiceError {
  const reasonPt = REASONS_PT[reason] ?? 'o token foi recusado';
  return new ServiceError('unauthorized', {
    resolution: l10n(`${reason}. Obtain a new access token through the authorization server and send it as Authorization: Bearer <token>.`,
      `${reasonPt[0]!.toUpperCase()}${reasonPt.slice(1)}. Obtenha um novo token de acesso pelo servidor de autorização e envie-o como Authorization: Bearer <token>.`),
    headers: { 'WWW-Authenticate': wwwAuthenticate(deps, tokenSent ? `, error="invalid_token", error_description="${reason}"` : '', requestPath) },
  });
}

/** Extra checks on a verified token (the OAuth server adds grant revocation). */
export type TokenCheck = (claims: AccessTokenClaims) => Promise<string | null>;

export async function callerFromToken(deps: AppDeps, token: string, locale: Locale, checks: readonly TokenCheck[] = [], requestPath?: string): Promise<TokenCaller> {
  let claims: AccessTokenClaims;
  if (isApiKey(token)) {
    // An organization API key stands for claims like a JWT's, so everything below applies to both alike.
    const found = await apiKeyClaims(deps.sql, deps.clock, token);
    if (!found) throw unauthorized(deps, 'unknown, expired or revoked API key', requestPath);
    claims = found;
  } else {
    try {
      claims = await verifyAccessToken(deps.keys, tokenSettings(deps), deps.clock, token);
    } catch (err) {
      if (err instanceof InvalidTokenError) throw unauthorized(deps, err.message, requestPath);
      throw err;
    }
  }
  for (const check of checks) {
    const problem = await check(claims);
    if (problem) throw unauthorized(deps, problem, requestPath);
  }
  // One round trip on the hot path: the user, the membership and the MCP access record together.
  const found = await tokenSubject(deps.sql, claims.sub, claims.org);
  if (!found) throw unauthorized(deps, 'the token\'s user no longer exists', requestPath);
  const { user, membership } = found;
  if (!membership) {
    throw new ServiceError('ORGANIZATION_MEMBERSHIP_REQUIRED', {
      resolution: l10n('The token\'s user is no longer a member of its organization; sign in again and pick an organization you belong to.',
        'O usuário do token não é mais membro da organização dele; entre de novo e escolha uma organização da qual você faz parte.'),
    });
  }
  const mcp = found.mcp ?? await mcpAccess(deps.sql, claims.org);
  // Every token caller passes here, whatever the route (MCP, transfers, /app/v1, organizations): a revoked
  // organization's tokens are refused everywhere, not only where one route remembered to look.
  if (mcp.state === 'revoked') throw mcpAccessRevoked();
  const scopes = effectiveScopes(membership.role, claims.scope.split(' '), mcp.maxScopes);
  return {
    claims,
    mcp,
    caller: {
      kind: 'token',
      userId: user.id,
      email: user.email,
      membership: { orgId: membership.orgId, memberId: membership.memberId, role: membership.role },
      scopes,
      locale,
      clientId: claims.client_id,
      credentialId: claims.jti,
    },
  };
}

export function mcpAccessRevoked(): ServiceError {
  return new ServiceError('MCP_ACCESS_REVOKED', {
    resolution: l10n('The organization\'s owners revoked access for access tokens; an owner or admin can restore it with mcp_access_set (POST /auth/organization/set-mcp-access) from a signed-in session.',
      'Os proprietários da organização revogaram o acesso por tokens; um proprietário ou administrador pode restaurá-lo com mcp_access_set (POST /auth/organization/set-mcp-access) a partir de uma sessão autenticada.'),
  });
}

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header ?? '');
  return match ? match[1] : null;
}
