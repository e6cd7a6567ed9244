// member_update_role: change a member's role (owner or admin; only an owner grants, changes or removes `owner`;
// the last owner cannot be demoted).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { changeMemberRole, memberView } from '../../services/membership.ts';
import { IdSchema, MemberSchema, RoleSchema } from './schemas.ts';

export const member_update_role = defineBinding({
  name: 'member_update_role',
  summary: 'Change the role of a member of the organization.',
  pt: {
    summary: 'Muda o papel de um membro da organização.',
    aliases: ['promover', 'rebaixar', 'tornar administrador', 'mudar papel', 'permissões'],
  },
  description: 'A member id of another organization is 404. Demoting the last owner is 409 conflict.',
  aliases: ['promote', 'demote', 'make admin', 'change role', 'permissions'],
  examples: [
    'const m = (await members_list({})).items.find((x) => x.role === "member");\nif (!m) return "no member to promote";\nreturn await member_update_role({ memberId: m.memberId, role: "admin" });',
  ],
  input: v.strictObject({ memberId: IdSchema, role: RoleSchema }),
  output: MemberSchema,
  scope: 'org:admin',
  writes: true,
  async handler(input, { sql, caller }) {
    return memberView(await changeMemberRole(sql, caller, input.memberId, input.role));
  },
});
