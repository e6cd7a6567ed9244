// Discovery documents: RFC 8414 authorization server metadata (and its OpenID Connect Discovery twin) and RFC 9728
// protected-resource metadata for the MCP endpoint and its /mcp alias. The issuer is the configured public base
// URL, never the Host header.
import { GRANTABLE_SCOPES, mcpAudiences, LOCALES } from '../../runtime-api/index.ts';

export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
  jwks: '/oauth/jwks',
} as const;

/** Lifetimes (research/auth.md section 5). The access token's is the config's ACCESS_TOKEN_TTL_SECONDS. */
export const OAUTH_LIFETIMES = {
  codeMs: 120_000,
  refreshMs: 30 * 86400_000,
  /** A grant's refresh tokens stop rotating this long after consent, however often they were used. */
  grantAbsoluteMs: 90 * 86400_000,
  consentTicketSeconds: 600,
};

export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${issuer}${OAUTH_PATHS.token}`,
    registration_endpoint: `${issuer}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${issuer}${OAUTH_PATHS.revoke}`,
    jwks_uri: `${issuer}${OAUTH_PATHS.jwks}`,
    scopes_supported: [...GRANTABLE_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
    ui_locales_supported: [...LOCALES],
    service_documentation: `${issuer}/openapi.json`,
  };
}

/**
 * The document served at /.well-known/openid-configuration: the RFC 8414 metadata plus what OpenID Connect Discovery
 * 1.0 section 3 marks REQUIRED, so that a strict validator accepts it. We are an OAuth 2.1 authorization server, not
 * an OpenID provider: no `openid` scope, no ID token (response type `code` only), no userinfo. So:
 * - `subject_types_supported: ["public"]` is what the service does: a token's `sub` is the user's id, the same for
 *   every client;
 * - `id_token_signing_alg_values_supported: ["RS256"]` is the one value the specification requires to be listed
 *   ("RS256 MUST be included", and strict validators check it); it describes no token, since none is ever issued;
 * - `request_uri_parameter_supported: false`, because the member's default (true) would claim what
 *   /oauth/authorize refuses.
 * Nothing optional is advertised (claims, userinfo, end session): clients would ask for what never comes.
 */
export function openIdConfiguration(issuer: string) {
  return {
    ...authorizationServerMetadata(issuer),
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    request_uri_parameter_supported: false,
  };
}

/** Resource path → RFC 9728 metadata. `resource` equals the URL the client uses (the MCP SDK checks the prefix). */
export function protectedResourceMetadata(base: string, path: '/v1/mcp' | '/mcp') {
  const resource = `${base}${path}`;
  return {
    resource,
    authorization_servers: [base],
    scopes_supported: [...GRANTABLE_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Siglata MCP',
    resource_documentation: `${base}/openapi.json`,
  };
}

/** Canonical form of an RFC 8707 `resource`: no trailing slash; null when it is not one of our MCP resources. */
export function canonicalResource(base: string, value: string): string | null {
  if (value.includes('#')) return null;
  const trimmed = value.replace(/\/+$/, '');
  return mcpAudiences(base).includes(trimmed) ? trimmed : null;
}
