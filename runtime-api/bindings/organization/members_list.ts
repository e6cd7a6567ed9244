// members_list: the members of the caller's organization with their e-mail, name and role.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { listMembers } from '../../store/members.ts';
import { memberView } from '../../services/membership.ts';
import { MemberSchema } from './schemas.ts';

export const members_list = defineBinding({
  name: 'members_list',
  summary: 'List the members of the organization with their e-mail, name and role.',
  aliases: ['users', 'people', 'team', 'who has access', 'roles'],
  examples: ['const members = await members_list({});\nreturn members.filter((m) => m.role === "owner").length;'],
  input: v.strictObject({}),
  output: v.array(MemberSchema),
  scope: 'org:read',
  writes: false,
  async handler(_input, { sql, caller }) {
    return (await listMembers(sql, caller.membership!.orgId)).map(memberView);
  },
});
