// Which Caller an /auth/organization/* route acts as, and the session's active organization it may leave behind.
import type Koa from 'koa';
import { type Caller, callerForInvitation, callerForOrganization, membershipRequired, setActiveOrganization } from '../../../runtime-api/index.ts';
import type { AppDeps } from '../../deps.ts';

type Input = Record<string, unknown>;

/** `organizationId` when given, else the session's active organization (a token is bound to its own). */
export async function organizationCaller(deps: AppDeps, ctx: Koa.Context, input: Input): Promise<Caller> {
  const orgId = input.organizationId as string | undefined;
  if (orgId) return callerForOrganization(deps.sql, ctx.state.caller, orgId);
  if (!ctx.state.caller.membership) throw membershipRequired(ctx.state.locale);
  return ctx.state.caller;
}

/** The signed-in user as such, whatever organization is active (creating one, answering an invitation). */
export async function userCaller(_deps: AppDeps, ctx: Koa.Context): Promise<Caller> {
  return ctx.state.caller;
}

/** cancel-invitation has no organizationId in the spec: the invitation's organization, if the caller belongs to it. */
export async function invitationCaller(deps: AppDeps, ctx: Koa.Context, input: Input): Promise<Caller> {
  if (input.organizationId || ctx.state.caller.kind !== 'session') return organizationCaller(deps, ctx, input);
  return callerForInvitation(deps.sql, ctx.state.caller, input.invitationId as string);
}

export async function activate(deps: AppDeps, ctx: Koa.Context, orgId: string): Promise<void> {
  if (ctx.state.session) await setActiveOrganization(deps.sql, ctx.state.session.id, orgId);
}
