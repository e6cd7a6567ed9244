// organizations_list: the caller's organizations, each with the caller's role in it, in the order the caller joined them.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { listInputEntries, listOutput, pageOf } from '../../list-page.ts';
import { listUserOrganizations } from '../../store/members.ts';
import { UserOrganizationSchema, organizationView } from './schemas.ts';

export const organizations_list = defineBinding({
  name: 'organizations_list',
  summary: 'List the organizations the caller belongs to, with the caller\'s role in each.',
  description: 'With an access token, only the token\'s own organization is listed.',
  aliases: ['my organizations', 'workspaces', 'switch organization'],
  examples: ['const { items } = await organizations_list({});\nreturn items.map((o) => `${o.slug}: ${o.role}`);'],
  input: v.strictObject({ ...listInputEntries() }),
  output: listOutput(UserOrganizationSchema, 'organizations'),
  scope: null,
  writes: false,
  needsOrganization: false,
  async handler(input, { sql, caller }) {
    // An access token acts on its own organization only: it lists that one, never the user's others.
    const all = await listUserOrganizations(sql, caller.userId);
    const rows = caller.kind === 'token' ? all.filter((o) => o.id === caller.membership?.orgId) : all;
    return pageOf('organizations_list', rows, input, { key: (o) => [o.joinedAt.toISOString(), o.id] },
      (o) => ({ ...organizationView(o), role: o.role }));
  },
});
