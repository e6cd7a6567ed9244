// /auth/organization/* (spec 4.3, plus accept/reject-invitation and set-active): thin adapters over the
// organization bindings, then the two routes that are not one binding each.
import type { AppDeps } from '../../deps.ts';
import type { RouteDef } from '../../http/route.ts';
import { bindingRoute } from './binding-route.ts';
import { invitationPageRoute } from './invitation-page.ts';
import { acceptInvitation, cancelInvitation, inviteMember, listInvitations, rejectInvitation } from './invitations.ts';
import { getMcpAccess, setMcpAccess } from './mcp-access.ts';
import { removeMember, updateMemberRole } from './members.ts';
import { createOrganization, getOrganization, listOrganizations } from './organizations.ts';
import { setActiveRoute } from './set-active.ts';

export function organizationRoutes(deps: AppDeps): RouteDef[] {
  return [
    ...[
      createOrganization,
      listOrganizations,
      getOrganization,
      inviteMember,
      listInvitations,
      cancelInvitation,
      updateMemberRole,
      removeMember,
      acceptInvitation,
      rejectInvitation,
      getMcpAccess,
      setMcpAccess,
    ].map((route) => bindingRoute(deps, route)),
    setActiveRoute(deps),
    invitationPageRoute(deps),
  ];
}
