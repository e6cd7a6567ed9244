// members_list: the members of the caller's organization with their e-mail, name and role, oldest first.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { byCreation, listInputEntries, listOutput, pageOf } from '../../list-page.ts';
import { listMembers } from '../../store/members.ts';
import { memberView } from '../../services/membership.ts';
import { MemberSchema } from './schemas.ts';

export const members_list = defineBinding({
  name: 'members_list',
  summary: 'List the members of the organization with their e-mail, name and role, oldest first.',
  pt: {
    summary: 'Lista os membros da organização com e-mail, nome e papel, dos mais antigos aos mais novos.',
    aliases: ['usuários', 'pessoas', 'equipe', 'quem tem acesso', 'papéis', 'membros'],
  },
  aliases: ['users', 'people', 'team', 'who has access', 'roles'],
  examples: ['const { items } = await members_list({});\nreturn items.filter((m) => m.role === "owner").length;'],
  input: v.strictObject({ ...listInputEntries() }),
  output: listOutput(MemberSchema, 'members'),
  scope: 'org:read',
  writes: false,
  async handler(input, { sql, caller }) {
    return pageOf('members_list', await listMembers(sql, caller.membership!.orgId), input, { key: byCreation }, memberView);
  },
});
