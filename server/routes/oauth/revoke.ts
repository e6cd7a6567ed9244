// POST /oauth/revoke: token revocation (RFC 7009). Unknown tokens also answer 200.
import * as v from 'valibot';
import { InvalidTokenError, verifyAccessToken } from '../../../runtime-api/index.ts';
import type { AppDeps } from '../../deps.ts';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import { tokenSettings } from '../../auth/token-caller.ts';
import { OAuthError, oauthErrorDoc, oauthResponse } from '../../oauth/errors.ts';
import { readForm } from '../../oauth/form.ts';
import { revokeToken } from '../../oauth/grants.ts';
import { OAUTH_PATHS } from '../../oauth/metadata.ts';
import { publicClient } from './public-client.ts';

const RevokeBody = v.object({
  token: v.string(),
  token_type_hint: v.optional(v.picklist(['access_token', 'refresh_token'])),
  client_id: v.string(),
});

/** The claims of an access token this server issued and still accepts, else null: an unknown token is no error here. */
async function verifyOwnAccessToken(deps: AppDeps, token: string) {
  try {
    return await verifyAccessToken(deps.keys, tokenSettings(deps), deps.clock, token);
  } catch (err) {
    if (err instanceof InvalidTokenError) return null;
    throw err;
  }
}

export function revokeRoute(deps: AppDeps): RouteDef {
  return defineRoute({
    method: 'POST',
    path: OAUTH_PATHS.revoke,
    operationId: 'oauthRevoke',
    summary: 'Token revocation (RFC 7009)',
    description:
      'Revokes the grant behind a refresh token or an access token of the calling client (its refresh tokens and access tokens stop working). Unknown tokens also answer 200.',
    tags: ['oauth'],
    auth: 'none',
    origin: 'web',
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
        const client = await publicClient(deps, form.client_id);
        await revokeToken(deps, client, form.token, (token) => verifyOwnAccessToken(deps, token));
        ctx.status = 200;
        ctx.body = '';
      });
    },
  });
}
