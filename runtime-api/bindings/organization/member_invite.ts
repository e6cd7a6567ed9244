// member_invite: invite an e-mail address with a role (owner or admin only; only an owner invites an owner).
// The invitation mail goes out in the caller's locale; the invitation lasts 48 hours.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { invitationView, inviteMember } from '../../services/invitations.ts';
import { EmailSchema, InvitationSchema, RoleSchema } from './schemas.ts';

export const member_invite = defineBinding({
  name: 'member_invite',
  summary: 'Invite an e-mail address to the organization with a role; mails the invitation.',
  pt: {
    summary: 'Convida um endereço de e-mail para a organização com um papel; envia o convite por e-mail.',
    aliases: ['adicionar membro', 'adicionar usuário', 'convidar', 'compartilhar com', 'chamar para a equipe'],
  },
  description:
    'Needs the owner or admin role (only an owner may invite an owner). An existing member or a pending invitee is 409 conflict, unless `resend: true`, which refreshes the pending invitation and mails it again.',
  aliases: ['add member', 'add user', 'invite', 'share with', 'onboard'],
  examples: ['const inv = await member_invite({ email: "ana@example.com", role: "member" });\nreturn inv.expiresAt;'],
  input: v.strictObject({ email: EmailSchema, role: RoleSchema, resend: v.optional(v.boolean()) }),
  output: InvitationSchema,
  scope: 'org:admin',
  writes: true,
  async handler(input, { sql, clock, caller, config, services }) {
    const row = await inviteMember({ sql, clock, mailer: services.mailer, publicBaseUrl: config.publicBaseUrl }, caller, input);
    return invitationView(row);
  },
});
