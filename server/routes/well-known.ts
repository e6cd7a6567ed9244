// Discovery: RFC 8414 authorization server metadata, its OpenID Connect Discovery twin, and RFC 9728 protected
// resource metadata for the MCP endpoint (/v1/mcp) and its alias (/mcp). Public, cacheable, CORS-open.
import type Koa from 'koa';
import * as v from 'valibot';
import type { AppDeps } from '../deps.ts';
import { defineRoute, type RouteDef } from '../http/route.ts';
import { authorizationServerMetadata, openIdConfiguration, protectedResourceMetadata } from '../oauth/metadata.ts';

const AuthorizationServerMetadata = v.looseObject({
  issuer: v.string(),
  authorization_endpoint: v.string(),
  token_endpoint: v.string(),
  registration_endpoint: v.string(),
  revocation_endpoint: v.string(),
  jwks_uri: v.string(),
  scopes_supported: v.array(v.string()),
  response_types_supported: v.array(v.string()),
  grant_types_supported: v.array(v.string()),
  code_challenge_methods_supported: v.array(v.literal('S256')),
  token_endpoint_auth_methods_supported: v.array(v.string()),
  authorization_response_iss_parameter_supported: v.literal(true),
});

/** OpenID Connect Discovery 1.0 section 3: the RFC 8414 members plus those it marks REQUIRED. */
const OpenIdConfiguration = v.looseObject({
  ...AuthorizationServerMetadata.entries,
  subject_types_supported: v.array(v.picklist(['public', 'pairwise'])),
  id_token_signing_alg_values_supported: v.array(v.string()),
  request_uri_parameter_supported: v.literal(false),
});

const ProtectedResourceMetadata = v.looseObject({
  resource: v.string(),
  authorization_servers: v.array(v.string()),
  scopes_supported: v.array(v.string()),
  bearer_methods_supported: v.array(v.string()),
});

export function wellKnownRoutes(deps: AppDeps): RouteDef[] {
  const base = deps.config.publicBaseUrl;
  const documents = {
    as: JSON.stringify(authorizationServerMetadata(base)),
    oidc: JSON.stringify(openIdConfiguration(base)),
    v1: JSON.stringify(protectedResourceMetadata(base, '/v1/mcp')),
    alias: JSON.stringify(protectedResourceMetadata(base, '/mcp')),
  };
  const serve =
    (document: string): Koa.Middleware =>
    (ctx) => {
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.type = 'application/json';
      ctx.body = document;
    };
  return [
    defineRoute({
      method: 'GET',
      path: '/.well-known/oauth-authorization-server',
      operationId: 'oauthAuthorizationServerMetadata',
      summary: 'Authorization server metadata (RFC 8414)',
      tags: ['discovery', 'oauth'],
      auth: 'none',
      description:
        'Authorization code with PKCE S256 only, dynamic registration, refresh tokens, revocation, the JWKS and the scopes; `issuer` is the public base URL.',
      responses: { 200: { description: 'The metadata.', schema: AuthorizationServerMetadata } },
      errors: [],
      handle: serve(documents.as),
    }),
    defineRoute({
      method: 'GET',
      path: '/.well-known/openid-configuration',
      operationId: 'openIdConfiguration',
      summary: 'The authorization server metadata at the OpenID Connect Discovery path, with the members OIDC Discovery requires',
      tags: ['discovery', 'oauth'],
      auth: 'none',
      description:
        "The RFC 8414 document, served here for clients that try this path first, plus the members OpenID Connect Discovery 1.0 marks REQUIRED: `subject_types_supported` (`public`: a token's `sub` is the user's id for every client) and `id_token_signing_alg_values_supported` (`RS256`, the value the specification requires listed). The service is not an OpenID provider: it issues no ID token (no `openid` scope, response type `code` only) and has no userinfo, so the algorithm describes no token that is ever sent; `request_uri_parameter_supported` is false.",
      responses: { 200: { description: 'The metadata.', schema: OpenIdConfiguration } },
      errors: [],
      handle: serve(documents.oidc),
    }),
    defineRoute({
      method: 'GET',
      path: '/.well-known/oauth-protected-resource/v1/mcp',
      operationId: 'mcpProtectedResourceMetadata',
      summary: 'Protected resource metadata of the MCP endpoint (RFC 9728)',
      tags: ['discovery', 'mcp'],
      auth: 'none',
      responses: { 200: { description: '`resource` = `{base}/v1/mcp`.', schema: ProtectedResourceMetadata } },
      errors: [],
      handle: serve(documents.v1),
    }),
    defineRoute({
      method: 'GET',
      path: '/.well-known/oauth-protected-resource/mcp',
      operationId: 'mcpAliasProtectedResourceMetadata',
      summary: 'Protected resource metadata of the /mcp alias (RFC 9728)',
      tags: ['discovery', 'mcp'],
      auth: 'none',
      responses: { 200: { description: '`resource` = `{base}/mcp`.', schema: ProtectedResourceMetadata } },
      errors: [],
      handle: serve(documents.alias),
    }),
  ];
}
