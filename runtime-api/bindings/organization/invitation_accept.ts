// invitation_accept: join an organization through an invitation addressed to the caller's e-mail (user-level).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { acceptInvitation, invitationView } from '../../services/invitations.ts';
import { IdSchema, InvitationSchema, MemberSchema, PERSONAL_NOTE } from './schemas.ts';

export const invitation_accept = defineBinding({
  name: 'invitation_accept',
  summary: "Accept an invitation sent to the caller's e-mail address and become a member.",
  pt: {
    summary: 'Aceita um convite enviado ao e-mail de quem chama e o torna membro.',
    aliases: ['aceitar convite', 'entrar na organização', 'participar'],
  },
  description: `Unknown, cancelled, expired (48 h) or already answered invitations are 404 INVITATION_NOT_FOUND; an invitation for another address is 403. ${PERSONAL_NOTE}`,
  input: v.strictObject({ invitationId: IdSchema }),
  output: v.object({ invitation: InvitationSchema, member: MemberSchema }),
  scope: null,
  writes: true,
  needsOrganization: false,
  personal: true,
  async handler(input, { sql, clock, caller }) {
    const { invitation, member } = await acceptInvitation(sql, clock, caller, input.invitationId);
    return { invitation: invitationView(invitation), member };
  },
});
