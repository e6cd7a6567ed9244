// Which Caller an /auth/organization/* route acts as, and the session's active organization it may leave behind.
import type Koa from 'koa';
import { type Caller, callerForInvitation, callerForOrganization, membershipRequired, setActiveOrganization } from '../../../runtime-api/index.ts';
import type { AppDeps } from '../../deps.ts';
import { callerOf } from '../../http/request-state.ts';

type Input = Record<string, unknown>;

/** `organizationId` when given, else the session's active organization (a token is bound to its own). */
export async function organizationCaller(deps: AppDeps, ctx: Koa.Context, input: Input): Promise<Caller> {
  const orgId = input.organizationId as string | undefined;
  const caller = callerOf(ctx);
  if (orgId) return callerForOrganization(deps.sql, caller, orgId);
  if (!caller.membership) throw membershipRequired(ctx.state.locale);
  return caller;
}

/** The signed-in user as such, whatever organization is active (creating one, answering an invitation). */
export async function userCaller(_deps: AppDeps, ctx: Koa.Context): Promise<Caller> {
  return callerOf(ctx);
}

/** cancel-invitation has no organizationId in the spec: the invitation's organization, if the caller belongs to it. */
export async function invitationCaller(deps: AppDeps, ctx: Koa.Context, input: Input): Promise<Caller> {
  const caller = callerOf(ctx);
  if (input.organizationId || caller.kind !== 'session') return organizationCaller(deps, ctx, input);
  return callerForInvitation(deps.sql, caller, input.invitationId as string);
}

export async function activate(deps: AppDeps, ctx: Koa.Context, orgId: string): Promise<void> {
  if (ctx.state.session) await setActiveOrganization(deps.sql, ctx.state.session.id, orgId);
}
