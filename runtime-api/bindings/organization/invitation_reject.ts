// invitation_reject: decline an invitation sent to the caller's e-mail address (user-level).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { invitationView, rejectInvitation } from '../../services/invitations.ts';
import { IdSchema, InvitationSchema, PERSONAL_NOTE } from './schemas.ts';

export const invitation_reject = defineBinding({
  name: 'invitation_reject',
  summary: "Decline an invitation sent to the caller's e-mail address.",
  pt: {
    summary: 'Recusa um convite enviado ao e-mail de quem chama.',
    aliases: ['recusar convite', 'rejeitar convite', 'declinar convite'],
  },
  description: PERSONAL_NOTE,
  input: v.strictObject({ invitationId: IdSchema }),
  output: InvitationSchema,
  scope: null,
  writes: true,
  needsOrganization: false,
  personal: true,
  async handler(input, { sql, clock, caller }) {
    return invitationView(await rejectInvitation(sql, clock, caller, input.invitationId));
  },
});
