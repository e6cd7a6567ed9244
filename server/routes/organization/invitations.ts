// Invitations: an admin invites, lists and cancels; the invited, signed-in user accepts or declines.
import * as v from 'valibot';
import { organizationBindings as b, EmailSchema, IdSchema, RoleSchema } from '../../../runtime-api/index.ts';
import { ADMIN, OrgId, type BindingRoute } from './binding-route.ts';
import { activate, invitationCaller, userCaller } from './callers.ts';

export const inviteMember: BindingRoute = {
  method: 'POST',
  path: '/auth/organization/invite-member',
  operationId: 'inviteMember',
  binding: b.member_invite,
  status: 201,
  summary: 'Invite an e-mail address with a role; the invitation mail follows x-service-locale',
  input: v.object({ email: EmailSchema, role: RoleSchema, organizationId: OrgId, resend: v.optional(v.boolean()) }),
  errors: [...ADMIN, 'conflict'],
};

export const listInvitations: BindingRoute = {
  method: 'GET',
  path: '/auth/organization/list-invitations',
  operationId: 'listInvitations',
  binding: b.invitations_list,
  summary: "The organization's pending invitations (all of them, as an array)",
  input: v.object({ organizationId: OrgId }),
  wholeList: true,
};

export const cancelInvitation: BindingRoute = {
  method: 'POST',
  path: '/auth/organization/cancel-invitation',
  operationId: 'cancelInvitation',
  binding: b.invitation_cancel,
  summary: 'Cancel a pending invitation',
  description:
    "Acts on `organizationId` when given, else on the invitation's organization if the caller belongs to it. An invitation of another organization is 404 INVITATION_NOT_FOUND.",
  input: v.object({ invitationId: IdSchema, organizationId: OrgId }),
  caller: invitationCaller,
  errors: [...ADMIN, 'INVITATION_NOT_FOUND'],
};

export const acceptInvitation: BindingRoute = {
  method: 'POST',
  path: '/auth/organization/accept-invitation',
  operationId: 'acceptInvitation',
  binding: b.invitation_accept,
  caller: userCaller,
  summary: 'Accept an invitation addressed to the signed-in e-mail; its organization becomes the active one',
  input: v.object({ invitationId: IdSchema }),
  errors: ['INVITATION_NOT_FOUND'],
  after: (deps, ctx, r) => activate(deps, ctx, r.invitation.organizationId),
};

export const rejectInvitation: BindingRoute = {
  method: 'POST',
  path: '/auth/organization/reject-invitation',
  operationId: 'rejectInvitation',
  binding: b.invitation_reject,
  caller: userCaller,
  summary: 'Decline an invitation addressed to the signed-in e-mail',
  input: v.object({ invitationId: IdSchema }),
  errors: ['INVITATION_NOT_FOUND'],
};
