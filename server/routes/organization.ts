// /auth/organization/* (spec 4.3, plus accept/reject-invitation and set-active): thin adapters over the
// organization bindings. Each resolves the Caller for the target organization (`organizationId`, else the session's
// active one; a token is bound to its own), validates in the request's locale, and calls `invoke`, so HTTP and
// scripts pass the same checks.
import type Koa from 'koa';
import * as v from 'valibot';
import { type Binding, type Caller, type ErrorCode, authorize, invoke, callerForOrganization, membershipRequired, requireAdmin, invitationNotFound, setActiveOrganization, invokeWholeList, listItemsSchema, findInvitation, findMembership, findOrganization, organizationBindings as b, EmailSchema, IdSchema, MetadataSchema, NameSchema, RoleSchema, SlugSchema, mcp_access_get, mcp_access_set, MaxScopesSchema, McpAccessStateSchema } from '../../runtime-api/index.ts';
import { invokeDeps, type AppDeps } from '../deps.ts';
import { defineRoute, type AuthKind, type RouteDef } from '../http/route.ts';
import { readJson } from '../http/body.ts';
import { validateIn } from '../i18n/validation.ts';
import { invitationPage } from '../pages/invitation.ts';

const OrgId = v.optional(IdSchema);
const ORG_ERRORS: ErrorCode[] = ['invalid_input', 'unauthorized', 'SESSION_EXPIRED', 'ORGANIZATION_MEMBERSHIP_REQUIRED', 'INSUFFICIENT_SCOPE', 'not_found'];
const WRITE_ERRORS: ErrorCode[] = ['invalid_request', 'unsupported_media_type', 'payload_too_large', 'ORIGIN_NOT_ALLOWED'];

interface Spec {
  method: 'GET' | 'POST';
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  binding: Binding;
  /** The route's input: the binding's fields plus `organizationId` where it acts on an organization. */
  input: v.GenericSchema;
  status?: 200 | 201;
  auth?: AuthKind;
  errors?: ErrorCode[];
  /** How the Caller is found; default: `organizationId`, else the session's active organization. */
  caller?: (ctx: Koa.Context, input: Record<string, unknown>) => Promise<Caller>;
  after?: (ctx: Koa.Context, result: any) => Promise<void>;
  /** The spec fixes a bare array here: answer every page of the list binding's items. */
  wholeList?: boolean;
}

