// member_remove: remove a member by id or by e-mail (owner or admin; only an owner removes an owner; the last
// owner stays). The removed user's tokens and sessions lose the organization at once.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { memberView, removeMember } from '../../services/membership.ts';
import { MemberIdOrEmailSchema, MemberSchema } from './schemas.ts';

export const member_remove = defineBinding({
  name: 'member_remove',
  summary: 'Remove a member from the organization, by member id or e-mail address.',
  pt: {
    summary: 'Remove um membro da organização, pelo id de membro ou pelo e-mail.',
    aliases: ['remover membro', 'tirar usuário', 'expulsar', 'desligar membro', 'revogar acesso'],
  },
  description: 'A value containing "@" is an e-mail address (case-insensitive), otherwise a member id. Removing the last owner is 409 conflict.',
  aliases: ['kick', 'remove user', 'offboard', 'revoke access'],
  examples: ['return await member_remove({ memberIdOrEmail: "ana@example.com" });'],
  input: v.strictObject({ memberIdOrEmail: MemberIdOrEmailSchema }),
  output: v.object({ member: MemberSchema }),
  scope: 'org:admin',
  writes: true,
  async handler(input, { sql, caller }) {
    return { member: memberView(await removeMember(sql, caller, input.memberIdOrEmail)) };
  },
});
