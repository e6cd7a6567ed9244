// POST /oauth/token: the authorization code (PKCE S256) and refresh token grants. Responses are never cached.
import * as v from 'valibot';
import type { AppDeps } from '../../deps.ts';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import { OAuthError, oauthErrorDoc, oauthResponse } from '../../oauth/errors.ts';
import { readForm, type Form } from '../../oauth/form.ts';
import { exchangeCode, refreshTokens } from '../../oauth/grants.ts';
import { OAUTH_LIMITS, type oauthLimiter } from '../../oauth/limits.ts';
import { OAUTH_PATHS } from '../../oauth/metadata.ts';
import { publicClient } from './public-client.ts';

const TokenBody = v.object({
  grant_type: v.picklist(['authorization_code', 'refresh_token']),
  client_id: v.string(),
  code: v.optional(v.string()),
  redirect_uri: v.optional(v.string()),
  code_verifier: v.optional(v.string()),
  refresh_token: v.optional(v.string()),
  scope: v.optional(v.pipe(v.string(), v.description('Refresh only: a subset of the granted scopes.'))),
  resource: v.optional(v.pipe(v.string(), v.description('RFC 8707; must equal the resource of the authorization request.'))),
});

const TokenResponseSchema = v.object({
  access_token: v.pipe(v.string(), v.description('ES256 JWT (RFC 9068, `typ: at+jwt`), audience = the MCP resource.')),
  token_type: v.literal('Bearer'),
  expires_in: v.number(),
  scope: v.string(),
  refresh_token: v.optional(v.pipe(v.string(), v.description('When `offline_access` was granted; rotated on every use.'))),
});

type GrantType = 'authorization_code' | 'refresh_token';

function grantTypeOf(form: Form): GrantType {
  const grantType = form.grant_type;
  if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required');
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
    throw new OAuthError('unsupported_grant_type', 'supported grant types: authorization_code, refresh_token');
  }
  return grantType;
}

export function tokenRoute(deps: AppDeps, limit: ReturnType<typeof oauthLimiter>): RouteDef {
  return defineRoute({
    method: 'POST',
    path: OAUTH_PATHS.token,
    operationId: 'oauthToken',
    summary: 'Token endpoint: authorization code (PKCE S256) and refresh token grants',
    description:
      "Codes are single use (a second use revokes the tokens of the first); redirect_uri must equal the authorization request's. Refresh tokens rotate; reusing an old one revokes the whole grant. At most 20 requests per minute per client. `Cache-Control: no-store`.",
    tags: ['oauth'],
    auth: 'none',
    origin: 'web',
    body: { contentType: 'application/x-www-form-urlencoded', schema: TokenBody },
    responses: {
      200: { description: 'Tokens.', schema: TokenResponseSchema, headers: { 'Cache-Control': '`no-store`.' } },
      400: oauthErrorDoc('`invalid_request`, `invalid_grant`, `unauthorized_client`, `unsupported_grant_type`, `invalid_scope` or `invalid_target`.'),
      401: oauthErrorDoc('`invalid_client`: missing or unknown client_id.'),
    },
    errors: ['ORIGIN_NOT_ALLOWED'],
    async handle(ctx) {
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Pragma', 'no-cache');
      await oauthResponse(ctx, async () => {
        const form = await readForm(ctx);
        await limit(form.client_id ? `token:client:${form.client_id.slice(0, 200)}` : `token:ip:${ctx.ip}`, OAUTH_LIMITS.token);
        const grantType = grantTypeOf(form);
        const client = await publicClient(deps, form.client_id);
        if (!client.grantTypes.includes(grantType)) throw new OAuthError('unauthorized_client', `this client did not register the ${grantType} grant`);
        ctx.body =
          grantType === 'authorization_code'
            ? await exchangeCode(deps, client, { code: form.code, redirectUri: form.redirect_uri, codeVerifier: form.code_verifier, resource: form.resource })
            : await refreshTokens(deps, client, { refreshToken: form.refresh_token, scope: form.scope, resource: form.resource });
      });
    },
  });
}
