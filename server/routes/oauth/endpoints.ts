// The OAuth endpoints clients call directly: dynamic registration (RFC 7591), token (code + PKCE, refresh with
// rotation), revocation (RFC 7009) and the JWKS. Protocol errors are `{error, error_description}` (RFC 6749 5.2);
// token responses are never cached.
import * as v from 'valibot';
import type { AppDeps } from '../../deps.ts';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import { readJson } from '../../http/body.ts';
import { ServiceError, InvalidTokenError, verifyAccessToken, findClient } from '../../../runtime-api/index.ts';
import { tokenSettings } from '../../auth/token-caller.ts';
import { clientInformation, registerClient, REGISTRATION_MAX_BYTES } from '../../oauth/clients.ts';
import { OAuthError, OAuthErrorSchema, oauthResponse } from '../../oauth/errors.ts';
import { readForm } from '../../oauth/form.ts';
import { exchangeCode, refreshTokens, revokeToken } from '../../oauth/grants.ts';
import { OAUTH_LIMITS, oauthLimiter } from '../../oauth/limits.ts';
import { OAUTH_PATHS } from '../../oauth/metadata.ts';

const RegistrationBody = v.looseObject({
  redirect_uris: v.pipe(v.array(v.string()), v.description('1 to 10: https, http on a loopback host (any port at authorize), or a native app\'s private-use scheme. No fragments.')),
  client_name: v.optional(v.string()),
  token_endpoint_auth_method: v.optional(v.pipe(v.string(), v.description('Always registered as `none` (public client with PKCE).'))),
  grant_types: v.optional(v.array(v.picklist(['authorization_code', 'refresh_token']))),
  response_types: v.optional(v.array(v.literal('code'))),
  application_type: v.optional(v.picklist(['native', 'web'])),
  scope: v.optional(v.string()),
});

const ClientInformation = v.looseObject({
  client_id: v.string(),
  client_id_issued_at: v.number(),
  client_name: v.optional(v.string()),
  redirect_uris: v.array(v.string()),
  grant_types: v.array(v.string()),
  response_types: v.array(v.string()),
  token_endpoint_auth_method: v.literal('none'),
  application_type: v.picklist(['native', 'web']),
  scope: v.optional(v.string()),
});

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

const RevokeBody = v.object({
  token: v.string(),
  token_type_hint: v.optional(v.picklist(['access_token', 'refresh_token'])),
  client_id: v.string(),
});

const JwkSetSchema = v.object({ keys: v.array(v.looseObject({ kty: v.string(), kid: v.string(), alg: v.string(), use: v.string() })) });

const oauthErrorDoc = (description: string) => ({ description, schema: OAuthErrorSchema });

