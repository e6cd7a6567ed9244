// organizations_list: the caller's organizations, each with the caller's role in it.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { listUserOrganizations } from '../../store/members.ts';
import { UserOrganizationSchema, organizationView } from './schemas.ts';

export const organizations_list = defineBinding({
  name: 'organizations_list',
  summary: 'List the organizations the caller belongs to, with the caller\'s role in each.',
  aliases: ['my organizations', 'workspaces', 'switch organization'],
  examples: ['const orgs = await organizations_list({});\nreturn orgs.map((o) => `${o.slug}: ${o.role}`);'],
  input: v.strictObject({}),
  output: v.array(UserOrganizationSchema),
  scope: null,
  writes: false,
  needsOrganization: false,
  sessionOnly: true,
  async handler(_input, { sql, caller }) {
    const rows = await listUserOrganizations(sql, caller.userId);
    return rows.map((o) => ({ ...organizationView(o), role: o.role }));
  },
});
