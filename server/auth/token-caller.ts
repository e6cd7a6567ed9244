// The HTTP face of bearer credentials: reading the Authorization header, the token settings the server's address
// gives, and the 401 with its `WWW-Authenticate` challenge. Who the credential stands for is identity's
// (runtime-api/identity/token-caller.ts).
import {
  CredentialRefused,
  ServiceError,
  mcpAudiences,
  refusalResolution,
  resolveTokenCaller,
  type BearerCredential,
  type Locale,
  type TokenCaller,
  type TokenCheck,
} from '../../runtime-api/index.ts';
import type { AppDeps } from '../deps.ts';

export type { TokenCaller, TokenCheck };

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

/**
 * 401; `error="invalid_token"` only when a token was actually sent (RFC 6750 section 3.1). `refused` names the kind
 * of credential refused, so that the resolution says how to get a new one of that kind (null: none, or unknown).
 */
export function unauthorized(
  deps: Pick<AppDeps, 'config'>,
  reason: string,
  requestPath?: string,
  tokenSent = true,
  refused: BearerCredential | null = null,
): ServiceError {
  return new ServiceError('unauthorized', {
    resolution: refusalResolution(reason, refused),
    headers: { 'WWW-Authenticate': wwwAuthenticate(deps, tokenSent ? `, error="invalid_token", error_description="${reason}"` : '', requestPath) },
  });
}

export async function callerFromToken(
  deps: AppDeps,
  token: string,
  locale: Locale,
  checks: readonly TokenCheck[] = [],
  requestPath?: string,
): Promise<TokenCaller> {
  try {
    return await resolveTokenCaller({ sql: deps.sql, clock: deps.clock, keys: deps.keys, settings: tokenSettings(deps) }, token, locale, checks);
  } catch (err) {
    if (err instanceof CredentialRefused) throw unauthorized(deps, err.reason, requestPath, true, err.credential);
    throw err;
  }
}

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header ?? '');
  return match ? match[1] : null;
}