export function oauthEndpointRoutes(deps: AppDeps): RouteDef[] {
  const { sql, clock } = deps;
  const limit = oauthLimiter(deps);
  let jwksLoadedAt = Date.now();

  async function verifyOwnAccessToken(token: string) {
    try {
      return await verifyAccessToken(deps.keys, tokenSettings(deps), clock, token);
    } catch (err) {
      if (err instanceof InvalidTokenError) return null;
      throw err;
    }
  }

  async function publicClient(clientId: string | undefined) {
    if (!clientId) throw new OAuthError('invalid_client', 'client_id is required (public clients identify themselves with client_id and prove possession with PKCE)');
    const client = await findClient(sql, clientId);
    if (!client) throw new OAuthError('invalid_client', 'unknown client_id; register the client again (POST /oauth/register)');
    return client;
  }

  return [
    defineRoute({
      method: 'POST',
      path: OAUTH_PATHS.register,
      operationId: 'oauthRegister',
      summary: 'Dynamic client registration (RFC 7591) for public clients',
      description: 'Open registration of public clients (PKCE, no secret). At most 5 registrations per minute per client IP; body at most 16 KiB.',
      tags: ['oauth'],
      auth: 'none',
      origin: 'always',
      body: { contentType: 'application/json', schema: RegistrationBody },
      responses: {
        201: { description: 'The registered client.', schema: ClientInformation },
        400: oauthErrorDoc('`invalid_redirect_uri` or `invalid_client_metadata`.'),
      },
      errors: ['ORIGIN_NOT_ALLOWED'],
      async handle(ctx) {
        await limit(`register:ip:${ctx.ip}`, OAUTH_LIMITS.register);
        await oauthResponse(ctx, async () => {
          let body: unknown;
          try {
            body = await readJson(ctx, REGISTRATION_MAX_BYTES);
          } catch (err) {
            if (err instanceof ServiceError) throw new OAuthError('invalid_client_metadata', `send the client metadata as a JSON object of at most ${REGISTRATION_MAX_BYTES} bytes (${err.resolutionFor('en-US') ?? err.message})`);
            throw err;
          }
          const client = await registerClient(sql, clock, body);
          ctx.set('Cache-Control', 'no-store');
          ctx.status = 201;
          ctx.body = clientInformation(client);
        });
      },
    }),
    defineRoute({
      method: 'POST',
      path: OAUTH_PATHS.token,
      operationId: 'oauthToken',
      summary: 'Token endpoint: authorization code (PKCE S256) and refresh token grants',
      description: 'Codes are single use (a second use revokes the tokens of the first); redirect_uri must equal the authorization request\'s. Refresh tokens rotate; reusing an old one revokes the whole grant. At most 20 requests per minute per client. `Cache-Control: no-store`.',
      tags: ['oauth'],
      auth: 'none',
      origin: 'always',
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
          const grantType = form.grant_type;
          if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required');
          if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
            throw new OAuthError('unsupported_grant_type', 'supported grant types: authorization_code, refresh_token');
          }
          const client = await publicClient(form.client_id);
          if (!client.grantTypes.includes(grantType)) throw new OAuthError('unauthorized_client', `this client did not register the ${grantType} grant`);
          ctx.body = grantType === 'authorization_code'
            ? await exchangeCode(deps, client, { code: form.code, redirectUri: form.redirect_uri, codeVerifier: form.code_verifier, resource: form.resource })
            : await refreshTokens(deps, client, { refreshToken: form.refresh_token, scope: form.scope, resource: form.resource });
        });
      },
    }),
    defineRoute({
      method: 'POST',
      path: OAUTH_PATHS.revoke,
      operationId: 'oauthRevoke',
      summary: 'Token revocation (RFC 7009)',
      description: 'Revokes the grant behind a refresh token or an access token of the calling client (its refresh tokens and access tokens stop working). Unknown tokens also answer 200.',
      tags: ['oauth'],
      auth: 'none',
      origin: 'always',
      body: { contentType: 'application/x-www-form-urlencoded', schema: RevokeBody },
      responses: {
        200: { description: 'Revoked, or nothing to revoke.' },
        400: oauthErrorDoc('`invalid_request`: no token.'),
        401: oauthErrorDoc('`invalid_client`: missing or unknown client_id.'),
      },
      errors: ['ORIGIN_NOT_ALLOWED'],
      async handle(ctx) {
        ctx.set('Cache-Control', 'no-store');
        await oauthResponse(ctx, async () => {
          const form = await readForm(ctx);
          if (!form.token) throw new OAuthError('invalid_request', 'token is required');
          const client = await publicClient(form.client_id);
          await revokeToken(deps, client, form.token, verifyOwnAccessToken);
          ctx.status = 200;
          ctx.body = '';
        });
      },
    }),
    defineRoute({
      method: 'GET',
      path: OAUTH_PATHS.jwks,
      operationId: 'oauthJwks',
      summary: 'Public keys that verify access tokens (JWKS)',
      description: 'ES256 public keys: the active key, a `next` key published before it signs, and keys retired within the last two hours. Never private members.',
      tags: ['oauth', 'discovery'],
      auth: 'none',
      responses: { 200: { description: 'The JSON Web Key Set.', schema: JwkSetSchema } },
      errors: [],
      async handle(ctx) {
        // Another instance may have rotated: reload at most once a minute.
        if (Date.now() - jwksLoadedAt > 60_000) {
          jwksLoadedAt = Date.now();
          await deps.keys.reload();
        }
        ctx.set('Cache-Control', 'public, max-age=300');
        ctx.body = deps.keys.jwks();
      },
    }),
  ];
}
