// GET /auth/organization/invitation: the page an invitation e-mail links to (Accept / Decline), or "not pending".
import type Koa from 'koa';
import * as v from 'valibot';
import { invitationToShow } from '../../../runtime-api/index.ts';
import type { AppDeps } from '../../deps.ts';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import { invitationPage } from '../../pages/invitation.ts';

/** The invitation id of the link; anything else (absent, repeated, longer than an id can be) shows "not pending". */
function invitationId(ctx: Koa.Context): string {
  return typeof ctx.query.id === 'string' && ctx.query.id.length <= 128 ? ctx.query.id : '';
}

export function invitationPageRoute(deps: AppDeps): RouteDef {
  return defineRoute({
    method: 'GET',
    path: '/auth/organization/invitation',
    operationId: 'invitationPage',
    summary: 'The page an invitation e-mail links to (Accept / Decline)',
    tags: ['organization'],
    auth: 'none',
    query: v.object({ id: v.optional(v.string()), lang: v.optional(v.string()) }),
    responses: {
      200: { description: 'The invitation page.', contentType: 'text/html' },
      404: { description: 'Not pending any more.', contentType: 'text/html' },
    },
    errors: [],
    async handle(ctx) {
      const id = invitationId(ctx);
      invitationPage(ctx, id ? await invitationToShow(deps.sql, deps.clock, id) : null);
    },
  });
}