export function organizationRoutes(deps: AppDeps): RouteDef[] {
  const { sql } = deps;

  async function orgCaller(ctx: Koa.Context, input: Record<string, unknown>): Promise<Caller> {
    const orgId = input.organizationId as string | undefined;
    if (orgId) return callerForOrganization(sql, ctx.state.caller, orgId);
    if (!ctx.state.caller.membership) throw membershipRequired(ctx.state.locale);
    return ctx.state.caller;
  }

  const userCaller = async (ctx: Koa.Context): Promise<Caller> => ctx.state.caller;

  /** cancel-invitation has no organizationId in the spec: the invitation's organization, if the caller belongs to it. */
  async function invitationCaller(ctx: Koa.Context, input: Record<string, unknown>): Promise<Caller> {
    if (input.organizationId || ctx.state.caller.kind !== 'session') return orgCaller(ctx, input);
    const caller: Caller = ctx.state.caller;
    const inv = await findInvitation(sql, input.invitationId as string);
    if (!inv || !(await findMembership(sql, caller.userId, inv.orgId))) throw invitationNotFound(caller.locale);
    return callerForOrganization(sql, caller, inv.orgId);
  }

  async function activate(ctx: Koa.Context, orgId: string): Promise<void> {
    if (ctx.state.session) await setActiveOrganization(sql, ctx.state.session.id, orgId);
  }

  const route = (s: Spec): RouteDef => defineRoute({
    method: s.method,
    path: s.path,
    operationId: s.operationId,
    summary: s.summary,
    description: s.description ?? s.binding.description,
    tags: ['organization'],
    auth: s.auth ?? 'bearer-or-session',
    binding: s.binding,
    ...(s.method === 'GET' ? { query: s.input } : { body: { contentType: 'application/json', schema: s.input } }),
    responses: { [s.status ?? 200]: { description: s.binding.summary, schema: s.wholeList ? listItemsSchema(s.binding) : s.binding.output } },
    errors: [...ORG_ERRORS, ...(s.method === 'POST' ? WRITE_ERRORS : []), ...(s.errors ?? [])],
    async handle(ctx) {
      // A token acts on its own organization with fixed scopes: refuse what it may never do before reading input.
      if (ctx.state.caller.kind === 'token') authorize(s.binding, ctx.state.caller);
      const raw = s.method === 'GET' ? ctx.query : await readJson(ctx, deps.config.jsonBodyMaxBytes);
      const input = validateIn(ctx.state.locale, s.input, raw) as Record<string, unknown>;
      const caller = await (s.caller ?? orgCaller)(ctx, input);
      // The role is the reason a member cannot administer: say so before the scope check of `invoke`.
      if (s.binding.scope === 'org:admin') requireAdmin(caller);
      const { organizationId: _omit, ...bindingInput } = input;
      const result = s.wholeList
        ? await invokeWholeList(s.binding, bindingInput, caller, invokeDeps(deps))
        : await invoke(s.binding, bindingInput, caller, invokeDeps(deps));
      if (s.after) await s.after(ctx, result);
      ctx.status = s.status ?? 200;
      ctx.body = result;
    },
  });

  const ADMIN: ErrorCode[] = ['ORGANIZATION_ADMIN_REQUIRED'];
  return [
    route({
      method: 'POST', path: '/auth/organization/create', operationId: 'createOrganization', binding: b.organization_create, status: 201, caller: userCaller,
      summary: 'Create an organization; the caller becomes its owner and it becomes the session\'s active organization',
      input: v.object({ name: NameSchema, slug: SlugSchema, metadata: v.optional(MetadataSchema) }),
      errors: ['conflict', 'organization_limit_reached', 'rate_limited'],
      after: (ctx, org) => activate(ctx, org.id),
    }),
    route({
      method: 'GET', path: '/auth/organization/list', operationId: 'listOrganizations', binding: b.organizations_list, caller: userCaller,
      summary: 'The caller\'s organizations, each with the caller\'s role (all of them, as an array)', input: v.object({}), wholeList: true,
    }),
    route({
      method: 'GET', path: '/auth/organization/get', operationId: 'getOrganization', binding: b.organization_get,
      summary: 'An organization: profile, metadata, the caller\'s role and the members',
      description: '`organizationId` defaults to the session\'s active organization.',
      input: v.object({ organizationId: OrgId }),
    }),
    route({
      method: 'POST', path: '/auth/organization/invite-member', operationId: 'inviteMember', binding: b.member_invite, status: 201,
      summary: 'Invite an e-mail address with a role; the invitation mail follows x-service-locale',
      input: v.object({ email: EmailSchema, role: RoleSchema, organizationId: OrgId, resend: v.optional(v.boolean()) }),
      errors: [...ADMIN, 'conflict'],
    }),
    route({
      method: 'GET', path: '/auth/organization/list-invitations', operationId: 'listInvitations', binding: b.invitations_list,
      summary: 'The organization\'s pending invitations (all of them, as an array)', input: v.object({ organizationId: OrgId }), wholeList: true,
    }),
    route({
      method: 'POST', path: '/auth/organization/cancel-invitation', operationId: 'cancelInvitation', binding: b.invitation_cancel,
      summary: 'Cancel a pending invitation',
      description: 'Acts on `organizationId` when given, else on the invitation\'s organization if the caller belongs to it. An invitation of another organization is 404 INVITATION_NOT_FOUND.',
      input: v.object({ invitationId: IdSchema, organizationId: OrgId }),
      caller: invitationCaller,
      errors: [...ADMIN, 'INVITATION_NOT_FOUND'],
    }),
    route({
      method: 'POST', path: '/auth/organization/update-member-role', operationId: 'updateMemberRole', binding: b.member_update_role,
      summary: 'Change a member\'s role (only an owner grants, changes or removes `owner`; an owner always remains)',
      input: v.object({ memberId: IdSchema, role: RoleSchema, organizationId: OrgId }),
      errors: [...ADMIN, 'conflict'],
    }),
    route({
      method: 'POST', path: '/auth/organization/remove-member', operationId: 'removeMember', binding: b.member_remove,
      summary: 'Remove a member by member id or e-mail address',
      input: v.object({ memberIdOrEmail: v.pipe(IdSchema, v.maxLength(254)), organizationId: OrgId }),
      errors: [...ADMIN, 'conflict'],
    }),
    route({
      method: 'POST', path: '/auth/organization/accept-invitation', operationId: 'acceptInvitation', binding: b.invitation_accept, caller: userCaller,
      summary: 'Accept an invitation addressed to the signed-in e-mail; its organization becomes the active one',
      input: v.object({ invitationId: IdSchema }),
      errors: ['INVITATION_NOT_FOUND'],
      after: (ctx, r) => activate(ctx, r.invitation.organizationId),
    }),
    route({
      method: 'POST', path: '/auth/organization/reject-invitation', operationId: 'rejectInvitation', binding: b.invitation_reject, caller: userCaller,
      summary: 'Decline an invitation addressed to the signed-in e-mail',
      input: v.object({ invitationId: IdSchema }),
      errors: ['INVITATION_NOT_FOUND'],
    }),
    route({
      method: 'GET', path: '/auth/organization/mcp-access', operationId: 'getMcpAccess', binding: mcp_access_get,
      summary: 'The organization\'s MCP access state, its maxScopes ceiling and recent changes (owners and admins)',
      input: v.object({ organizationId: OrgId }),
      errors: ADMIN,
    }),
    route({
      method: 'POST', path: '/auth/organization/set-mcp-access', operationId: 'setMcpAccess', binding: mcp_access_set,
      summary: 'Set the organization\'s MCP access state and/or maxScopes (owners and admins, signed-in sessions only)',
      input: v.strictObject({ state: v.optional(McpAccessStateSchema), maxScopes: v.optional(MaxScopesSchema), organizationId: OrgId }),
      errors: ADMIN,
    }),
    defineRoute({
      method: 'POST', path: '/auth/organization/set-active', operationId: 'setActiveOrganization',
      summary: 'Choose the organization cookie-authenticated calls (e.g. /app/v1) act on',
      tags: ['organization'], auth: 'session',
      body: { contentType: 'application/json', schema: v.object({ organizationId: IdSchema }) },
      responses: { 200: { description: 'The active organization.', schema: v.object({ activeOrganizationId: v.string(), role: RoleSchema }) } },
      errors: [...ORG_ERRORS, ...WRITE_ERRORS],
      async handle(ctx) {
        const { organizationId } = validateIn(ctx.state.locale, v.object({ organizationId: IdSchema }), await readJson(ctx, 4096));
        const caller = await callerForOrganization(sql, ctx.state.caller, organizationId);
        await activate(ctx, organizationId);
        ctx.body = { activeOrganizationId: organizationId, role: caller.membership!.role };
      },
    }),
    defineRoute({
      method: 'GET', path: '/auth/organization/invitation', operationId: 'invitationPage',
      summary: 'The page an invitation e-mail links to (Accept / Decline)',
      tags: ['organization'], auth: 'none',
      query: v.object({ id: v.optional(v.string()), lang: v.optional(v.string()) }),
      responses: { 200: { description: 'The invitation page.', contentType: 'text/html' }, 404: { description: 'Not pending any more.', contentType: 'text/html' } },
      errors: [],
      async handle(ctx) {
        const id = typeof ctx.query.id === 'string' && ctx.query.id.length <= 128 ? ctx.query.id : '';
        const inv = id ? await findInvitation(sql, id) : null;
        const live = inv && inv.status === 'pending' && inv.expiresAt.getTime() > deps.clock.now().getTime();
        const org = live ? await findOrganization(sql, inv.orgId) : null;
        invitationPage(ctx, live && org ? { id: inv.id, orgName: org.name, role: inv.role, email: inv.email } : null);
      },
    }),
  ];
}
