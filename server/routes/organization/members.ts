// Administering members: changing a role, removing one.
import * as v from 'valibot';
import { organizationBindings as b, IdSchema, MemberIdOrEmailSchema, RoleSchema } from '../../../runtime-api/index.ts';
import { ADMIN, OrgId, type BindingRoute } from './binding-route.ts';

export const updateMemberRole: BindingRoute = {
  method: 'POST',
  path: '/auth/organization/update-member-role',
  operationId: 'updateMemberRole',
  binding: b.member_update_role,
  summary: "Change a member's role (only an owner grants, changes or removes `owner`; an owner always remains)",
  input: v.object({ memberId: IdSchema, role: RoleSchema, organizationId: OrgId }),
  errors: [...ADMIN, 'conflict'],
};

export const removeMember: BindingRoute = {
  method: 'POST',
  path: '/auth/organization/remove-member',
  operationId: 'removeMember',
  binding: b.member_remove,
  summary: 'Remove a member by member id or e-mail address',
  input: v.object({ memberIdOrEmail: MemberIdOrEmailSchema, organizationId: OrgId }),
  errors: [...ADMIN, 'conflict'],
};
