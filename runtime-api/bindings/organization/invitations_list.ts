// invitations_list: the organization's pending (unanswered, unexpired) invitations, oldest first. Any member may list them.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { byCreation, listInputEntries, listOutput, pageOf } from '../../list-page.ts';
import { listPendingInvitations } from '../../store/invitations.ts';
import { invitationView } from '../../services/invitations.ts';
import { InvitationSchema } from './schemas.ts';

export const invitations_list = defineBinding({
  name: 'invitations_list',
  summary: "List the organization's pending invitations, oldest first.",
  pt: {
    summary: 'Lista os convites pendentes da organização, dos mais antigos aos mais novos.',
    aliases: ['convites pendentes', 'convites em aberto', 'convidados'],
  },
  aliases: ['pending invites', 'outstanding invitations'],
  examples: ['const { items } = await invitations_list({});\nreturn items.map((i) => `${i.email} (${i.role}) until ${i.expiresAt}`);'],
  input: v.strictObject({ ...listInputEntries() }),
  output: listOutput(InvitationSchema, 'pending invitations'),
  scope: 'org:read',
  writes: false,
  async handler(input, { sql, clock, caller }) {
    const rows = await listPendingInvitations(sql, caller.membership!.orgId, clock.now());
    return pageOf('invitations_list', rows, input, { key: byCreation }, invitationView);
  },
});
