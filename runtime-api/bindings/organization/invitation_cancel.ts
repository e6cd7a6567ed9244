// invitation_cancel: withdraw a pending invitation of the caller's organization (owner or admin).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { cancelInvitation, invitationView } from '../../services/invitations.ts';
import { IdSchema, InvitationSchema } from './schemas.ts';

export const invitation_cancel = defineBinding({
  name: 'invitation_cancel',
  summary: 'Cancel a pending invitation of the organization.',
  pt: {
    summary: 'Cancela um convite pendente da organização.',
    aliases: ['cancelar convite', 'revogar convite', 'retirar convite', 'desconvidar'],
  },
  description: 'An invitation of another organization, or one no longer pending, is 404 INVITATION_NOT_FOUND.',
  aliases: ['revoke invitation', 'withdraw invite', 'uninvite'],
  examples: ['const { items: [first] } = await invitations_list({});\nif (first) await invitation_cancel({ invitationId: first.invitationId });'],
  input: v.strictObject({ invitationId: IdSchema }),
  output: InvitationSchema,
  scope: 'org:admin',
  writes: true,
  async handler(input, { sql, clock, caller }) {
    return invitationView(await cancelInvitation(sql, clock, caller, input.invitationId));
  },
});
