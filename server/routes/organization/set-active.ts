// POST /auth/organization/set-active: the organization a session's cookie-authenticated calls act on.
import * as v from 'valibot';
import { callerForOrganization, IdSchema, RoleSchema } from '../../../runtime-api/index.ts';
import type { AppDeps } from '../../deps.ts';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import { readJson } from '../../http/body.ts';
import { validateIn } from '../../i18n/validation.ts';
import { ORG_ERRORS, WRITE_ERRORS } from './binding-route.ts';
import { activate } from './callers.ts';
import { callerOf } from '../../http/request-state.ts';

export function setActiveRoute(deps: AppDeps): RouteDef {
  return defineRoute({
    method: 'POST',
    path: '/auth/organization/set-active',
    operationId: 'setActiveOrganization',
    summary: 'Choose the organization cookie-authenticated calls (e.g. /app/v1) act on',
    tags: ['organization'],
    auth: 'session',
    body: { contentType: 'application/json', schema: v.object({ organizationId: IdSchema }) },
    responses: { 200: { description: 'The active organization.', schema: v.object({ activeOrganizationId: v.string(), role: RoleSchema }) } },
    errors: [...ORG_ERRORS, ...WRITE_ERRORS],
    async handle(ctx) {
      const { organizationId } = validateIn(ctx.state.locale, v.object({ organizationId: IdSchema }), await readJson(ctx, 4096));
      const caller = await callerForOrganization(deps.sql, callerOf(ctx), organizationId);
      await activate(deps, ctx, organizationId);
      ctx.body = { activeOrganizationId: organizationId, role: caller.membership!.role };
    },
  });
}
