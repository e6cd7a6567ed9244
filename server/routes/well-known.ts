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
      summary: 'The authorization server metadata at the OpenID Connect Discovery path',
      tags: ['discovery', 'oauth'],
      auth: 'none',
      description:
        'The same RFC 8414 document, served here for clients that try this path first. The service is not an OpenID provider: no `openid` scope, ID tokens or userinfo, so none is advertised.',
      responses: { 200: { description: 'The metadata.', schema: AuthorizationServerMetadata } },
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
