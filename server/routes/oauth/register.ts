// POST /oauth/register: dynamic client registration (RFC 7591) of public clients.
import type Koa from 'koa';
import * as v from 'valibot';
import { ServiceError } from '../../../runtime-api/index.ts';
import type { AppDeps } from '../../deps.ts';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import { readJson } from '../../http/body.ts';
import { clientInformation, registerClient, REGISTRATION_MAX_BYTES } from '../../oauth/clients.ts';
import { OAuthError, oauthErrorDoc, oauthResponse } from '../../oauth/errors.ts';
import { OAUTH_LIMITS, type oauthLimiter } from '../../oauth/limits.ts';
import { OAUTH_PATHS } from '../../oauth/metadata.ts';

const RegistrationBody = v.looseObject({
  redirect_uris: v.pipe(
    v.array(v.string()),
    v.description("1 to 10: https, http on a loopback host (any port at authorize), or a native app's private-use scheme. No fragments."),
  ),
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

/** The metadata as JSON; a body the service would refuse is this protocol's invalid_client_metadata instead. */
async function readMetadata(ctx: Koa.Context): Promise<unknown> {
  try {
    return await readJson(ctx, REGISTRATION_MAX_BYTES);
  } catch (err) {
    if (err instanceof ServiceError)
      throw new OAuthError(
        'invalid_client_metadata',
        `send the client metadata as a JSON object of at most ${REGISTRATION_MAX_BYTES} bytes (${err.resolutionFor('en-US') ?? err.message})`,
      );
    throw err;
  }
}

export function registerRoute(deps: AppDeps, limit: ReturnType<typeof oauthLimiter>): RouteDef {
  return defineRoute({
    method: 'POST',
    path: OAUTH_PATHS.register,
    operationId: 'oauthRegister',
    summary: 'Dynamic client registration (RFC 7591) for public clients',
    description: 'Open registration of public clients (PKCE, no secret). At most 5 registrations per minute per client IP; body at most 16 KiB.',
    tags: ['oauth'],
    auth: 'none',
    origin: 'web',
    body: { contentType: 'application/json', schema: RegistrationBody },
    responses: {
      201: { description: 'The registered client.', schema: ClientInformation },
      400: oauthErrorDoc('`invalid_redirect_uri` or `invalid_client_metadata`.'),
    },
    errors: ['ORIGIN_NOT_ALLOWED'],
    async handle(ctx) {
      await limit(`register:ip:${ctx.ip}`, OAUTH_LIMITS.register);
      await oauthResponse(ctx, async () => {
        const client = await registerClient(deps.sql, deps.clock, await readMetadata(ctx));
        ctx.set('Cache-Control', 'no-store');
        ctx.status = 201;
        ctx.body = clientInformation(client);
      });
    },
  });
}
