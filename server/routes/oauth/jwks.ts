// GET /oauth/jwks: the public keys that verify access tokens.
import * as v from 'valibot';
import type { AppDeps } from '../../deps.ts';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import { OAUTH_PATHS } from '../../oauth/metadata.ts';

const JwkSetSchema = v.object({ keys: v.array(v.looseObject({ kty: v.string(), kid: v.string(), alg: v.string(), use: v.string() })) });

export function jwksRoute(deps: AppDeps): RouteDef {
  let jwksLoadedAt = Date.now();
  return defineRoute({
    method: 'GET',
    path: OAUTH_PATHS.jwks,
    operationId: 'oauthJwks',
    summary: 'Public keys that verify access tokens (JWKS)',
    description:
      'ES256 public keys: the active key, a `next` key published before it signs, and keys retired within the last two hours. Never private members.',
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
  });
}
