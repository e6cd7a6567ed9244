// organizations_list: the caller's organizations, each with the caller's role in it, in the order the caller joined them.
import * as v from 'valibot';
import { PERSONAL_TOKEN_SCOPE, defineBinding } from '../../define.ts';
import { listInputEntries, listOutput, pageOf } from '../../list-page.ts';
import { isApiKeyCaller } from '../../identity/caller.ts';
import { listUserOrganizations } from '../../store/members.ts';
import { UserOrganizationSchema, organizationView } from './schemas.ts';

export const organizations_list = defineBinding({
  name: 'organizations_list',
  summary: "List the organizations the caller belongs to, with the caller's role in each.",
  pt: {
    summary: 'Lista as organizações de quem chama, com o papel em cada uma.',
    aliases: ['minhas organizações', 'espaços de trabalho', 'trocar de organização'],
  },
  description:
    "A session, or a person's access token holding org:read, lists every organization of the person; an organization API key (or a token without org:read) lists its own organization only.",
  aliases: ['my organizations', 'workspaces', 'switch organization'],
  examples: ['const { items } = await organizations_list({});\nreturn items.map((o) => `${o.slug}: ${o.role}`);'],
  input: v.strictObject({ ...listInputEntries() }),
  output: listOutput(UserOrganizationSchema, 'organizations'),
  scope: null,
  writes: false,
  needsOrganization: false,
  async handler(input, { sql, caller }) {
    // A person may see their own organizations (to pick one to switch to); a key belongs to one organization and
    // shows nothing of its creator's others, nor does a token granted nothing about organizations.
    const all = await listUserOrganizations(sql, caller.userId);
    const ownOnly = caller.kind === 'token' && (isApiKeyCaller(caller) || !caller.scopes.includes(PERSONAL_TOKEN_SCOPE));
    const rows = ownOnly ? all.filter((o) => o.id === caller.membership?.orgId) : all;
    return pageOf('organizations_list', rows, input, { key: (o) => [o.joinedAt.toISOString(), o.id] }, (o) => ({ ...organizationView(o), role: o.role }));
  },
});
