// organization_get: the caller's organization — profile, metadata, the caller's role and the members.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { findOrganization } from '../../store/organizations.ts';
import { listMembers } from '../../store/members.ts';
import { memberView } from '../../services/membership.ts';
import { organizationNotFound } from '../../identity/messages.ts';
import { OrganizationDetailSchema, organizationView } from './schemas.ts';

export const organization_get = defineBinding({
  name: 'organization_get',
  summary: "The organization: profile, metadata, the caller's role and its members.",
  pt: {
    summary: 'A organização: perfil, metadados, o papel de quem chama e seus membros.',
    aliases: ['detalhes da organização', 'perfil da organização', 'informações da organização'],
  },
  aliases: ['workspace details', 'organization profile', 'org info'],
  examples: ['const org = await organization_get({});\nreturn org.members.filter((m) => m.role !== "member").map((m) => m.email);'],
  input: v.strictObject({}),
  output: OrganizationDetailSchema,
  scope: 'org:read',
  writes: false,
  async handler(_input, { sql, caller }) {
    const membership = caller.membership!;
    const org = await findOrganization(sql, membership.orgId);
    if (!org) throw organizationNotFound(caller.locale);
    const members = await listMembers(sql, org.id);
    return { ...organizationView(org), role: membership.role, members: members.map(memberView) };
  },
});
