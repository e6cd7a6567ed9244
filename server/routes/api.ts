// GET /api: health and the caller's user (spec 2.1, 2.2).
import * as v from 'valibot';
import { defineRoute } from '../http/route.ts';
import { findUserById } from '../../runtime-api/index.ts';
import type { AppDeps } from '../deps.ts';

export const UserSchema = v.object({
  id: v.string(),
  email: v.string(),
  name: v.string(),
  image: v.nullable(v.string()),
});

export const HealthSchema = v.object({
  service: v.string(),
  /** `ok` when every part is available; `degraded` when one is not (see `components`). */
  status: v.picklist(['ok', 'degraded']),
  components: v.object({ ask: v.picklist(['ready', 'unavailable']) }),
  locale: v.picklist(['en-US', 'pt-BR']),
  user: v.nullable(UserSchema),
});

export function apiRoutes(deps: AppDeps) {
  return [
    defineRoute({
      method: 'GET',
      path: '/api',
      operationId: 'getHealth',
      summary: 'Health, active locale and the signed-in user (null without a session or token)',
      description:
        '`status` is `ok` when every part works, `degraded` when one does not; `components.ask` says whether POST /ask can answer (its public corpus is loaded).',
      tags: ['core'],
      auth: 'bearer-or-session',
      authCheck: 'optional',
      responses: { 200: { description: 'The service is available.', schema: HealthSchema } },
      errors: ['unauthorized', 'rate_limited'],
      async handle(ctx) {
        // The answer depends on the credential sent (and the locale): no cache may hand it to another request.
        ctx.set('Cache-Control', 'no-store');
        const caller = ctx.state.caller;
        const user = caller ? await findUserById(deps.sql, caller.userId) : null;
        const ask = deps.askIndex && deps.askIndex.size > 0 ? 'ready' : 'unavailable';
        ctx.body = {
          service: 'siglata',
          status: ask === 'ready' ? 'ok' : 'degraded',
          components: { ask },
          locale: ctx.state.locale,
          user: user ? { id: user.id, email: user.email, name: user.name, image: user.image } : null,
        } satisfies v.InferOutput<typeof HealthSchema>;
      },
    }),
  ];
}
